// Argument checks that run before any request, each with a message that says what is wrong.
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { canonicalUuid } from '../../shared/uuid.js';
import { requireHardwareId } from '../../shared/hardware-id.js';

export function requireUuid(value: string, what: string): string {
  const uuid = canonicalUuid(value);
  if (uuid === undefined) throw new UsageError(`${what} must be a UUID (like 3f2b8c1e-0000-4000-8000-000000000000), got ${quoteInput(value)}`);
  return uuid;
}

export function optionalUuid(value: string | undefined, what: string): string | undefined {
  return value === undefined ? undefined : requireUuid(value, what);
}

export function uuidList(values: string[] | undefined, what: string): string[] | undefined {
  if (!values || values.length === 0) return undefined;
  return values.flatMap((value) => value.split(',')).map((value) => requireUuid(value.trim(), what));
}

// the global flags (config/global-flags.ts) read numbers the same way, from below the commands
export { requireNumber, requireWholeNumber } from '../../shared/flag-numbers.js';

export function requireNonEmpty(value: string, what: string, maxLength?: number): string {
  if (value.trim().length === 0) throw new UsageError(`${what} must not be empty`);
  if (maxLength !== undefined && value.length > maxLength) throw new UsageError(`${what} must be at most ${maxLength} characters, got ${value.length}`);
  return value;
}

export function optionalHardwareId(value: string | undefined, what: string): string | undefined {
  return value === undefined ? undefined : requireHardwareId(value, what);
}

/** Everything a verb lacks, said at once ("events search needs X and Y"); an undefined gap is nothing missing. */
export function requireNothingMissing(verb: string, gaps: (string | undefined)[], example: string): void {
  const missing = gaps.filter((gap) => gap !== undefined);
  if (missing.length > 0) throw new UsageError(`${verb} needs ${missing.join(' and ')}`, `for example: ${example}`);
}

/** For repeatable options: `--type a --type b` and `--type a,b` both work. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * --host of a local server: an address or a host name. A blank one would make Node listen on every
 * interface, and spaces or control characters can only be a mistake.
 */
export function requireListenHost(value: string, flag = '--host'): string {
  if (value.trim() === '' || /[\s\u0000-\u001f\u007f-\u009f]/.test(value) || value.length > 253) {
    throw new UsageError(`${flag} must be an address such as 127.0.0.1 or a host name, got ${quoteInput(value)}`);
  }
  return value;
}
