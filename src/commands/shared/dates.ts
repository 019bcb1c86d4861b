// Dates on the command line: ISO 8601 or relative (30m, 24h, 7d = that long ago), sent as UTC date-times.
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { compareInstants, formatInstant, parseInstant } from '../../shared/rfc3339.js';
import { DURATION_PATTERN as DURATION, UNIT_MS, durationMs } from '../../shared/duration.js';
// A date, or a date-time with a space for the T, seconds optional, fraction optional, and a Z or ±hh[:]mm offset:
// spelt as RFC 3339 before the one RFC 3339 reading checks it.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(?:[Zz]|([+-]\d{2}):?(\d{2}))$/;
const ISO_NO_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** How far back a relative time may reach: beyond a century it is a typo, and soon not a date at all. */
export const MAX_RELATIVE_MS = 36_500 * UNIT_MS.d;

export const DATE_FORMS = 'an ISO 8601 date-time such as 2024-05-01T08:00:00Z, a date such as 2024-05-01, or a relative time such as 30m, 24h, 7d';

/** A duration such as 5s, 30m, 24h, 7d, 2w in milliseconds, longer than zero and at most `maxMs`. */
export function parseDuration(value: string, flag: string, maxMs = MAX_RELATIVE_MS): number {
  const ms = durationMs(value);
  if (ms === undefined) throw new UsageError(`${flag} must be a duration such as 5s, 30m, 24h or 7d, got ${quoteInput(value)}`);
  if (ms <= 0) throw new UsageError(`${flag} must be longer than zero, got ${quoteInput(value)}`);
  if (!(ms <= maxMs)) throw new UsageError(`${flag} must be at most ${describeDuration(maxMs)}, got ${quoteInput(value)}`);
  return ms;
}

function describeDuration(ms: number): string {
  const [unit, size] = ms % UNIT_MS.d === 0 ? ['d', UNIT_MS.d] : ms % UNIT_MS.h === 0 ? ['h', UNIT_MS.h] : ['s', UNIT_MS.s];
  return `${ms / size}${unit}`;
}

/**
 * An absolute or relative time (relative = that long before now) as a UTC RFC 3339 string; a fraction finer than
 * milliseconds is kept (formatInstant), so the window sent is the one asked for.
 */
export function parseDateTime(value: string, flag: string, now: Date): string {
  const text = value.trim();
  if (DURATION.test(text)) return new Date(now.getTime() - parseDuration(text, flag)).toISOString();
  if (ISO_NO_OFFSET.test(text)) {
    throw new UsageError(`${flag} ${quoteInput(value)} has no time zone`, `add Z for UTC or an offset such as +02:00 (${text}Z)`);
  }
  const instant = parseInstant(asRfc3339(text));
  if (instant !== undefined) return formatInstant(instant);
  throw new UsageError(`${flag} must be ${DATE_FORMS}; got ${quoteInput(value)}`);
}

/** The RFC 3339 spelling of a date or a looser date-time (a date is its midnight UTC); '' when it is neither. */
function asRfc3339(text: string): string {
  if (ISO_DATE.test(text)) return `${text}T00:00:00Z`;
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return '';
  return `${m[1]}T${m[2]}${m[3] ?? ':00'}${m[4] === undefined ? 'Z' : `${m[4]}:${m[5]}`}`;
}

export interface RawDateFlags {
  since?: string;
  from?: string;
  to?: string;
}

export interface DateWindow {
  /** UTC RFC 3339, for the date_from query parameter. */
  dateFrom?: string;
  /** UTC RFC 3339, for the date_to query parameter. */
  dateTo?: string;
}

/** Adds --since, --from and --to: every verb that lists within a time window takes all three, meaning the same. */
export function addDateWindowOptions(command: Command): Command {
  return command
    .addOption(new Option('--since <time>', 'from this long ago until now (30m, 24h, 7d) or from a date-time; not with --from/--to'))
    .addOption(new Option('--from <time>', 'start of the window: ISO 8601 date-time (2024-05-01T08:00:00Z) or relative (7d)'))
    .addOption(new Option('--to <time>', 'end of the window, after --from: ISO 8601 date-time or relative (1h)'));
}

/**
 * The date window of --since or --from/--to, checked before any request: --since excludes --from/--to, and
 * --from must be before --to. --since alone ends the window now.
 */
export function dateWindowFrom(flags: RawDateFlags, now: Date): DateWindow {
  if (flags.since !== undefined && (flags.from !== undefined || flags.to !== undefined)) {
    throw new UsageError('--since cannot be combined with --from or --to', 'use either --since 24h, or --from and --to');
  }
  if (flags.since !== undefined) {
    const dateFrom = parseDateTime(flags.since, '--since', now);
    // the window ends now, so it must start before now (the API refuses date_from after date_to)
    if (!isBefore(dateFrom, now.toISOString())) throw new UsageError(`--since (${dateFrom}) must be in the past`, 'use --from and --to for a window that is not up to now');
    return { dateFrom, dateTo: now.toISOString() };
  }
  const dateFrom = flags.from === undefined ? undefined : parseDateTime(flags.from, '--from', now);
  const dateTo = flags.to === undefined ? undefined : parseDateTime(flags.to, '--to', now);
  if (dateFrom !== undefined && dateTo !== undefined && !isBefore(dateFrom, dateTo)) {
    throw new UsageError(`--from (${dateFrom}) must be before --to (${dateTo})`);
  }
  return { dateFrom, dateTo };
}

/** Whether one date-time (as parseDateTime gives them) is an earlier instant than another. */
function isBefore(earlier: string, later: string): boolean {
  return compareInstants(parseInstant(earlier)!, parseInstant(later)!) < 0;
}

/** The window as the API's query parameters. */
export function dateQuery(window: DateWindow): { date_from?: string; date_to?: string } {
  return { date_from: window.dateFrom, date_to: window.dateTo };
}

/** For an API that needs the whole window: what it lacks, in words that follow "needs", or undefined. */
export function missingWindowPart(window: DateWindow): string | undefined {
  if (!window.dateFrom && !window.dateTo) return 'a date window (--since, or --from and --to)';
  if (!window.dateTo) return 'the end of the date window (--to; or use --since alone)';
  if (!window.dateFrom) return 'the start of the date window (--from)';
  return undefined;
}
