// Paces bulk requests to the rate the API accepts, learnt from its 429s: the per-client limit is not published
// (spec: Limits — "their numeric values: not shown"), so it is measured.
//
// Until the first 429 nothing is paced. On a 429 every request waits for its Retry-After (a pause shared by
// all workers), and the accepted rate is estimated as (requests let through since the last pause) / (time from
// then until this pause ends). Over a whole burst-then-pause cycle that is the server's sustained rate, even
// though a token bucket lets an initial burst through faster. Requests are then spaced 1/rate apart.
//
// Only time the client kept the server busy counts: after a stretch in which nothing was sent though the pacer
// would have let it through (a canary's pause, a few polls a second), the window starts again. Counted, that idle
// time made the rate look lower than it is (a 100/s limit measured as 20/s after a canary's 8 s).
//
// An estimate can still come out low (a stall of the service, a run of 429s over few requests), and paced below the
// limit the client gets no 429 to learn from again: each second the pacer holds requests back without a 429, the
// rate climbs (additive increase; a 429 measures it again, the decrease). Up to the best rate measured in the run it
// doubles, since the service accepted that rate before; past it, it grows by a tenth of it, probing for a higher
// limit. A 40 s stall then costs about 40 s, not the rest of the run at one request a second.
import type { Clock } from '../io/clock.js';

export interface RatePacerStats {
  /** Requests per second being paced to; undefined before the first 429. */
  rate: number | undefined;
  rateLimited: number;
  pauses: number;
}

/** However the 429s fall, requests are never paced slower than this (per second). */
const MIN_RATE = 0.5;
/** Nothing sent for this long past its slot: a new window (the server's bucket refilled meanwhile). */
export const IDLE_RESTART_MS = 500;
/** How often the rate climbs while the pacer holds requests back and no 429 comes. */
export const CLIMB_EVERY_MS = 1000;

export class RatePacer {
  private rate: number | undefined;
  /** The highest rate measured in this run: the service accepted it once. */
  private best = 0;
  /** Since when the pacer has held requests back without a 429 (the climb counts from there). */
  private climbingSince = 0;
  private pausedUntil = 0;
  private nextSlot = 0;
  private windowStart: number | undefined;
  private sentInWindow = 0;
  private limitedInWindow = 0;
  private limitedTotal = 0;
  private pauses = 0;

  constructor(private readonly clock: Clock) {}

  /** Waits for this request's turn. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      if (now >= this.pausedUntil && now - this.nextSlot >= IDLE_RESTART_MS) this.restartWindow(now);
      const slot = Math.max(now, this.pausedUntil, this.nextSlot);
      this.climb(now, slot);
      this.nextSlot = this.rate === undefined ? slot : slot + 1000 / this.rate;
      if (slot > now) await this.clock.sleep(slot - now, signal);
      // a 429 that arrived while we waited moves the pause past our slot: queue again behind it
      if (this.pausedUntil <= Math.max(slot, this.now())) {
        this.sentInWindow++;
        return;
      }
    }
  }

  /** A 429 answer asking to wait waitMs. */
  onRateLimited(waitMs: number): void {
    const now = this.now();
    this.limitedTotal++;
    if (now < this.pausedUntil) {
      // an answer to a request sent before the pause began: same episode
      this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
      return;
    }
    this.limitedInWindow++;
    const until = now + Math.max(waitMs, 1);
    const elapsed = until - (this.windowStart ?? now);
    const passed = Math.max(1, this.sentInWindow - this.limitedInWindow);
    const measured = (passed * 1000) / elapsed;
    this.rate = Math.max(MIN_RATE, measured);
    this.best = Math.max(this.best, this.rate);
    this.climbingSince = until;
    this.pausedUntil = until;
    this.nextSlot = until;
    this.restartWindow(until);
    this.pauses++;
  }

  /** A request whose slot is `slot`: while the pacer is what holds requests back, the rate climbs each second. */
  private climb(now: number, slot: number): void {
    if (this.rate === undefined) return;
    // sent at once (the client is slower than the pacer) or held by a pause: nothing to climb for
    if (slot <= now || now < this.pausedUntil) {
      this.climbingSince = Math.max(now, this.pausedUntil);
      return;
    }
    let rate = this.rate;
    for (; now - this.climbingSince >= CLIMB_EVERY_MS; this.climbingSince += CLIMB_EVERY_MS) {
      rate = rate < this.best ? Math.min(this.best, rate * 2) : rate + Math.max(MIN_RATE, this.best / 10);
    }
    if (rate === this.rate) return;
    // the next request goes at the new spacing
    this.nextSlot = Math.max(now, this.nextSlot - 1000 / this.rate + 1000 / rate);
    this.rate = rate;
  }

  private restartWindow(at: number): void {
    this.windowStart = at;
    this.sentInWindow = 0;
    this.limitedInWindow = 0;
  }

  stats(): RatePacerStats {
    return { rate: this.rate, rateLimited: this.limitedTotal, pauses: this.pauses };
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
