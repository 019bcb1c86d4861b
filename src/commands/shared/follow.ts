// --follow: print a window of events, then poll for new ones until Ctrl-C or until stdout's reader goes away.
// Each poll asks for a date window that overlaps the one before (an event's time is the device's, and a device
// may report late), and each event is printed once: de-duplicated on its id, remembering only the ids the next
// window can still return. What identifies and dates an event is the record boundary's to say (records.event).
import { Option, type Command } from 'commander';
import type { Deps } from '../../factory.js';
import { ApiError, InvalidResponseError, NetworkError, UsageError } from '../../errors.js';
import { backoffDelay } from '../../shared/retry.js';
import type { Shape } from '../../output/render.js';
import { parseDuration } from './dates.js';
import type { ListPaging } from './paging.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { compareInstants, parseInstant, parseRfc3339, type Instant } from '../../shared/rfc3339.js';

/** How far back each poll looks beyond the last one: events whose device time is older are not waited for. */
export const LATE_ARRIVAL_MS = 5 * 60_000;
/** The window shown first when none is asked for. */
export const DEFAULT_FOLLOW_WINDOW_MS = 60 * 60_000;
/** Ids remembered at most, whatever the rate of events (the oldest are forgotten first). */
export const MAX_REMEMBERED = 100_000;
const DEFAULT_INTERVAL_MS = 5_000;
const MIN_INTERVAL_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

export interface RawFollowFlags {
  follow?: boolean;
  interval?: string;
}

export interface FollowOptions {
  /** Milliseconds between polls. */
  intervalMs: number;
}

export function addFollowOptions(command: Command): Command {
  return command
    .option('-f, --follow', 'print the window, then keep printing new events until Ctrl-C (piped: NDJSON)')
    .addOption(new Option('--interval <duration>', 'time between polls with --follow, at least 1s (default 5s)'));
}

/** --follow and --interval, checked with the flags they cannot go with, before any request. */
export function followFrom(flags: RawFollowFlags & { to?: string; cursor?: string; maxItems?: string; sort?: string }): FollowOptions | undefined {
  if (!flags.follow) {
    if (flags.interval !== undefined) throw new UsageError('--interval only applies with --follow');
    return undefined;
  }
  const clash = (['to', 'cursor', 'maxItems', 'sort'] as const).filter((flag) => flags[flag] !== undefined);
  if (clash.length > 0) {
    const names = clash.map((flag) => `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new UsageError(`--follow cannot be combined with ${names.join(', ')}`, 'a followed window ends now and moves on; events print oldest first, each once');
  }
  const intervalMs = flags.interval === undefined ? DEFAULT_INTERVAL_MS : parseDuration(flags.interval, '--interval');
  if (intervalMs < MIN_INTERVAL_MS) throw new UsageError(`--interval must be at least 1s, got ${quoteInput(String(flags.interval))}`);
  return { intervalMs };
}

/** Where followed events come from: every page of one date window, and what identifies and dates an event. */
export interface EventSource<T> {
  fetch(dateFrom: string, dateTo: string, paging: ListPaging): AsyncIterable<T>;
  id(event: T): string;
  time(event: T): string;
  /** For messages: "events of HW-000001". */
  what: string;
}

type FollowDeps = Pick<Deps, 'io' | 'clock' | 'signal' | 'output'>;

export async function followEvents<T>(deps: FollowDeps, source: EventSource<T>, shape: Shape, opts: FollowOptions & { dateFrom?: string; paging: ListPaging }): Promise<void> {
  const sink = deps.output().follow(shape);
  const seen = new Map<string, number>();
  const paging = { ...opts.paging, all: true, cursor: undefined, maxItems: undefined };
  let windowEnd = deps.clock.now();
  let from = opts.dateFrom ?? new Date(windowEnd.getTime() - DEFAULT_FOLLOW_WINDOW_MS).toISOString();
  let failures = 0;
  if (deps.io.stderrIsTTY) deps.io.info(`Following: new events every ${opts.intervalMs / 1000} s; Ctrl-C to stop.`);
  while (!deps.signal.aborted) {
    let waitMs = opts.intervalMs;
    try {
      const fresh = await newEvents(source, seen, from, windowEnd.toISOString(), paging);
      await sink.add(fresh);
      if (failures > 0) deps.io.info(`Polling again: ${fresh.length} new event${fresh.length === 1 ? '' : 's'}.`);
      failures = 0;
      // the next window starts a little before this one ended: late events are caught, and printed once
      if (parseRfc3339(from)! < windowEnd.getTime() - LATE_ARRIVAL_MS) from = new Date(windowEnd.getTime() - LATE_ARRIVAL_MS).toISOString();
      forgetBefore(seen, parseRfc3339(from)!);
    } catch (error) {
      if (deps.signal.aborted) return;
      if (!isTransient(error)) throw error;
      failures++;
      waitMs = Math.max(backoffDelay(failures - 1, { baseDelayMs: opts.intervalMs, maxDelayMs: MAX_BACKOFF_MS, maxRetries: 0, maxRetryWaitMs: 0, jitter: true }), retryAfterMs(error));
      deps.io.warn(`polling ${source.what} failed (${describe(error)}); trying again in ${Math.ceil(waitMs / 1000)} s`);
    }
    if (!(await pause(deps, waitMs))) return;
    windowEnd = deps.clock.now();
  }
}

/**
 * Every event of the window not printed before, oldest first (the API lists newest first): ordered by the instant
 * each names, whatever its offset or fraction; an event without a readable time comes after those with one.
 */
async function newEvents<T>(source: EventSource<T>, seen: Map<string, number>, from: string, to: string, paging: ListPaging): Promise<T[]> {
  const fresh: { event: T; at: Instant | undefined; id: string }[] = [];
  for await (const event of source.fetch(from, to, paging)) {
    const id = source.id(event);
    if (!seen.has(id)) fresh.push({ event, at: parseInstant(source.time(event)), id });
  }
  fresh.sort((a, b) => byInstant(a.at, b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // remembered only once the whole window was read: a failed poll is read again in full
  for (const { id, at } of fresh) {
    if (seen.has(id)) continue;
    // by its millisecond: the window's start is one too, and an event of an unknown time is never forgotten early
    seen.set(id, at?.ms ?? Number.NaN);
    if (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value!);
  }
  return [...new Map(fresh.map((f) => [f.id, f.event])).values()];
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
function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof InvalidResponseError) return true;
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

function retryAfterMs(error: unknown): number {
  return error instanceof ApiError && error.retryAfter !== undefined ? error.retryAfter * 1000 : 0;
}

function describe(error: unknown): string {
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
