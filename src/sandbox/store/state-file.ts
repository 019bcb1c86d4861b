// The state file: seed parameters plus everything the API changed. Written atomically (temporary file in
// the same directory, then rename) a moment after each change and at close; read at start. A file that
// cannot be read as sandbox state makes start-up fail and is never overwritten.
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { ensureParentDirectory } from '../../io/directories.js';
import { randomBytes } from 'node:crypto';
import type { WorldChanges } from './world-store.js';
import type { CommandsState } from './commands.js';
import type { WebhookConfigsState } from './webhook-configs.js';
import type { TokenRecord } from '../auth/tokens.js';
import { ConfigError } from '../../errors.js';

export const STATE_FORMAT = 'fleetctl-sandbox-state';
export const STATE_VERSION = 1;

export interface SandboxState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  seed: number;
  devices: number;
  /** hex; signs cursors and media links, so they stay valid across restarts */
  secret: string;
  world: WorldChanges;
  commands: CommandsState;
  webhooks: WebhookConfigsState;
  tokens: Record<string, TokenRecord>;
}

/** A usage error of the CLI (exit 2, one line and a hint), as a corrupt config store is. */
export class CorruptStateError extends ConfigError {
  readonly reason: string;

  constructor(
    readonly file: string,
    reason: string,
    hint = `move it away or delete it to start with fresh state (mv ${file} ${file}.bak)`,
  ) {
    // JSON.parse messages may span lines: the error stays one line.
    const oneLine = reason.split('\n')[0]!.trim();
    super(`the sandbox state file ${file} is corrupt (${oneLine}); it was left untouched`, hint);
    this.name = 'CorruptStateError';
    this.reason = oneLine;
  }
}

/** The saved state, or null when the file does not exist. */
export async function loadState(file: string): Promise<SandboxState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CorruptStateError(file, `cannot be read: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CorruptStateError(file, `not valid JSON: ${(err as Error).message}`);
  }
  const problem = shapeProblem(parsed);
  if (problem) throw new CorruptStateError(file, problem);
  return parsed as SandboxState;
}

function shapeProblem(value: unknown): string | null {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) return 'not a JSON object';
  if (value.format !== STATE_FORMAT) return `format is not ${STATE_FORMAT}`;
  if (value.version !== STATE_VERSION) return `unsupported version ${JSON.stringify(value.version)}`;
  if (!Number.isInteger(value.seed) || !Number.isInteger(value.devices) || (value.devices as number) < 0) return 'bad seed or devices';
  if (typeof value.secret !== 'string' || !/^[0-9a-f]{64}$/.test(value.secret)) return 'bad secret';
  const { world, commands, webhooks, tokens } = value;
  if (!isObject(world) || !isObject(world.assignments) || !isObject(world.updatedDrivers) || !Array.isArray(world.createdDrivers)) {
    return 'bad world section';
  }
  if (!isObject(commands) || !isObject(commands.idempotency) || !Array.isArray(commands.log)) return 'bad commands section';
  if (!isObject(webhooks) || !isObject(webhooks.configs) || !Number.isInteger(webhooks.last_revision)) return 'bad webhooks section';
  if (!isObject(tokens)) return 'bad tokens section';
  return recordProblem(world, commands, webhooks, tokens);
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: Json, ...names: string[]) => names.every((n) => typeof v[n] === 'string');

/** Each saved record has the fields the sandbox relies on. */
function recordProblem(world: Json, commands: Json, webhooks: Json, tokens: Json): string | null {
  const driver = (d: unknown) => isRecord(d) && strings(d, 'id', 'organization_id', 'fleet_id', 'first_name', 'last_name', 'status');
  const checks: [string, boolean][] = [
    ['world.assignments', Object.values(world.assignments as Json).every((a) => isRecord(a) && strings(a, 'fleet_id', 'organization_id') && (a.vehicle_id === null || typeof a.vehicle_id === 'string'))],
    ['world.updatedDrivers', Object.values(world.updatedDrivers as Json).every(driver)],
    ['world.createdDrivers', (world.createdDrivers as unknown[]).every(driver)],
    ['commands.idempotency', Object.values(commands.idempotency as Json).every((r) => isRecord(r) && strings(r, 'body_hash') && Number.isInteger(r.status))],
    ['commands.log', (commands.log as unknown[]).every((e) => isRecord(e) && strings(e, 'hardware_id', 'command', 'idempotency_key', 'executed_at'))],
    ['webhooks.configs', Object.values(webhooks.configs as Json).every((c) => isRecord(c) && strings(c, 'organization_id', 'auth_key') && Array.isArray(c.topics) && Number.isInteger(c.revision))],
    ['tokens', Object.values(tokens).every((t) => isRecord(t) && strings(t, 'client_id', 'organization_id') && Array.isArray(t.scopes) && Number.isFinite(t.expires_at_ms))],
  ];
  const bad = checks.find(([, ok]) => !ok);
  return bad ? `bad records in ${bad[0]}` : null;
}

export async function writeStateAtomically(file: string, state: SandboxState): Promise<void> {
  ensureParentDirectory(file);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/** Saves a moment after changes (coalescing bursts such as a bulk reboot) and on flush; never two writes at once. */
export class StateSaver {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SandboxState,
    private readonly log: (line: string) => void,
    /** The file already holds this state (it was loaded from it): a flush without changes writes nothing. */
    private onDisk = false,
    private readonly delayMs = 250,
  ) {}

  changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes pending changes now (or the whole state, if the file does not hold it yet) and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // `fleetctl --sandbox` closes its sandbox after every command: most change nothing, so most write nothing.
    if (!this.onDisk) this.dirty = true;
    await this.save();
  }

  private save(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await writeStateAtomically(this.file, this.snapshot());
        this.onDisk = true;
      } catch (err) {
        this.dirty = true;
        this.log(`sandbox: could not save state to ${this.file}: ${(err as Error).message}`);
      }
    });
    return this.writing;
  }
}
