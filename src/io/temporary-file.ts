// The temporaries of files replaced whole (atomic-file.ts): their names, the removal of those a killed process
// left, and the replacement that cannot wait (at a process's exit). A leaf: the compile cache (compile-cache.ts),
// bundled alone and loaded before anything else, writes through it without the error classes.
import fs from 'node:fs';
import path from 'node:path';

/** The names of `file`'s temporaries: `.NAME.PID.HEX.tmp`. */
export function temporaryPattern(file: string): RegExp {
  return new RegExp(`^\\.${escapeRegExp(path.basename(file))}\\.\\d+\\.[0-9a-f]+\\.tmp$`);
}

/**
 * A file replaced whole, synchronously, for a write that cannot wait (a process's exit): written beside it, then
 * renamed over it. The temporary is created anew (O_EXCL: never through a file or link already there), its name
 * made without node:crypto, whose loading costs more than the write. Throws the system's error; nothing is left.
 */
export function replaceFileAtomicallySync(file: string, content: string | Uint8Array, mode = 0o600): void {
  const directory = path.dirname(file);
  removeLeftoverTemporaries(directory, temporaryPattern(file));
  const temporary = path.join(directory, `.${path.basename(file)}.${process.pid}.${(++syncWrites).toString(16)}.tmp`);
  try {
    fs.writeFileSync(temporary, content, { mode, flag: 'wx' });
    fs.renameSync(temporary, file);
  } catch (error) {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // not made, or already renamed
    }
    throw error;
  }
}

let syncWrites = 0;

/** Older than this, no writer is still at its temporary (a write takes milliseconds). */
const LEFTOVER_AGE_MS = 60_000;

/**
 * Removes the temporaries (names matching `pattern`) of writes that never finished: a process killed between
 * writing one and renaming it. Only those over a minute old, so never one being written now.
 */
export function removeLeftoverTemporaries(directory: string, pattern: RegExp): void {
  let names: string[];
  try {
    names = fs.readdirSync(directory).filter((name) => pattern.test(name));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(directory, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > LEFTOVER_AGE_MS) fs.unlinkSync(file);
    } catch {
      // gone meanwhile, or not ours to remove: left as it is
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
