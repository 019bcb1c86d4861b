// Argument checks that run before any request, each with a message that says what is wrong.
import { UsageError } from '../../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requireUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new UsageError(`${what} must be a UUID (like 3f2b8c1e-0000-4000-8000-000000000000), got "${value}"`);
  return value.toLowerCase();
}

export function optionalUuid(value: string | undefined, what: string): string | undefined {
  return value === undefined ? undefined : requireUuid(value, what);
}

export function uuidList(values: string[] | undefined, what: string): string[] | undefined {
  if (!values || values.length === 0) return undefined;
  return values.flatMap((value) => value.split(',')).map((value) => requireUuid(value.trim(), what));
}

export function requireNonEmpty(value: string, what: string, maxLength?: number): string {
  if (value.trim().length === 0) throw new UsageError(`${what} must not be empty`);
  if (maxLength !== undefined && value.length > maxLength) throw new UsageError(`${what} must be at most ${maxLength} characters, got ${value.length}`);
  return value;
}

/** For repeatable options: `--type a --type b` and `--type a,b` both work. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
