// Files other processes may read at any moment (caches, state, downloads) are replaced whole: written beside the
// target, then renamed over it, so a reader sees the old content or the new, never half of it.
import { randomBytes } from 'node:crypto';
// fs.promises is read where a file is written: node:fs/promises then loads only when one is, not with every
// command that imports this module
import fs from 'node:fs';
import path from 'node:path';
import { ensureParentDirectory } from './directories.js';
import { diskFullOf } from '../errors.js';

export interface AtomicWriteOptions {
  mode?: number;
  directoryMode?: number;
  /** On the disk before it replaces the file (fsync), not only handed to the system: for what was promised kept. */
  durable?: boolean;
}

export async function writeFileAtomically(file: string, content: string, opts: AtomicWriteOptions = {}): Promise<void> {
  // level by level: a recursive mkdir spins on paths under /proc
  try {
    ensureParentDirectory(file, { mode: opts.directoryMode ?? 0o700 });
  } catch (error) {
    throw diskFullOf(error, file) ?? error;
  }
  const mode = opts.mode ?? 0o600;
  await replaceFileAtomically(file, (temporary) => (opts.durable ? writeDurably(temporary, content, mode) : fs.promises.writeFile(temporary, content, { mode })));
}

async function writeDurably(file: string, content: string, mode: number): Promise<void> {
  const handle = await fs.promises.open(file, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** `write` fills a hidden temporary file beside `file`, which then replaces it; on any failure nothing is left behind. */
export async function replaceFileAtomically(file: string, write: (temporary: string) => Promise<unknown>): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await write(temporary);
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.unlink(temporary).catch(() => undefined);
    // a full disk is said of the file being replaced (the temporary is gone), as every write of fleetctl says it
    throw diskFullOf(error, file) ?? error;
  }
}
