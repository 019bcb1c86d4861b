// Follows devices after their command was accepted until each reports again or --wait-timeout passes. Back means a
// report later than the one the device had before the command (read before sending, else at the first poll),
// compared as instants to the nanosecond, both times by the device's own clock: the spec does not say whose clock a report time follows, so it is never compared
// with this machine's. A device that had never reported (404) is back at its first report. One poller for every device, not one loop each: a few polls in flight,
// through the run's paced client (so polls and sends share the rate the API accepts), each device polled when it is
// due. Due means: not before devices have been taking to come back (learnt from when those already back were seen
// back: returnSample), then more and more rarely, never more than once a second; so 10,000 waiting devices cost about one poll
// each, not one per second each.
import { ApiError, CancelledError, FleetctlError } from '../errors.js';
import { isRunFatal } from './runner.js';
import type { Clock } from '../io/clock.js';
import type { ApiClient } from '../api/client.js';
import { reportInstantOf } from '../records/report-time.js';
import { compareInstants, type Instant } from '../shared/rfc3339.js';

export interface WaitOutcome {
  hardwareId: string;
  back: boolean;
  /** From acceptance to the poll that saw it back, by this machine's clock; null when not back. */
  afterMs: number | null;
}

/**
 * The report a device had before its command, by its own clock (ms since the epoch): null when it had never
 * reported (404), undefined when not known (not read, or the read failed: the first poll after acceptance gives it).
 */
export type ReportBefore = Instant | null | undefined;

export interface WatcherOptions {
  field: string;
  timeoutMs: number;
  clock: Clock;
  signal: AbortSignal;
  onOutcome: (outcome: WaitOutcome) => void;
  /** A device's report before its command, learnt at its first poll (to journal it: a resumed run needs it). */
  onBefore?: (hardwareId: string, before: Instant | null) => void;
  /** Told once when a record lacks the field (then every device waits until its timeout). */
  onMissingField?: (hardwareId: string) => void;
  maxInFlight?: number;
}

interface Watched {
  hardwareId: string;
  acceptedAt: number;
  before: ReportBefore;
  nextAt: number;
  /** The last poll that found it not back yet (this machine's clock). */
  notBackAt?: number;
}

/**
 * What a device seen back tells of how long devices take (this machine's clock, from acceptance). Seen back after
 * a poll that found it away: when it was seen (late by less than a poll's interval). Seen at the first look, planned
 * for when devices have been taking to come back: a little less than that plan, not when the poll went out (later,
 * behind the rate limit). Learnt as seen, the looks would only come later and later, each wave behind its devices;
 * so they come a little earlier each time until a device is not back yet, which puts them back.
 */
function returnSample(item: Watched, seenAt: number): number {
  if (item.notBackAt !== undefined && item.notBackAt > item.acceptedAt) return seenAt - item.acceptedAt;
  return 0.97 * Math.min(seenAt, item.nextAt) - 0.97 * item.acceptedAt;
}

/** A device is polled at most this often. */
export const MIN_POLL_MS = 1000;
const MAX_POLL_MS = 15_000;
/** Return times kept to learn from (the most recent). */
const SAMPLE = 200;

type Reader = Pick<ApiClient, 'call'>;

