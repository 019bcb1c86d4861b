// Files other processes may read at any moment (caches, state, downloads) are replaced whole: written beside the
// target, then renamed over it, so a reader sees the old content or the new, never half of it.
import { randomBytes } from 'node:crypto';
// fs.promises is read where a file is written: node:fs/promises then loads only when one is, not with every
// command that imports this module
import fs from 'node:fs';
import path from 'node:path';
import { ensureParentDirectory } from './directories.js';

export async function writeFileAtomically(file: string, content: string, opts: { mode?: number; directoryMode?: number } = {}): Promise<void> {
  // level by level: a recursive mkdir spins on paths under /proc
  ensureParentDirectory(file, { mode: opts.directoryMode ?? 0o700 });
  await replaceFileAtomically(file, (temporary) => fs.promises.writeFile(temporary, content, { mode: opts.mode ?? 0o600 }));
}

/** `write` fills a hidden temporary file beside `file`, which then replaces it; on any failure nothing is left behind. */
export async function replaceFileAtomically(file: string, write: (temporary: string) => Promise<unknown>): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await write(temporary);
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.unlink(temporary).catch(() => undefined);
    throw error;
  }
}
