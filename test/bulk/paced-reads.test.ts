// Issue 37, point 2: the last-reported reads a selection needs (seen:, stale, never-reported over device records
// that carry no report time) go through one rate pacer and as many at once as the service accepts, not a fixed
// four; and only when the expression needs them.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { eachWithin, PacedReads } from '../../src/bulk/paced-reads.js';
import { deviceSelector } from '../../src/selection/devices.js';
import { parseSelection } from '../../src/selection/grammar.js';
import { parseInstant } from '../../src/shared/rfc3339.js';
import { FakeClock, T0 } from '../support/fake-clock.js';

type Hooks = { throttle?: (signal?: AbortSignal) => Promise<void>; onRateLimited?: (waitMs: number) => void };

/** An API client whose derived clients are their hooks: a read calls throttle() as a request would, and may meet a 429. */
function fakeApi(): ApiClient {
  return { derive: (hooks: Hooks) => hooks } as unknown as ApiClient;
}

describe('eachWithin', () => {
  it('does every item, never more at once than the limit at the time (which may change)', async () => {
    let running = 0;
    const peaks: number[] = [];
    let limit = 2;
    const done: number[] = [];
    await eachWithin(Array.from({ length: 30 }, (_, i) => i), () => limit, async (i) => {
      running++;
      peaks.push(running);
      expect(running).toBeLessThanOrEqual(limit);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (i === 10) limit = 6;
      running--;
      done.push(i);
    });
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(Math.max(...peaks)).toBe(6);
  });

  it('rejects with the first failure', async () => {
    await expect(eachWithin([1, 2, 3], () => 2, async (i) => (i === 2 ? Promise.reject(new Error('two')) : undefined))).rejects.toThrow('two');
  });
});

describe('PacedReads', () => {
  it('starts at 8 in flight; a 429 halves that and pauses every later read for its Retry-After', async () => {
    const clock = new FakeClock();
    const reads = new PacedReads(fakeApi(), clock);
    expect(reads.limit).toBe(8);
    await reads.read(async (api) => {
      const hooks = api as unknown as Hooks;
      await hooks.throttle!();
      hooks.onRateLimited!(3000);
    });
    expect(reads.limit).toBe(4);
    await reads.read(async (api) => (api as unknown as Hooks).throttle!());
    // the second read waited out the first one's Retry-After
    expect(clock.now().getTime() - T0.getTime()).toBeGreaterThanOrEqual(3000);
    expect(reads.stats()).toMatchObject({ rateLimited: 1, pauses: 1 });
  });
});

describe('a selection over records with no report time', () => {
  const devices = Array.from({ length: 24 }, (_, i) => ({ hardware_id: `HW-${i}`, name: `d${i}` }));
  const list = (async function* () {
    yield* [];
  }) as unknown as Parameters<typeof deviceSelector>[0]['list'];

  const selectorOver = async (expression: string) => {
    let inFlight = 0;
    let peak = 0;
    const asked: string[] = [];
    const reads = new PacedReads(fakeApi(), new FakeClock());
    const selector = await deviceSelector(
      {
        list,
        readsAtOnce: () => reads.limit,
        lastReport: (hardwareId) =>
          reads.read(async () => {
            asked.push(hardwareId);
            peak = Math.max(peak, ++inFlight);
            await new Promise((resolve) => setTimeout(resolve, 2));
            inFlight--;
            // even devices reported 3 hours ago, odd ones never
            return Number(hardwareId.slice(3)) % 2 === 0 ? parseInstant('2025-06-01T09:00:00Z')! : null;
          }),
      },
      parseSelection(expression, '--where'),
      { nowMs: T0.getTime(), staleAfterMs: 3_600_000, signal: new AbortController().signal },
    );
    return { selector, asked, peak: () => peak };
  };

  it('reads each device\'s last report through the paced reads, more than four at once, and decides by it', async () => {
    const { selector, asked, peak } = await selectorOver('seen:>2h');
    const kept = await selector.keep(devices);
    expect(kept.map((d) => (d as { hardware_id: string }).hardware_id)).toEqual(devices.filter((_, i) => i % 2 === 0).map((d) => d.hardware_id));
    expect(asked.sort()).toEqual(devices.map((d) => d.hardware_id).sort());
    // from 8, more as the service keeps accepting (a fixed four would never pass 4)
    expect(peak()).toBeGreaterThan(8);
  });

  it('reads nothing when the expression asks no report time', async () => {
    const { selector, asked } = await selectorOver('name:~d1');
    expect((await selector.keep(devices)).length).toBe(11);
    expect(asked).toEqual([]);
  });
});
