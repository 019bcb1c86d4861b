// Files other processes may read at any moment (caches, state, downloads) are replaced whole: written beside the
// target, then renamed over it, so a reader sees the old content or the new, never half of it.
import { nodeCrypto } from '../shared/node-crypto.js';
// fs.promises is read where a file is written: node:fs/promises then loads only when one is, not with every
// command that imports this module
import fs from 'node:fs';
import path from 'node:path';
import { ensureParentDirectory } from './directories.js';
import { diskFullOf } from '../errors.js';
import { removeLeftoverTemporaries, temporaryPattern } from './temporary-file.js';

export { removeLeftoverTemporaries };

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

/**
 * Whether `file` can be replaced later (its folder made if need be, and writable), checked before a long-running
 * command relies on it: a file named on the line that cannot be kept is said at the start, not at the first
 * write an hour on. Returns why not (the system's words), or undefined.
 */
export function cannotReplace(file: string, directoryMode = 0o700): string | undefined {
  try {
    ensureParentDirectory(file, { mode: directoryMode });
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
    return undefined;
  } catch (error) {
    if (diskFullOf(error, file)) throw diskFullOf(error, file);
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? `its folder ${path.dirname(file)} cannot be written (${code})` : (error as Error).message;
  }
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

/**
 * `write` fills a hidden temporary file beside `file`, which then replaces it; on any failure nothing is left behind.
 * A process killed between the two leaves its temporary (`.NAME.PID.HEX.tmp`): the next write of `file` removes
 * those over a minute old.
 */
export async function replaceFileAtomically(file: string, write: (temporary: string) => Promise<unknown>): Promise<void> {
  const directory = path.dirname(file);
  removeLeftoverTemporaries(directory, temporaryPattern(file));
  const temporary = path.join(directory, `.${path.basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`);
  try {
    await write(temporary);
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.unlink(temporary).catch(() => undefined);
    // a full disk is said of the file being replaced (the temporary is gone), as every write of fleetctl says it
    throw diskFullOf(error, file) ?? error;
  }
}
