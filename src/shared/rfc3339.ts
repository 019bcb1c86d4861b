// RFC 3339 date-times (section 5.6), the one reading of them that the sandbox's date parameters, the CLI's
// --since/--from/--to, sorting, freshness, --follow and --wait share. Date.parse is not that reading: it rolls
// 2026-02-30 over to March 2, refuses a leap second, and reads two-digit years as 19xx; every field is checked here
// instead. Times are compared as instants, never as text: 10:00+05:30 is before 05:00Z, and .3 equals .300000000.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const MINUTE_MS = 60_000;

/** Whether year-month-day names a real day of the proleptic Gregorian calendar (February 29 in leap years only). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/**
 * A point in time to nanoseconds: epoch milliseconds (what a Date holds) and the nanoseconds beyond them
 * (0 to 999,999), since services send up to nine digits of fraction and a Date keeps three.
 */
export interface Instant {
  ms: number;
  nanos: number;
}

/**
 * Epoch milliseconds of an RFC 3339 date-time (T or t, Z or z or ±hh:mm, a fraction of any length), or
 * undefined when the text is not one or names no real instant. A leap second (:60) is allowed only where one
 * can be, the last minute of a UTC day, as ajv-formats also rules; it counts as the second before, since epoch
 * time has no room for it. Digits of the fraction beyond milliseconds are dropped (parseInstant keeps them).
 */
export function parseRfc3339(text: string): number | undefined {
  return parseInstant(text)?.ms;
}

/** The instant an RFC 3339 date-time names, to the nanosecond (digits beyond nine are dropped); as parseRfc3339. */
export function parseInstant(text: string): Instant | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  const offsetMinutes = m[8] ? 0 : offsetOf(m[9]!, Number(m[10]), Number(m[11]));
  if (offsetMinutes === undefined) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999
  date.setUTCFullYear(year, month - 1, day);
  const fraction = (m[7] ?? '').slice(0, 9).padEnd(9, '0');
  date.setUTCHours(hour, minute, Math.min(second, 59), Number(fraction.slice(0, 3)));
  const ms = date.getTime() - offsetMinutes * MINUTE_MS;
  if (second === 60 && !lastMinuteOfUtcDay(ms)) return undefined;
  return { ms, nanos: Number(fraction.slice(3)) };
}

/** Negative when a is earlier than b, positive when later, 0 for the same instant however it was written. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.ms - b.ms || a.nanos - b.nanos;
}

/** The instant of a Date or of epoch milliseconds (this machine's clock has no finer grain). */
export function instantOfMs(ms: number): Instant {
  return { ms, nanos: 0 };
}

/**
 * The instant in UTC as RFC 3339 (Z), with as many fraction digits as it needs beyond three: what fleetctl sends
 * for a time the user typed, so a window asked to the nanosecond is not widened or narrowed to the millisecond.
 */
export function formatInstant(instant: Instant): string {
  const iso = new Date(instant.ms).toISOString();
  if (instant.nanos === 0) return iso;
  const beyond = String(instant.nanos).padStart(6, '0').replace(/0+$/, '');
  return `${iso.slice(0, -1)}${beyond}Z`;
}

/** The offset east of UTC in minutes, or undefined for an impossible one (hours 0-23, minutes 0-59). */
function offsetOf(sign: string, hours: number, minutes: number): number | undefined {
  if (hours > 23 || minutes > 59) return undefined;
  return (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function lastMinuteOfUtcDay(ms: number): boolean {
  const at = new Date(ms);
  return at.getUTCHours() === 23 && at.getUTCMinutes() === 59;
}
