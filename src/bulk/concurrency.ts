// How many device commands a bulk run keeps in flight: more while the API accepts them, half as many on a 429
// (additive increase, multiplicative decrease, as TCP finds the bandwidth of a path). The rate itself is the
// RatePacer's business; this finds how much parallelism the latency calls for without crowding the service.

export interface ConcurrencyBounds {
  /** In flight at the start. */
  initial: number;
  /** Never more than this. */
  max: number;
}

/** A run's requests in flight unless --concurrency fixes it: from 8, up to 64 while the API accepts them. */
export const DEFAULT_CONCURRENCY: ConcurrencyBounds = { initial: 8, max: 64 };

export class AdaptiveConcurrency {
  private window: number;
  private sent = 0;
  /** Answers to requests sent before the last decrease belong to that episode: they do not shrink it again. */
  private decreasedAtSent = -1;

  constructor(private readonly bounds: ConcurrencyBounds) {
    this.window = Math.min(bounds.initial, bounds.max);
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return Math.max(1, Math.floor(this.window));
  }

  /** Call as a request is sent; returns its ticket, to give back with its answer. */
  started(): number {
    return this.sent++;
  }

  /** The API answered (whatever the status) without asking to slow down: one more in flight per full window. */
  accepted(): void {
    this.window = Math.min(this.bounds.max, this.window + 1 / this.window);
  }

  /** A 429: half as many in flight, once per episode. */
  rateLimited(ticket: number): void {
    if (ticket < this.decreasedAtSent) return;
    this.window = Math.max(1, this.window / 2);
    this.decreasedAtSent = this.sent;
  }
}
