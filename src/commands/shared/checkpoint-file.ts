// The file a --checkpoint names (a feed's position, a watch's last round): read at the start, and refused then,
// not at its first save, when it could never be written.
import fs from 'node:fs';
import { cannotReplace } from '../../io/atomic-file.js';
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';

/** The checkpoint's text, or undefined when there is no file yet (the first run); exit 2 when it cannot be kept. */
export async function readCheckpointFile(file: string): Promise<string | undefined> {
  let text: string | undefined;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`--checkpoint ${quoteInput(file)} cannot be read: ${(error as Error).message}`);
  }
  const why = cannotReplace(file);
  if (why !== undefined) throw new UsageError(`--checkpoint ${quoteInput(file)} cannot be written: ${why}`, 'give a file in a folder you may write to');
  return text;
}
