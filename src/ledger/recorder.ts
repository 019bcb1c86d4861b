// The audit ledger as commands see it: a dependency (Deps.ledger) to which a command that changes something says
// what it changed, target by target as each ends (a bulk run hands every outcome as it arrives). The command's
// one line is written as the process ends (a cleanup of the factory's), whether the command succeeded, failed or
// was interrupted, so a failure after the change still leaves its line. Writing it never fails the command: a
// ledger that cannot be written is one warning on stderr, and the exit code is the command's own.
import path from 'node:path';
import type { Clock } from '../io/clock.js';
import type { Settings } from '../config/settings.js';
import { redactCommandLine } from '../shared/redact.js';
import { appendLedgerLine } from './writer.js';
import { LEDGER_VERSION, tallyOutcomes, type LedgerChange, type LedgerEntry, type LedgerTarget } from './entry.js';

/** The ledger's name in the config directory, when neither FLEETCTL_LEDGER nor ledger_file names another file. */
export const LEDGER_FILE_NAME = 'ledger.ndjson';

export interface Ledger {
  /** What this command changes: its name, its run id, targets already ended. Said again, it adds to the line. */
  record(change: LedgerChange): void;
  /** One target's end (several calls for one target: the last one stands). */
  outcome(target: LedgerTarget): void;
  /** The command as a whole stopped (interrupted, a failure before every target ended): why, in its line. */
  failed(reason: string): void;
  /** Writes the line, once, when something was recorded; never throws. */
  flush(): Promise<void>;
}

export interface LedgerDeps {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  configDir(): string;
  settings(): Promise<Settings>;
  /** One line on stderr. */
  warn(message: string): void;
  /** The words after `fleetctl` (redacted before they are written). */
  argv: readonly string[];
  /** How the line is appended (ledger/writer.ts unless a test says otherwise). */
  append?: (file: string, line: string) => Promise<void>;
}

/** Where the ledger goes: FLEETCTL_LEDGER, else the profile's ledger_file, else the config directory's. */
export function ledgerFileOf(settings: Pick<Settings, 'ledger_file'> | undefined, env: NodeJS.ProcessEnv, configDir: string): string {
  const named = env.FLEETCTL_LEDGER || settings?.ledger_file.value;
  return path.resolve(named || path.join(configDir, LEDGER_FILE_NAME));
}

export function createLedger(deps: LedgerDeps): Ledger {
  let command: string | undefined;
  let runId: string | undefined;
  let error: string | undefined;
  let written = false;
  const targets = new Map<string, LedgerTarget>();
  return {
    record(change) {
      command = change.command;
      runId = change.runId ?? runId;
      if (change.error) error = change.error;
      for (const target of change.targets ?? []) targets.set(target.target, target);
    },
    outcome(target) {
      targets.set(target.target, target);
    },
    failed(reason) {
      error = reason;
    },
    async flush() {
      if (command === undefined || written) return;
      written = true;
      const ended = [...targets.values()];
      const settings = await deps.settings().catch(() => undefined);
      const file = ledgerFileOf(settings, deps.env, deps.configDir());
      const entry: LedgerEntry = {
        v: LEDGER_VERSION,
        time: deps.clock.now().toISOString(),
        profile: settings?.profile.value ?? null,
        base_url: settings?.base_url.value ?? null,
        client_id: settings?.client_id.value ?? null,
        command,
        argv: redactCommandLine(deps.argv),
        run_id: runId ?? null,
        targets: ended,
        outcomes: tallyOutcomes(ended),
        ...(error === undefined ? {} : { error }),
      };
      try {
        await (deps.append ?? appendLedgerLine)(file, JSON.stringify(entry));
      } catch (failure) {
        deps.warn(`the audit ledger ${file} could not be written (${describe(failure)}); the command itself is not affected`);
      }
    },
  };
}

/** A system error by its code (EACCES, ENOSPC), anything else by its message. */
function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return error instanceof Error ? error.message : String(error);
}

export interface SingleChange<T> {
  command: string;
  /** What is changed; for what the work makes (a new driver), what stands for it until the answer names it. */
  target: string;
  /** The outcome when the work succeeds: accepted, created, updated, deleted, set ... */
  outcome: string;
  /** The target as the answer names it (the id of what was made), when it does. */
  targetIn?: (result: T) => string | undefined;
  idempotencyKey?: string;
}

/**
 * One change to one target, recorded however it ends: its outcome once `work` succeeds, `failed` with the
 * service's status and problem code when it throws (the error goes on to the caller unchanged).
 */
export async function recordedChange<T>(ledger: Pick<Ledger, 'record'>, change: SingleChange<T>, work: () => Promise<T>): Promise<T> {
  const key = change.idempotencyKey === undefined ? {} : { idempotency_key: change.idempotencyKey };
  try {
    const result = await work();
    const target = change.targetIn?.(result) ?? change.target;
    ledger.record({ command: change.command, targets: [{ target, outcome: change.outcome, ...key }] });
    return result;
  } catch (error) {
    // an API failure's status and code, read by shape: the ledger depends on no client
    const { status, code } = error as { status?: unknown; code?: unknown };
    const answer = { ...(typeof status === 'number' ? { http_status: status } : {}), ...(typeof code === 'string' ? { code } : {}) };
    ledger.record({ command: change.command, targets: [{ target: change.target, outcome: 'failed', ...key, ...answer }], error: describe(error) });
    throw error;
  }
}
