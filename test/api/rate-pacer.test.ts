import { describe, expect, it } from 'vitest';
import { RatePacer } from '../../src/api/rate-pacer.js';
import { FakeClock, T0 } from '../support/fake-clock.js';

/** A server-side token bucket like the sandbox's: `rate` tokens/s, `rate` capacity, 429 + Retry-After when empty. */
function bucket(clock: FakeClock, rate: number) {
  let tokens = rate;
  let at = clock.now().getTime();
  const refill = () => {
    const now = clock.now().getTime();
    tokens = Math.min(rate, tokens + ((now - at) / 1000) * rate);
    at = now;
  };
  return Object.assign(() => {
    refill();
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - tokens) / rate)) * 1000;
  }, {
    /** Takes `n` tokens at once (requests the client gave up on, served when the service came back). */
    drain(n: number) {
      refill();
      tokens -= n;
    },
  });
}

describe('RatePacer', () => {
  it('does not pace before the first 429', async () => {
    const clock = new FakeClock();
    const pacer = new RatePacer(clock);
    for (let i = 0; i < 50; i++) await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
    expect(pacer.stats()).toEqual({ rate: undefined, rateLimited: 0, pauses: 0 });
  });

  it('a 429 pauses every request for its Retry-After, then spaces them at the measured rate', async () => {
    const clock = new FakeClock();
    const pacer = new RatePacer(clock);
    for (let i = 0; i < 10; i++) await pacer.acquire();
    clock.advance(1000);
    pacer.onRateLimited(1000); // 10 sent, 1 refused, over 2 s: 4.5/s
    await pacer.acquire();
    expect(clock.sleeps).toEqual([1000]);
    await pacer.acquire();
    expect(clock.sleeps[1]).toBeCloseTo(1000 / 4.5, 1);
    expect(pacer.stats()).toMatchObject({ pauses: 1, rateLimited: 1 });
  });

  it('429s of requests already in flight belong to the same pause', () => {
    const clock = new FakeClock();
    const pacer = new RatePacer(clock);
    pacer.onRateLimited(1000);
    clock.advance(10);
    pacer.onRateLimited(1000);
    expect(pacer.stats()).toMatchObject({ pauses: 1, rateLimited: 2 });
  });

  it('sequential requests against a 100/s bucket: 2,000 in about 20 s', async () => {
    const clock = new FakeClock();
    const take = bucket(clock, 100);
    const pacer = new RatePacer(clock);
    const start = clock.now().getTime();
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      for (;;) {
        await pacer.acquire();
        clock.advance(2); // the request's own latency
        const wait = take();
        if (wait === 0) break;
        refused++;
        pacer.onRateLimited(wait);
        await clock.sleep(wait);
      }
    }
    const seconds = (clock.now().getTime() - start) / 1000;
    expect(seconds).toBeLessThan(20 * 1.1);
    expect(refused).toBeLessThan(10);
  });

  /** Sends n requests one after the other (2 ms each) through the pacer against the bucket, retrying 429s. */
  async function sendAll(clock: FakeClock, pacer: RatePacer, take: () => number, n: number): Promise<number> {
    let refused = 0;
    for (let i = 0; i < n; i++) {
      for (;;) {
        await pacer.acquire();
        clock.advance(2);
        const wait = take();
        if (wait === 0) break;
        refused++;
        pacer.onRateLimited(wait);
        await clock.sleep(wait);
      }
    }
    return refused;
  }

  it("time in which little was sent does not count: a canary's few polls a second, then the waves, still go at the limit", async () => {
    const clock = new FakeClock();
    const take = bucket(clock, 100);
    const pacer = new RatePacer(clock);
    // the canary: 4 sends, then its 4 devices polled once a second for 8 s
    for (let s = 0; s < 9; s++) {
      await sendAll(clock, pacer, take, 4);
      clock.advance(1000 - 8);
    }
    const start = clock.now().getTime();
    const refused = await sendAll(clock, pacer, take, 2000);
    const seconds = (clock.now().getTime() - start) / 1000;
    // counting the canary's 9 s made it about 20/s, and 2,000 requests took 100 s
    expect(pacer.stats().rate).toBeGreaterThan(90);
    expect(seconds).toBeLessThan(20 * 1.1);
    expect(refused).toBeLessThan(10);
  });

  it('a long wait before the first 429 (--canary-wait) does not drag the rate down', async () => {
    const clock = new FakeClock();
    const take = bucket(clock, 100);
    const pacer = new RatePacer(clock);
    await sendAll(clock, pacer, take, 10); // the canary: no 429
    clock.advance(10 * 60_000);
    const start = clock.now().getTime();
    await sendAll(clock, pacer, take, 1000);
    // counting the 10 minutes made it the slowest rate there is, 0.5/s
    expect(pacer.stats().rate).toBeGreaterThan(90);
    expect((clock.now().getTime() - start) / 1000).toBeLessThan(10 * 1.1);
  });

  it('requests queued behind their slots are not idle: a paced run keeps its window', async () => {
    const clock = new FakeClock();
    const pacer = new RatePacer(clock);
    for (let i = 0; i < 10; i++) await pacer.acquire();
    pacer.onRateLimited(1000); // 9 let through (the 10th refused) over 1 s: 9/s
    for (let i = 0; i < 20; i++) await pacer.acquire(); // from 1 s (the pause's end), about 1/9 s apart
    const lastSent = clock.now().getTime() - T0.getTime();
    expect(lastSent).toBeGreaterThan(2000);
    clock.advance(300); // less than 500 ms past the next slot: not idle
    pacer.onRateLimited(1000);
    // 19 let through since the first pause ended, over the time from then to this pause's end
    expect(pacer.stats().rate).toBeCloseTo(19 / ((lastSent + 300 + 1000 - 1000) / 1000), 2);
  });

  /**
   * n requests one after the other against a service that stops answering for `forMs` once `fromMs` has passed.
   * Each request sent in the stall times out (5 s) and is sent again; when the service comes back it first serves
   * the requests the client gave up on, `abandoned` of them, which take the bucket's tokens: the client's next
   * requests meet a run of 429s over few requests, and the rate is measured far below the limit.
   */
  async function runWithStall(clock: FakeClock, pacer: RatePacer, take: ReturnType<typeof bucket>, n: number, stall: { fromMs: number; forMs: number; abandoned: number }) {
    const start = clock.now().getTime();
    const endsAt = start + stall.fromMs + stall.forMs;
    let drained = false;
    for (let i = 0; i < n; i++) {
      for (;;) {
        await pacer.acquire();
        const now = clock.now().getTime();
        if (now >= start + stall.fromMs && now < endsAt) {
          clock.advance(Math.min(5000, endsAt - now));
          continue;
        }
        if (!drained && now >= endsAt) {
          drained = true;
          take.drain(stall.abandoned);
        }
        clock.advance(2);
        const wait = take();
        if (wait === 0) break;
        pacer.onRateLimited(wait);
        await clock.sleep(wait);
      }
    }
    return (clock.now().getTime() - start) / 1000;
  }

  it('an under-estimate is corrected: from 1/s, the rate climbs back to the limit within seconds, without a 429', async () => {
    const clock = new FakeClock();
    const take = bucket(clock, 25);
    const pacer = new RatePacer(clock);
    // a first measure at the limit, then a run of 429s over few requests that measures about 1/s
    await sendAll(clock, pacer, take, 100);
    expect(pacer.stats().rate).toBeGreaterThan(20);
    clock.advance(10);
    pacer.onRateLimited(1000);
    clock.advance(1000);
    pacer.onRateLimited(1000);
    expect(pacer.stats().rate).toBeLessThan(2);
    const limited = pacer.stats().rateLimited;
    const start = clock.now().getTime();
    let climbedAt = 0;
    for (let i = 0; i < 200; i++) {
      await sendAll(clock, pacer, take, 1);
      if (!climbedAt && pacer.stats().rate! >= 20) climbedAt = clock.now().getTime() - start;
    }
    // doubling each second back to the 25/s measured before (1, 2, 4, 8, 16, 25), after the 1 s pause
    expect(climbedAt).toBeGreaterThan(4000);
    expect(climbedAt).toBeLessThanOrEqual(7000);
    // 200 requests in about 14 s (8 at the limit once it is found, plus the climb), not 200 s at 1/s
    expect((clock.now().getTime() - start) / 1000).toBeLessThan(15);
    // and it probes past the best rate slowly: a few 429s, not one per request
    expect(pacer.stats().rateLimited - limited).toBeLessThan(10);
  });

  it('a 40 s stall of a 25/s service costs about 40 s: 304 requests within 1.2x of 52 s, not minutes', async () => {
    const clock = new FakeClock();
    const seconds = await runWithStall(clock, new RatePacer(clock), bucket(clock, 25), 304, { fromMs: 3000, forMs: 40_000, abandoned: 60 });
    expect(seconds).toBeGreaterThan(304 / 25 + 40);
    // measured at 0.5/s after the stall and never corrected, the rest of the run took 500 s
    expect(seconds).toBeLessThan((304 / 25 + 40) * 1.2);
  });
});
