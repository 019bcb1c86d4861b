// RFC 3339 date-times (section 5.6), the one reading of them that the sandbox's date parameters and the CLI's
// --since/--from/--to share. Date.parse is not that reading: it rolls 2026-02-30 over to March 2, refuses a
// leap second, and reads two-digit years as 19xx; every field is checked here instead.
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
 * Epoch milliseconds of an RFC 3339 date-time (T or t, Z or z or ±hh:mm, a fraction of any length), or
 * undefined when the text is not one or names no real instant. A leap second (:60) is allowed only where one
 * can be, the last minute of a UTC day, as ajv-formats also rules; it counts as the second before, since epoch
 * time has no room for it. Digits of the fraction beyond milliseconds are dropped.
 */
export function parseRfc3339(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  const offsetMinutes = m[8] ? 0 : offsetOf(m[9]!, Number(m[10]), Number(m[11]));
  if (offsetMinutes === undefined) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), Number((m[7] ?? '').slice(0, 3).padEnd(3, '0')));
  const ms = date.getTime() - offsetMinutes * MINUTE_MS;
  if (second === 60 && !lastMinuteOfUtcDay(ms)) return undefined;
  return ms;
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
