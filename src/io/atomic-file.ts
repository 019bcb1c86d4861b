// Files other processes may read at any moment (caches, state) are replaced whole: written beside the target,
// then renamed over it, so a reader sees the old content or the new, never half of it.
import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { ensureParentDirectory } from './directories.js';

export async function writeFileAtomically(file: string, content: string, opts: { mode?: number; directoryMode?: number } = {}): Promise<void> {
  // level by level: a recursive mkdir spins on paths under /proc
  ensureParentDirectory(file, { mode: opts.directoryMode ?? 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, { mode: opts.mode ?? 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
