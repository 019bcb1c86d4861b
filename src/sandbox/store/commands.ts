// Device commands: idempotency records and the log of executed commands (both persisted).
// spec (Devices rule 2): the same Idempotency-Key with the same body replays the original result; with a
// different body it is 422 idempotency.conflict. Contract: a key is scoped to client + method + path.
import { ignoreChange, type StateChangeSink } from './state-changes.js';

export interface CommandLogEntry {
  hardware_id: string;
  command: 'reboot' | 'wake_up';
  idempotency_key: string;
  executed_at: string;
}

export interface IdempotencyRecord {
  /** sha256 of the canonical request body. */
  body_hash: string;
  status: number;
  response: unknown;
  created_at: string;
}

export interface CommandsState {
  idempotency: Record<string, IdempotencyRecord>;
  log: CommandLogEntry[];
}

export class CommandStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private readonly log: CommandLogEntry[] = [];
  /** Told of each command recorded, as the state file keeps it. */
  onChange: StateChangeSink = ignoreChange;

  constructor(saved?: CommandsState) {
    if (saved) {
      for (const [k, v] of Object.entries(saved.idempotency)) this.records.set(k, v);
      this.log.push(...saved.log);
    }
  }

  static scopeKey(clientId: string, method: string, path: string, key: string): string {
    return JSON.stringify([clientId, method, path, key]);
  }

  find(scopeKey: string): IdempotencyRecord | undefined {
    return this.records.get(scopeKey);
  }

  /** Records an executed command and the response to replay for its key. */
  record(scopeKey: string, record: IdempotencyRecord, entry: CommandLogEntry): void {
    this.records.set(scopeKey, record);
    this.log.push(entry);
    this.onChange({ path: ['commands', 'idempotency', scopeKey], value: record });
    this.onChange({ path: ['commands', 'log', this.log.length - 1], value: entry });
  }

  executed(): readonly CommandLogEntry[] {
    return this.log;
  }

  toJSON(): CommandsState {
    return { idempotency: Object.fromEntries(this.records), log: this.log };
  }
}
