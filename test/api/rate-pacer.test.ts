import { describe, expect, it } from 'vitest';
import { RatePacer } from '../../src/api/rate-pacer.js';
import { FakeClock } from '../support/fake-clock.js';

/** A server-side token bucket like the sandbox's: `rate` tokens/s, `rate` capacity, 429 + Retry-After when empty. */
function bucket(clock: FakeClock, rate: number) {
  let tokens = rate;
  let at = clock.now().getTime();
  return () => {
    const now = clock.now().getTime();
    tokens = Math.min(rate, tokens + ((now - at) / 1000) * rate);
    at = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - tokens) / rate)) * 1000;
  };
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
});
