// A cursor in a hint on stderr. Cursors are opaque and a service may make them long (a 1.5 kB one filled 21 lines
// of an 80-column terminal): on a terminal, one that does not fit on a line is saved to a file and the hint
// reads it from there; in a log or a pipe it is written whole, for the script that reads it.
import { nodeCrypto } from '../../shared/node-crypto.js';
import fs from 'node:fs';
import path from 'node:path';
import type { IOStreams } from '../../io/streams.js';
import { writeFileAtomically } from '../../io/atomic-file.js';
import { shellWord } from '../../shared/shell-quote.js';

export interface CursorHintDeps {
  io: IOStreams;
  configDir: () => string;
}

/** How the hint names the cursor: the words to paste after a command, and where the cursor is when not shown. */
export interface CursorWords {
  /** `--cursor WORD`, or `--cursor "$(cat FILE)"` (or `-f cursor=...`). */
  flag: string;
  /** ` (the cursor, N characters, is in FILE)` when it was saved, else ''. */
  note: string;
}

/** Saved cursors older than this are removed when another is saved: a cursor is for resuming soon after. */
const KEEP_MS = 7 * 24 * 3600 * 1000;

/** How a command takes a cursor: `--cursor C` for the list commands, `-f cursor=C` for `api`. */
export type CursorFlag = '--cursor' | '-f cursor=';

/** `--cursor C` for a hint: whole when it fits on a line of the terminal stderr is on, else read from a file. */
export async function cursorWords(deps: CursorHintDeps, cursor: string, takes: CursorFlag = '--cursor'): Promise<CursorWords> {
  const given = (word: string) => (takes === '--cursor' ? `--cursor ${word}` : `-f cursor=${word}`);
  const whole = given(shellWord(cursor));
  if (!deps.io.stderrIsTTY) return { flag: whole, note: '' };
  // loaded only for a terminal, as the tables load it
  const { displayWidth } = await import('../../output/text-width.js');
  if (displayWidth(whole) <= deps.io.stderrColumns()) return { flag: whole, note: '' };
  const file = cursorFile(deps.configDir(), cursor);
  try {
    await writeFileAtomically(file, `${cursor}\n`);
  } catch {
    // nowhere to keep it (a full disk, a read-only home): the long line is better than no way to go on
    return { flag: whole, note: '' };
  }
  await pruneSavedCursors(path.dirname(file), file);
  return { flag: given(`"$(cat ${shellWord(file)})"`), note: ` (the cursor, ${cursor.length} characters, is in ${file})` };
}

/** One file per cursor (named by its digest): two lists paged at once in two terminals keep their own. */
export function cursorFile(configDir: string, cursor: string): string {
  return path.join(configDir, 'cursors', `${nodeCrypto().createHash('sha256').update(cursor).digest('hex').slice(0, 16)}.txt`);
}

async function pruneSavedCursors(directory: string, keep: string): Promise<void> {
  try {
    const now = Date.now();
    for (const name of await fs.promises.readdir(directory)) {
      const file = path.join(directory, name);
      if (file === keep) continue;
      const stat = await fs.promises.stat(file);
      if (now - stat.mtimeMs > KEEP_MS) await fs.promises.unlink(file);
    }
  } catch {
    // tidying only: a file another process removed meanwhile, or one that cannot be read, is left as it is
  }
}
