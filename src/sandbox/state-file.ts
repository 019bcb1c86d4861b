// The state file: seed parameters plus everything the API changed. Each change is on the disk before the request
// that made it is answered (state-changes.ts: a log beside the file, folded into it now and then; the file itself is
// replaced atomically); read at start, under its lock, and by a sandbox sharing it whenever another process changed
// it (state-turns.ts). A file that cannot be read as sandbox state makes start-up fail and is never overwritten.
import { writeFileAtomically } from '../io/atomic-file.js';
import { acquireLock, type HeldLock } from '../io/file-lock.js';
import { ensureParentDirectory } from '../io/directories.js';
import type { WorldChanges } from './world-store.js';
import type { CommandsState } from './store/commands.js';
import type { WebhookConfigsState } from './store/webhook-configs.js';
export { CorruptStateError } from './store/state-errors.js';
import type { TokenRecord } from './auth/tokens.js';
import type { Scenario } from './scenario/scenario.js';
import { ConfigError } from '../errors.js';
import { CorruptStateError, StateNotSavedError } from './store/state-errors.js';
import { ChangeLogWriter, applyChange, changeLogOf, readChangeLog, stateDigest, type ChangeLogContent, type StateChange } from './store/state-changes.js';
import { InputFileError, readTextFile } from '../io/read-input.js';
import { describeIssue, issueOf } from '../openapi/schema-check.js';

/** Changes to a seeded world, never the world itself: far below this even after millions of requests. */
const MAX_STATE_BYTES = 256 * 1024 * 1024;

export const STATE_FORMAT = 'fleetctl-sandbox-state';
export const STATE_VERSION = 1;

export interface SandboxState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  seed: number;
  devices: number;
  /** hex; signs cursors and media links, so they stay valid across restarts */
  secret: string;
  /**
   * The world's "now" when it was made (ISO date-time): its seeded reports and telemetry are recent to it, so they
   * are the same at every start. Absent in files of earlier versions: set at their next start.
   */
  anchor?: string;
  /** The scenario the world was built from (checked against its schema when loaded); absent: none. */
  scenario?: Scenario | null;
  world: WorldChanges;
  commands: CommandsState;
  webhooks: WebhookConfigsState;
  tokens: Record<string, TokenRecord>;
}

export interface StateLockOptions {
  /** How long to wait for its holder; 0 refuses at once. */
  waitMs: number;
  /** One line when the wait passes `noticeAfterMs` (and when a stale lock is recovered). */
  notice?: (line: string) => void;
  noticeAfterMs?: number;
  /** What this process takes it for, shown to those who wait: the command that runs. */
  purpose?: string;
}

/**
 * The state file's lock (STATE.lock). A sandbox of its own (`fleetctl sandbox --state`) holds it from loading the
 * state to its last save: sandboxes started on one file at once then run one after the other, each starting from
 * what the one before saved. The embedded sandbox holds it one request at a time (state-turns.ts). Either way none
 * overwrites another's idempotency records, assignments, drivers or webhook configs.
 */
export function lockStateFile(file: string, opts: StateLockOptions): Promise<HeldLock> {
  // the folder is the operator's choice: made as the saver makes it, with the usual permissions
  try {
    ensureParentDirectory(file, { mode: 0o777 });
  } catch (err) {
    throw new ConfigError(`cannot use the folder of the sandbox state file ${file}: ${(err as Error).message}`, 'choose a --state FILE in a folder you can write to');
  }
  return acquireLock(`${file}.lock`, { ...opts, what: `the sandbox state ${file}`, purpose: opts.purpose ?? 'a sandbox using this state' });
}

/** The state as saved: the state file and, applied over it, the changes its log holds. */
export interface LoadedState {
  state: SandboxState;
  /** The digest of the state file's text (the log names it), and its size. */
  digest: string;
  bytes: number;
  log: ChangeLogContent;
}

