import { describe, expect, it } from 'vitest';
import { expectProblem, startHarness } from './harness.js';

describe('rate limit, faults and latency', () => {
  it('rateLimit: a token bucket per client; beyond it 429 rate_limit.exceeded with Retry-After', async () => {
    // the sandbox's clock: time moves when the test says, so the bucket refills only then
    let clock = Date.parse('2025-06-01T12:00:00Z');
    const h = await startHarness({ rateLimit: 3, now: () => new Date(clock) });
    try {
      const admin = await h.token();
      const reader = await h.token('sandbox-reader');
      const results = await Promise.all(Array.from({ length: 6 }, () => h.call('GET', '/v1/devices?limit=1', { token: admin })));
      const limited = results.filter((r) => r.status === 429);
      expect(results.filter((r) => r.status === 200).length).toBe(3);
      expect(limited.length).toBe(3);
      expectProblem(limited[0]!, 429, 'rate_limit.exceeded');
      expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // another client has its own bucket
      expect((await h.call('GET', '/v1/devices?limit=1', { token: reader })).status).toBe(200);
      // a third of a second refills one request of three per second: one passes, the next is limited again
      clock += 334;
      expect((await h.call('GET', '/v1/devices?limit=1', { token: admin })).status).toBe(200);
      expect((await h.call('GET', '/v1/devices?limit=1', { token: admin })).status).toBe(429);
    } finally {
      await h.close();
    }
  });

  it('faultRate: failing requests answer 503 service.unavailable (Retry-After) or drop the connection, and do nothing', async () => {
    const h = await startHarness({ faultRate: 1 });
    try {
      const token = await h.token(); // the token endpoint is not an API request: never faulted
      let unavailable = 0;
      let dropped = 0;
      for (let i = 0; i < 30; i++) {
        try {
          const res = await h.call('POST', '/v1/devices/HW-000001/commands/reboot', { token, headers: { 'idempotency-key': `f${i}` } });
          expectProblem(res, 503, 'service.unavailable');
          expect(res.headers.get('retry-after')).toBe('1');
          unavailable++;
        } catch (err) {
          expect(String((err as Error).cause ?? err)).toMatch(/socket|closed|terminated|ECONNRESET|other side/i);
          dropped++;
        }
      }
      expect(unavailable).toBeGreaterThan(0);
      expect(dropped).toBeGreaterThan(0);
      expect(await (await fetch(`${h.sb.baseUrl}/_sandbox/commands`)).json()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('faultRate: roughly that share of requests fails', async () => {
    const h = await startHarness({ faultRate: 0.3 });
    try {
      let failed = 0;
      for (let i = 0; i < 100; i++) {
        const res = await h.call('GET', '/v1/devices?limit=1').catch(() => null);
        if (!res || res.status === 503) failed++;
      }
      expect(failed).toBeGreaterThan(15);
      expect(failed).toBeLessThan(45);
    } finally {
      await h.close();
    }
  });

  it('latencyMs delays each answer', async () => {
    const h = await startHarness({ latencyMs: 150 });
    try {
      await h.token();
      const started = performance.now();
      expect((await h.call('GET', '/v1/devices?limit=1')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    } finally {
      await h.close();
    }
  });
});
