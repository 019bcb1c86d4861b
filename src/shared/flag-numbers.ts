// Numbers typed as flags, checked one way for the global flags (config/global-flags.ts) and every verb
// (commands/shared/validate.ts re-exports these).
import { UsageError } from '../errors.js';
import { quoteInput } from './terminal-text.js';

/** A count or a size typed as a flag: digits only, from min to max. */
export function requireWholeNumber(value: string, flag: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    const range = max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : min > 0 ? ` of at least ${min}` : '';
    throw new UsageError(`${flag} must be a whole number${range}, got ${quoteInput(value)}`);
  }
  return n;
}

/**
 * A number typed as a flag, that `fits` accepts; `what` says what it must be ("a number from 0 to 1"). A blank
 * value is refused (Number('') is 0, which a script passing an unset variable did not mean).
 */
export function requireNumber(value: string, flag: string, what: string, fits: (n: number) => boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !fits(n)) throw new UsageError(`${flag} must be ${what}, got ${quoteInput(value)}`);
  return n;
}
