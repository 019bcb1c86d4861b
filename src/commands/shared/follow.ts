// --follow: print a window of events, then poll for new ones until Ctrl-C or until stdout's reader goes away.
// Each poll asks for a date window that overlaps the one before (an event's time is the device's, and a device
// may report late), and each event is printed once: de-duplicated on its id, remembering only the ids the next
// window can still return. What identifies and dates an event is the record boundary's to say (records.event).
// What a poll reads grows with the rate of events times its window: an ordinary poll reads back only
// RECENT_OVERLAP_MS before the last window's end, and one poll a minute reads back all of LATE_ARRIVAL_MS, so a
// fleet making 1,000 events a second costs seconds of events per poll, not five minutes of them (an event that
// arrives later than the recent overlap is printed by the next deep poll, at most a minute on). Pages are as
// large as the API allows unless --limit says: the follow reads every page anyway.
import { Option, type Command } from 'commander';
import type { Deps } from '../../factory.js';
import { ApiError, InvalidResponseError, NetworkError, UsageError } from '../../errors.js';
import { backoffDelay } from '../../shared/retry.js';
import type { Shape } from '../../output/render.js';
import { parseDateTime, parseDuration } from './dates.js';
import { requireWholeNumber } from '../../shared/flag-numbers.js';
import type { ListPaging } from './paging.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { compareInstants, instantOfMs, parseInstant, parseRfc3339, type Instant } from '../../shared/rfc3339.js';
import { FeedCheckpoint } from './feed-checkpoint.js';
import { completeValues } from '../../completion/values.js';
import { MAX_LIMIT } from '../../shared/page-limits.js';
import type { StdoutFile } from '../../io/stdout-file.js';

/** How far back a deep poll looks before the last deep one's end: events that arrive later than this are not waited for. */
export const LATE_ARRIVAL_MS = 5 * 60_000;
/** How far back an ordinary poll looks before the last window's end. */
export const RECENT_OVERLAP_MS = 10_000;
/** How often a poll looks back all of LATE_ARRIVAL_MS. */
export const DEEP_POLL_EVERY_MS = 60_000;
/** The window shown first when none is asked for. */
export const DEFAULT_FOLLOW_WINDOW_MS = 60 * 60_000;
/**
 * Ids remembered at most, whatever the rate of events (the oldest are forgotten first): a deep window (up to six
 * minutes) of a fleet making 1,000 events a second, with room to spare.
 */
export const MAX_REMEMBERED = 500_000;
const DEFAULT_INTERVAL_MS = 5_000;
const MIN_INTERVAL_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/** Waits after polls that brought nothing grow to this many intervals (and at most MAX_BACKOFF_MS). */
const MAX_IDLE_INTERVALS = 8;

export interface RawFollowFlags {
  follow?: boolean;
  interval?: string;
  checkpoint?: string;
  maxEvents?: string;
  until?: string;
  limit?: string;
}

export interface FollowOptions {
  /** Milliseconds between polls. */
  intervalMs: number;
  /** --checkpoint: the file that keeps the feed's position. */
  checkpoint?: string;
  /** --max-events: ends the follow once this many events were written. */
  maxEvents?: number;
  /** --until: the window's end; the follow ends once it is read. */
  until?: string;
  /** Items per page when --limit is not given: the most the API allows (a follow reads every page of its window). */
  pageLimit?: number;
}

export function addFollowOptions(command: Command): Command {
  command
    .option('-f, --follow', 'print the window, then keep printing new events until Ctrl-C (piped: NDJSON)')
    .addOption(new Option('--interval <duration>', 'time between polls with --follow, at least 1s (default 5s); longer while nothing comes'))
    .option('--checkpoint <file>', "with --follow: keep the position after the events written (fleetctl's versioned JSON); run again with it to go on with the next event")
    .option('--max-events <n>', 'with --follow: stop (exit 0) after this many events')
    .option('--until <time>', 'with --follow: stop (exit 0) once the window up to this time is printed');
  return completeValues(command, { '--checkpoint': 'file' });
}