export class ReturnWatcher {
  private readonly queue: Watched[] = []; // by nextAt
  private readonly pending = new Set<string>();
  private readonly returns: number[] = [];
  private readonly settledWaiters: { ids: Set<string>; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private failure: unknown;
  private inFlight = 0;
  private wakeAt = Infinity;
  private stopped = false;
  private missingTold = false;

  constructor(private readonly api: Reader, private readonly opts: WatcherOptions) {
    // interrupted: whoever waits is let go (and finds the signal aborted)
    opts.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /**
   * Starts following a device whose command was accepted at `acceptedAt` (ms, this machine's clock), that had the
   * report `before` (its clock). Not known: the first poll, made at once, reads it.
   */
  watch(hardwareId: string, acceptedAt: number, before: ReportBefore): void {
    this.pending.add(hardwareId);
    const first = before === undefined ? acceptedAt : acceptedAt + Math.max(MIN_POLL_MS, this.expectedReturnMs());
    this.enqueue({ hardwareId, acceptedAt, before, nextAt: first });
    this.pump();
  }

  /** Resolves once each of these devices is back or timed out (those not watched count as settled). */
  settled(ids: Iterable<string>): Promise<void> {
    const waiting = new Set([...ids].filter((id) => this.pending.has(id)));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (waiting.size === 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve, reject) => this.settledWaiters.push({ ids: waiting, resolve, reject }));
  }

  /** Every device watched so far is back or timed out. */
  drain(): Promise<void> {
    return this.settled([...this.pending]);
  }

  /** Whether this device is watched and not back or timed out yet. */
  isWaitingFor(hardwareId: string): boolean {
    return this.pending.has(hardwareId);
  }

  /** Devices still waiting. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Stops polling; waiters resolve (their devices stay unsettled). */
  stop(): void {
    this.stopped = true;
    for (const waiter of this.settledWaiters.splice(0)) waiter.resolve();
  }

  /** How long devices have been taking to come back: the 90th percentile of those seen (0 before any). */
  private expectedReturnMs(): number {
    if (this.returns.length === 0) return 0;
    const sorted = [...this.returns].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))]!;
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.stopped = true;
    for (const waiter of this.settledWaiters.splice(0)) waiter.reject(error);
  }

  private enqueue(item: Watched): void {
    // never past the deadline: the last poll is at the timeout
    item.nextAt = Math.min(item.nextAt, item.acceptedAt + this.opts.timeoutMs);
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.queue[mid]!.nextAt <= item.nextAt) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, item);
  }

  private now(): number {
    return this.opts.clock.now().getTime();
  }

  private pump(): void {
    if (this.stopped || this.opts.signal.aborted) return;
    const max = this.opts.maxInFlight ?? 8;
    // one reading of the clock for both decisions: read twice, a poll due between them was neither made nor timed,
    // and with nothing else in flight the run waited for ever (its process ended with the wait unsettled)
    const now = this.now();
    while (this.inFlight < max && this.queue.length > 0 && this.queue[0]!.nextAt <= now) this.poll(this.queue.shift()!);
    const next = this.queue[0]?.nextAt;
    if (next !== undefined && next > now && next < this.wakeAt) {
      this.wakeAt = next;
      this.opts.clock.sleep(next - now, this.opts.signal).then(
        () => {
          if (this.wakeAt === next) this.wakeAt = Infinity;
          this.pump();
        },
        () => undefined, // interrupted: the run reports it
      );
    }
  }

  private poll(item: Watched): void {
    this.inFlight++;
    this.api
      .call('getDeviceLastReported', { pathParams: { hardwareId: item.hardwareId }, signal: this.opts.signal })
      .then(
        (answer) => this.answered(item, answer.body),
        (error: unknown) => {
          if (error instanceof CancelledError || this.opts.signal.aborted) return;
          // never reported (404), a 429, a 503, a dropped connection: not back yet; anything else is a bug, not hidden
          if (error instanceof FleetctlError) return this.answered(item, undefined, isNeverReported(error));
          this.fail(error);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.pump();
      });
  }

  private answered(item: Watched, record: unknown, neverReported = false): void {
    const now = this.now();
    const reportedAt = record === undefined ? undefined : (reportInstantOf(record, this.opts.field) ?? undefined);
    if (record !== undefined && reportedAt === undefined && !this.missingTold) {
      this.missingTold = true;
      this.opts.onMissingField?.(item.hardwareId);
    }
    if (item.before === undefined && (reportedAt !== undefined || neverReported)) {
      // the first poll: what it shows is the report before the command
      const before = neverReported ? null : reportedAt!;
      this.opts.onBefore?.(item.hardwareId, before);
      return this.again({ ...item, before }, now);
    }
    if (reportedAt !== undefined && item.before !== undefined && (item.before === null || compareInstants(reportedAt, item.before) > 0)) {
      const afterMs = Math.max(0, now - item.acceptedAt);
      this.returns.push(Math.max(0, returnSample(item, now)));
      if (this.returns.length > SAMPLE) this.returns.shift();
      return this.settle({ hardwareId: item.hardwareId, back: true, afterMs });
    }
    this.again(item, now);
  }

  /** Not back yet: the next poll, or not_back once the timeout has passed. */
  private again(item: Watched, now: number): void {
    const elapsed = now - item.acceptedAt;
    if (elapsed >= this.opts.timeoutMs) return this.settle({ hardwareId: item.hardwareId, back: false, afterMs: null });
    // not back: the next look when devices have been coming back, else an eighth of the time it has been away
    // (a device is late by at most that much when it is seen back; the looks grow rarer the longer it is away)
    const expected = item.acceptedAt + this.expectedReturnMs();
    const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, elapsed / 8));
    this.enqueue({ ...item, notBackAt: now, nextAt: Math.max(now + interval, expected) });
  }

  private settle(outcome: WaitOutcome): void {
    if (!this.pending.delete(outcome.hardwareId)) return;
    this.opts.onOutcome(outcome);
    for (let i = this.settledWaiters.length - 1; i >= 0; i--) {
      const waiter = this.settledWaiters[i]!;
      waiter.ids.delete(outcome.hardwareId);
      if (waiter.ids.size === 0) {
        this.settledWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}

function isNeverReported(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * The report a device has now, read before its command is sent: null when it has never reported (404), undefined
 * when it could not be read (a 429, a 503, a dropped connection: the first poll will tell). A failure of the run
 * itself (credentials, interrupt) is thrown.
 */
export async function readReportBefore(api: Reader, field: string, hardwareId: string, signal: AbortSignal): Promise<ReportBefore> {
  try {
    const answer = await api.call('getDeviceLastReported', { pathParams: { hardwareId }, signal });
    return reportInstantOf(answer.body, field) ?? undefined;
  } catch (error) {
    if (isNeverReported(error)) return null;
    if (error instanceof CancelledError || signal.aborted || isRunFatal(error)) throw error;
    if (error instanceof FleetctlError) return undefined;
    throw error;
  }
}
