// How standard output ends before the command does. A reader that stops early (`| head`) closes it: a normal end,
// not a crash; reads and watchers stop quietly (deps.signal), confirmed work such as a bulk reboot goes on
// (deps.interruptSignal), and the cleanups still run (an embedded sandbox saves its state). A stdout that cannot
// take what is written (a file on a full disk) loses the data: the command stops as for a closed one, but says
// so, as a full disk anywhere else (exit 15), where a reader gone is no failure. main.ts answers both.
import { CancelledError, diskFullOf, type FleetctlError } from '../errors.js';
import type { IOStreams } from './streams.js';

export interface StdoutEnd {
  /** What a closed stdout aborts with: main.ts ends with exit 0 on it. */
  readonly closed: CancelledError;
  /** The full disk, once a write to stdout failed for want of room. */
  readonly full: FleetctlError | undefined;
  /** The listener of process.stdout's 'error'. */
  onError(error: NodeJS.ErrnoException): void;
  /** True when a write failed: one of a file fails in a later turn, so with `waitTurn` the last one is waited for. */
  failed(): Promise<boolean>;
}

/** Aborts `gone` when stdout closes or fills; `waitTurn` for the process's own stdout (a test's stream fails at once). */
export function watchStdoutEnd(io: IOStreams, gone: AbortController, waitTurn: boolean): StdoutEnd {
  const closed = new CancelledError('stdout closed');
  let full: FleetctlError | undefined;
  return {
    closed,
    get full() {
      return full;
    },
    onError(error) {
      if (gone.signal.aborted) return;
      if (error.code === 'EPIPE') {
        io.outClosed = true;
        return gone.abort(closed);
      }
      full = diskFullOf(error, 'standard output');
      if (!full) return;
      // what was printed is not all on the disk: no resume point is said for it, only the full disk
      io.outClosed = true;
      gone.abort(full);
    },
    async failed() {
      if (waitTurn) await new Promise((resolve) => setImmediate(resolve));
      return full !== undefined;
    },
  };
}
