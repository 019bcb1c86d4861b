// Files other processes may read at any moment (caches, state, downloads) are replaced whole: written beside the
// target, then renamed over it, so a reader sees the old content or the new, never half of it.
import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensureParentDirectory } from './directories.js';

export async function writeFileAtomically(file: string, content: string, opts: { mode?: number; directoryMode?: number } = {}): Promise<void> {
  // level by level: a recursive mkdir spins on paths under /proc
  ensureParentDirectory(file, { mode: opts.directoryMode ?? 0o700 });
  await replaceFileAtomically(file, (temporary) => writeFile(temporary, content, { mode: opts.mode ?? 0o600 }));
}

/** `write` fills a hidden temporary file beside `file`, which then replaces it; on any failure nothing is left behind. */
export async function replaceFileAtomically(file: string, write: (temporary: string) => Promise<unknown>): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await write(temporary);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