/** --follow and its flags, checked with the flags they cannot go with, before any request. */
export function followFrom(flags: RawFollowFlags & { to?: string; cursor?: string; maxItems?: string; sort?: string }, now: Date): FollowOptions | undefined {
  if (!flags.follow) {
    const stray = (['interval', 'checkpoint', 'maxEvents', 'until'] as const).find((flag) => flags[flag] !== undefined);
    if (stray) throw new UsageError(`${flagName(stray)} only applies with --follow`);
    return undefined;
  }
  const clash = (['to', 'cursor', 'maxItems', 'sort'] as const).filter((flag) => flags[flag] !== undefined);
  if (clash.length > 0) {
    const hint = 'a followed window ends now and moves on (--until ends it); events print oldest first, each once';
    throw new UsageError(`--follow cannot be combined with ${clash.map(flagName).join(', ')}`, hint);
  }
  const intervalMs = flags.interval === undefined ? DEFAULT_INTERVAL_MS : parseDuration(flags.interval, '--interval');
  if (intervalMs < MIN_INTERVAL_MS) throw new UsageError(`--interval must be at least 1s, got ${quoteInput(String(flags.interval))}`);
  if (flags.checkpoint !== undefined && flags.checkpoint.trim() === '') throw new UsageError('--checkpoint needs a file name');
  const maxEvents = flags.maxEvents === undefined ? undefined : requireWholeNumber(flags.maxEvents, '--max-events', 1);
  const until = flags.until === undefined ? undefined : parseDateTime(flags.until, '--until', now);
  return { intervalMs, checkpoint: flags.checkpoint, maxEvents, until, pageLimit: flags.limit === undefined ? MAX_LIMIT : undefined };
}

