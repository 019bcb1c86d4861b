// Taking turns with a shared state file, one request at a time (the embedded sandbox: every `fleetctl --sandbox`
// of a home directory serves the same world). A sandbox holding the lock for its whole life would make a second
// command wait for as long as the first runs: a `--follow` for hours. Here each request takes the lock, finds the
// state as the last holder left it (reloaded only when the files changed since this process last saw them), is
// answered with its changes on the disk, and lets go; between requests, another process has the world.
import { statSync } from 'node:fs';
import type { HeldLock } from '../../io/file-lock.js';
import { changeLogOf } from './state-changes.js';

export interface StateTurnsOptions {
  /** Takes the state file's lock (waiting for its holder, saying so). */
  lock(): Promise<HeldLock>;
  /** The state on the disk is not what this process last saw (another saved it, or reset it): load it. */
  changed(): Promise<void>;
}

export class StateTurns {
  /** This process's requests, one after the other: the lock is the process's, not each request's. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The state files as this process last loaded or saved them. */
  private seen: string;

  constructor(
    private readonly file: string,
    private readonly opts: StateTurnsOptions,
  ) {
    this.seen = filesMark(file);
  }

  /** Runs `work` holding the lock, with the state as the disk has it; what it changes must be saved before it ends. */
  take<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(() => this.hold(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** After loading or saving under the lock outside a turn (at start): what the disk holds is what this process has. */
  saw(): void {
    this.seen = filesMark(this.file);
  }

  private async hold<T>(work: () => Promise<T>): Promise<T> {
    const lock = await this.opts.lock();
    // false while the disk holds a state this process has not loaded (one it could not read is tried again)
    let current = true;
    try {
      if (filesMark(this.file) !== this.seen) {
        current = false;
        await this.opts.changed();
        current = true;
      }
      return await work();
    } finally {
      // still holding the lock: nobody else wrote since, so this is what this process's own saves made
      if (current) this.seen = filesMark(this.file);
      lock.release();
    }
  }
}

/**
 * What tells the state files apart from their earlier selves: the state file is replaced whole (a new inode) and its
 * change log grows with every change, so inode, size and modification time (in nanoseconds) of the two suffice.
 */
function filesMark(file: string): string {
  return [file, changeLogOf(file)].map(markOf).join('|');
}

function markOf(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return '-';
  }
}
