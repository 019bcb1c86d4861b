// Reads a command makes of many devices (the last-reported state a selection needs, one a device) go as a bulk
// run's requests go: through one RatePacer for all of them (the rate the API accepts, learnt from its 429s, a
// Retry-After a pause for every read), as many at once as the API keeps accepting (AdaptiveConcurrency, halved on a
// 429). A fixed number in flight would either crowd a slow service or crawl on a fast one.
import type { ApiClient } from '../api/client.js';
import { RatePacer } from '../api/rate-pacer.js';
import type { Clock } from '../io/clock.js';
import { AdaptiveConcurrency, DEFAULT_CONCURRENCY } from './concurrency.js';

export class PacedReads {
  private readonly pacer: RatePacer;
  private readonly window = new AdaptiveConcurrency(DEFAULT_CONCURRENCY);

  constructor(private readonly api: ApiClient, clock: Clock) {
    this.pacer = new RatePacer(clock);
  }

  /** How many reads may be in flight now. */
  get limit(): number {
    return this.window.limit;
  }

  /** One read, through the pacer; a 429 it meets slows every read (the client's own retries still apply). */
  async read<T>(work: (api: ApiClient) => Promise<T>): Promise<T> {
    const ticket = this.window.started();
    const paced = this.api.derive({
      throttle: (signal) => this.pacer.acquire(signal),
      onRateLimited: (waitMs) => {
        this.pacer.onRateLimited(waitMs);
        this.window.rateLimited(ticket);
      },
    });
    const answer = await work(paced);
    this.window.accepted();
    return answer;
  }

  stats() {
    return this.pacer.stats();
  }
}

/** `work` for each item, as many at once as `limit()` says when each is started. */
export async function eachWithin<T>(items: readonly T[], limit: () => number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let running = 0;
  await new Promise<void>((resolve, reject) => {
    const start = () => {
      if (next >= items.length && running === 0) return resolve();
      while (next < items.length && running < limit()) {
        const item = items[next++]!;
        running++;
        work(item).then(() => {
          running--;
          start();
        }, reject);
      }
    };
    start();
  });
}