/** The saved state, or null when the file does not exist. */
export async function loadState(file: string): Promise<LoadedState | null> {
  let text: string;
  try {
    // bounded: /dev/zero or a FIFO named by mistake must fail, not hang or fill the memory
    text = await readTextFile(file, `the sandbox state file ${file}`, { maxBytes: MAX_STATE_BYTES });
  } catch (err) {
    if (err instanceof InputFileError && err.code === 'ENOENT') return null;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CorruptStateError(file, `not valid JSON: ${(err as Error).message}`);
  }
  const digest = stateDigest(text);
  const log = await readChangeLog(file, digest);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) for (const change of log.changes) applyChange(parsed as Record<string, unknown>, change);
  // the SandboxStateFile schema of local-files.json, compiled at build time: `--sandbox --state` starts each command
  const { SandboxStateFile } = await import('../openapi/validators.gen.js');
  const issue = issueOf(SandboxStateFile, parsed);
  if (issue) throw new CorruptStateError(file, `${describeIssue(issue)}${log.changes.length ? ` (with the ${log.changes.length} changes of ${changeLogOf(file)})` : ''}`);
  return { state: parsed as SandboxState, digest, bytes: text.length, log };
}

/**
 * Keeps the state on the disk: each change the stores report is appended to the change log (STATE.changes) and
 * fsynced before `durable()` resolves; the whole state is written (and the log started afresh) at the first save
 * of a new file, after a change no store describes (a reset, a scenario), and when the log has outgrown the state.
 * Saves are one at a time, each taking every change made before it began (requests answered together share one).
 */
export class StateSaver {
  private pending: StateChange[] = [];
  private whole: boolean;
  private saving: Promise<void> = Promise.resolve();
  private wholeBytes: number;
  private readonly changeLog: ChangeLogWriter;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SandboxState,
    private readonly log: (line: string) => void,
    /** What the file held at start; null: it did not exist, and the state is written whole at the first save. */
    loaded: LoadedState | null,
  ) {
    // changes read from a log that ends in a fragment go into a whole write before the log is appended to again
    const appendable = loaded !== null && (loaded.log.changes.length === 0 || loaded.log.appendableBytes !== null);
    this.changeLog = new ChangeLogWriter(file, appendable ? loaded.digest : null, loaded?.log.appendableBytes ?? null);
    this.whole = !appendable;
    this.wholeBytes = loaded?.bytes ?? 0;
  }

  /** A change a store made (a command, an assignment, a token...): on the disk at the next save. */
  readonly record = (change: StateChange): void => {
    this.pending.push(change);
  };

  /** A change no store describes (the world replaced): the next save writes the whole state. */
  changedWhole(): void {
    this.whole = true;
  }

  private get unsaved(): boolean {
    return this.whole || this.pending.length > 0;
  }

  /** Resolves once every change made so far is on the disk; rejects with StateNotSavedError when it could not be put there. */
  durable(): Promise<void> {
    // nothing left: the save under way (if any) holds the caller's changes
    if (!this.unsaved) return this.saving;
    this.saving = this.saving.catch(() => undefined).then(() => this.save());
    return this.saving;
  }

  /** At close: whatever is left, and the log closed. A failure was logged already. */
  async flush(): Promise<void> {
    await this.durable().catch(() => undefined);
    await this.close();
  }

  /** The log closed, nothing more saved: the files are another's to write now (a sandbox sharing them). */
  async close(): Promise<void> {
    await this.saving.catch(() => undefined);
    await this.changeLog.close();
  }

  private async save(): Promise<void> {
    if (!this.unsaved) return;
    const changes = this.pending;
    this.pending = [];
    const logBytes = this.changeLog.bytes ?? 0;
    const whole = this.whole || !this.changeLog.canAppend || logBytes > Math.max(MIN_COMPACTED_LOG_BYTES, this.wholeBytes);
    this.whole = false;
    try {
      if (whole) await this.writeWhole();
      else await this.changeLog.append(changes);
    } catch (err) {
      this.pending = changes.concat(this.pending);
      if (whole) this.whole = true;
      const failure = new StateNotSavedError(this.file, err as Error);
      this.log(`sandbox: ${failure.message}`);
      throw failure;
    }
  }

  private async writeWhole(): Promise<void> {
    const text = JSON.stringify(this.snapshot());
    // the folder is the operator's choice: created with the usual permissions, not the config folder's 0700
    await writeFileAtomically(this.file, text, { directoryMode: 0o777, durable: true });
    this.wholeBytes = text.length;
    await this.changeLog.restart(stateDigest(text));
  }
}

/** A log is folded into the state file once it is larger than the state and than this. */
const MIN_COMPACTED_LOG_BYTES = 1024 * 1024;
