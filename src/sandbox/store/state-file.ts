// The state file: seed parameters plus everything the API changed. Written atomically (temporary file in
// the same directory, then rename) a moment after each change and at close; read at start, under its lock. A file that
// cannot be read as sandbox state makes start-up fail and is never overwritten.
import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '../../io/atomic-file.js';
import { acquireLock, type HeldLock } from '../../shared/file-lock.js';
import { ensureParentDirectory } from '../../io/directories.js';
import type { WorldChanges } from './world-store.js';
import type { CommandsState } from './commands.js';
import type { WebhookConfigsState } from './webhook-configs.js';
import type { TokenRecord } from '../auth/tokens.js';
import type { Scenario } from '../scenario/scenario.js';
import { ConfigError } from '../../errors.js';
import { InputFileError, readTextFile } from '../../io/read-input.js';
import { describeIssue, issueOf } from '../../openapi/schema-check.js';

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
  /** The scenario the world was built from (checked against its schema when loaded); absent: none. */
  scenario?: Scenario | null;
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

/**
 * The state file's lock (STATE.lock), held from loading the state to its last save: sandboxes started on one file
 * at once (parallel `fleetctl --sandbox` invocations) then run one after the other, each starting from what the
 * one before saved, so none overwrites another's idempotency records, assignments, drivers or webhook configs.
 */
export function lockStateFile(file: string, waitMs: number): Promise<HeldLock> {
  // the folder is the operator's choice: made as the saver makes it, with the usual permissions
  try {
    ensureParentDirectory(file, { mode: 0o777 });
  } catch (err) {
    throw new ConfigError(`cannot use the folder of the sandbox state file ${file}: ${(err as Error).message}`, 'choose a --state FILE in a folder you can write to');
  }
  return acquireLock(`${file}.lock`, { what: `the sandbox state ${file}`, waitMs, purpose: 'a sandbox using this state' });
}

/** The saved state, or null when the file does not exist. */
export async function loadState(file: string): Promise<SandboxState | null> {
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
  // the SandboxStateFile schema of local-files.json, compiled at build time: `--sandbox --state` starts each command
  const { SandboxStateFile } = await import('../../openapi/validators.gen.js');
  const issue = issueOf(SandboxStateFile, parsed);
  if (issue) throw new CorruptStateError(file, describeIssue(issue));
  return parsed as SandboxState;
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
        // the folder is the operator's choice: created with the usual permissions, not the config folder's 0700
        await writeFileAtomically(this.file, JSON.stringify(this.snapshot()), { directoryMode: 0o777 });
        this.onDisk = true;
      } catch (err) {
        this.dirty = true;
        this.log(`sandbox: could not save state to ${this.file}: ${(err as Error).message}`);
      }
    });
    return this.writing;
  }
}
