// The check of a hardware id typed or read from a file, shared by the commands and the bulk engine.
import { UsageError } from '../errors.js';
import { hasControlCharacters, quoteInput } from './terminal-text.js';

/** Hardware ids are free-form, but none is longer than this: a longer one is a file read by mistake. */
export const MAX_HARDWARE_ID_LENGTH = 1024;

/**
 * A hardware id that can form a request: not blank, no control characters (a NUL or an escape sequence is
 * never part of an id, and cannot travel in the Idempotency-Key header), and not absurdly long. `where` says
 * where it came from ("line 3 of --from-file ids.txt"); everything else the spec allows is kept as typed.
 */
export function requireHardwareId(value: string, what = 'hardware id', where?: string): string {
  const at = where ? ` (${where})` : '';
  if (value.trim().length === 0) throw new UsageError(`${what}${at} must not be empty`);
  if (hasControlCharacters(value)) {
    throw new UsageError(`${what} ${quoteInput(value)}${at} contains control characters`, 'hardware ids are printable text: is this a binary file, or a stray escape sequence?');
  }
  if (value.length > MAX_HARDWARE_ID_LENGTH) {
    throw new UsageError(`${what} ${quoteInput(value, 40)}${at} is ${value.length} characters long; hardware ids have at most ${MAX_HARDWARE_ID_LENGTH}`);
  }
  return value;
}
