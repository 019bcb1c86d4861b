// Standard output when it is a regular file (`>> feed.ndjson`): which file, how long, and how to take back what was
// written after a known length. A feed's checkpoint (commands/shared/feed-checkpoint.ts) records the length after
// each event, so that a line written before a kill -9 but not yet recorded is not written twice.
import fs from 'node:fs';
import type { Writable } from 'node:stream';

export interface StdoutFileState {
  dev: number;
  ino: number;
  size: number;
}

export interface StdoutFile {
  /** The file standard output is, now; undefined when it is a pipe, a terminal or gone. */
  state(): StdoutFileState | undefined;
  /** Cuts the file back to `size` bytes. */
  truncate(size: number): void;
}

const STDOUT_FD = 1;

/**
 * The file behind `out` when `out` is this process's standard output and that is a regular file (written
 * synchronously by Node, so its length is known after each write); otherwise undefined (tests, pipes).
 */
export function stdoutFileOf(out: Writable): StdoutFile | undefined {
  if (out !== process.stdout) return undefined;
  const state = (): StdoutFileState | undefined => {
    try {
      const stat = fs.fstatSync(STDOUT_FD);
      return stat.isFile() ? { dev: stat.dev, ino: stat.ino, size: stat.size } : undefined;
    } catch {
      return undefined;
    }
  };
  if (state() === undefined) return undefined;
  return { state, truncate: (size) => fs.ftruncateSync(STDOUT_FD, size) };
}