const flagName = (flag: string) => `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Where followed events come from: every page of one date window, and what identifies and dates an event. */
export interface EventSource<T> {
  fetch(dateFrom: string, dateTo: string, paging: ListPaging): AsyncIterable<T>;
  id(event: T): string;
  time(event: T): string;
  /** For messages: "events of HW-000001". */
  what: string;
}

type FollowDeps = Pick<Deps, 'io' | 'clock' | 'signal' | 'output'>;

export interface FollowRun extends FollowOptions {
  dateFrom?: string;
  paging: ListPaging;
  /** Standard output when it is a regular file: the checkpoint records its length (io/stdout-file.ts). */
  stdoutFile?: StdoutFile;
}

interface Fresh<T> {
  event: T;
  at: Instant | undefined;
  id: string;
}

export async function followEvents<T>(deps: FollowDeps, source: EventSource<T>, shape: Shape, opts: FollowRun): Promise<void> {
  const sink = deps.output().follow(shape);
  const checkpoint = opts.checkpoint === undefined ? undefined : new FeedCheckpoint(opts.checkpoint, source.what, opts.stdoutFile, (line) => deps.io.info(line));
  const resumed = await checkpoint?.load();
  const seen = resumed?.written ?? new Map<string, number>();
  const paging = { ...opts.paging, limit: opts.pageLimit ?? opts.paging.limit, all: true, cursor: undefined, maxItems: undefined };
  const until = opts.until === undefined ? undefined : parseInstant(opts.until)!;
  // a window ends at each poll's now, or at --until once now is past it
  const windowEndAt = (now: Date) => (until && compareInstants(instantOfMs(now.getTime()), until) >= 0 ? { ms: until.ms, text: opts.until!, last: true } : { ms: now.getTime(), text: now.toISOString(), last: false });
  let windowEnd = windowEndAt(deps.clock.now());
  let from = resumed?.from ?? opts.dateFrom ?? new Date(windowEnd.ms - DEFAULT_FOLLOW_WINDOW_MS).toISOString();
  if (until && compareInstants(parseInstant(from)!, until) >= 0) return;
  let failures = 0;
  let idle = 0;
  let written = 0;
  // the end of the last window read, and of the last one read back from `from` (a deep poll)
  let lastEndMs: number | undefined;
  let lastDeepMs = Number.NEGATIVE_INFINITY;
  if (deps.io.stderrIsTTY) deps.io.info(`Following: new events every ${opts.intervalMs / 1000} s; Ctrl-C to stop.`);
  while (!deps.signal.aborted) {
    let waitMs: number;
    try {
      const deep = windowEnd.last || lastEndMs === undefined || windowEnd.ms - lastDeepMs >= DEEP_POLL_EVERY_MS;
      const start = deep || parseRfc3339(from)! >= lastEndMs! - RECENT_OVERLAP_MS ? from : new Date(lastEndMs! - RECENT_OVERLAP_MS).toISOString();
      const fresh = await newEvents(source, seen, start, windowEnd.text, paging);
      lastEndMs = windowEnd.ms;
      if (deep) lastDeepMs = windowEnd.ms;
      const printed = opts.maxEvents === undefined ? fresh : fresh.slice(0, opts.maxEvents - written);
      if (checkpoint && !opts.stdoutFile) {
        // to a pipe, one at a time, each recorded after its write: a kill between two loses neither and doubles
        // neither (the one being written may be sent again)
        for (const one of printed) {
          await sink.add([one.event]);
          remember(seen, one);
          await checkpoint.save({ from, written: seen });
        }
      } else {
        // to a file (or with no checkpoint), the poll's events in one write, then recorded once: after a kill
        // between the two, the restart cuts the file back to the length recorded and writes them again
        await sink.add(printed.map((one) => one.event));
        for (const one of printed) remember(seen, one);
        if (checkpoint && printed.length > 0) await checkpoint.save({ from, written: seen });
      }
      written += printed.length;
      if (failures > 0) deps.io.info(`Polling again: ${fresh.length} new event${fresh.length === 1 ? '' : 's'}.`);
      failures = 0;
      if (windowEnd.last || (opts.maxEvents !== undefined && written >= opts.maxEvents)) return;
      idle = fresh.length === 0 ? idle + 1 : 0;
      waitMs = idleWait(opts.intervalMs, idle);
      // the next deep window starts LATE_ARRIVAL_MS before this deep one ended: an event that arrives until then
      // late by at most that much is caught by it, and printed once; `from` moves on only with the deep polls
      const before = from;
      if (deep && parseRfc3339(from)! < windowEnd.ms - LATE_ARRIVAL_MS) from = new Date(windowEnd.ms - LATE_ARRIVAL_MS).toISOString();
      forgetBefore(seen, parseRfc3339(from)!);
      if (from !== before) await checkpoint?.save({ from, written: seen });
    } catch (error) {
      if (deps.signal.aborted) return;
      if (!isTransient(error)) throw error;
      failures++;
      waitMs = Math.max(backoffDelay(failures - 1, { baseDelayMs: opts.intervalMs, maxDelayMs: MAX_BACKOFF_MS, maxRetries: 0, maxRetryWaitMs: 0, jitter: true }), retryAfterMs(error));
      deps.io.warn(`polling ${source.what} failed (${describeFailure(error)}); trying again in ${Math.ceil(waitMs / 1000)} s`, { failures, retry_in_s: Math.ceil(waitMs / 1000) });
    }
    // the window up to --until is read as soon as it is complete, however long the idle wait has grown
    if (until) waitMs = Math.min(waitMs, Math.max(0, until.ms + 1 - deps.clock.now().getTime()));
    if (!(await pause(deps, waitMs))) return;
    windowEnd = windowEndAt(deps.clock.now());
  }
}

/** The wait after `idle` polls in a row that brought nothing: doubling from the interval, to MAX_IDLE_INTERVALS of it or MAX_BACKOFF_MS. */
export function idleWait(intervalMs: number, idle: number): number {
  const grown = intervalMs * Math.min(2 ** Math.max(0, idle - 1), MAX_IDLE_INTERVALS);
  return Math.max(intervalMs, Math.min(grown, MAX_BACKOFF_MS));
}

/**
 * Every event of the window not printed before, oldest first (the API lists newest first): ordered by the instant
 * each names, whatever its offset or fraction; an event without a readable time comes after those with one. Each
 * is remembered only once written (remember): a failed poll, or one cut short, is read again in full.
 */
async function newEvents<T>(source: EventSource<T>, seen: Map<string, number>, from: string, to: string, paging: ListPaging): Promise<Fresh<T>[]> {
  const fresh = new Map<string, Fresh<T>>();
  for await (const event of source.fetch(from, to, paging)) {
    const id = source.id(event);
    if (!seen.has(id) && !fresh.has(id)) fresh.set(id, { event, at: parseInstant(source.time(event)), id });
  }
  return [...fresh.values()].sort((a, b) => byInstant(a.at, b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function remember(seen: Map<string, number>, { id, at }: Fresh<unknown>): void {
  // by its millisecond: the window's start is one too, and an event of an unknown time is never forgotten early
  seen.set(id, at?.ms ?? Number.NaN);
  if (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value!);
}

function byInstant(a: Instant | undefined, b: Instant | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return compareInstants(a, b);
}

/** Ids of events older than the next window's start can no longer come back. */
function forgetBefore(seen: Map<string, number>, startMs: number): void {
  for (const [id, ms] of seen) if (ms < startMs) seen.delete(id);
}

/** Rate limits, unavailability and network failures pass; a refusal (401, 403, 404, 400) ends the follow. */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof InvalidResponseError) return true;
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

export function retryAfterMs(error: unknown): number {
  return error instanceof ApiError && error.retryAfter !== undefined ? error.retryAfter * 1000 : 0;
}

/** A failed poll in a few words: `HTTP 503 service.unavailable`, or the error's message. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) return `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** Waits, unless stopped: false when Ctrl-C or a closed stdout ended the wait. */
export async function pause(deps: Pick<Deps, 'clock' | 'signal'>, ms: number): Promise<boolean> {
  try {
    await deps.clock.sleep(ms, deps.signal);
    return !deps.signal.aborted;
  } catch (error) {
    if (deps.signal.aborted) return false;
    throw error;
  }
}
