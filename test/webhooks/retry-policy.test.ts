import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, backoffDelayMs, decideRetry, parseRetryAfter } from '../../src/webhooks/retry-policy.js';

describe('retry policy', () => {
  it('documents its default schedule: 1, 2, 4 ... 60 s, 12 attempts', () => {
    const delays = Array.from({ length: DEFAULT_RETRY_POLICY.maxAttempts - 1 }, (_, i) => backoffDelayMs(i + 1, DEFAULT_RETRY_POLICY));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000, 60000]);
    expect(delays.reduce((a, b) => a + b, 0)).toBeLessThan(DEFAULT_RETRY_POLICY.maxAgeMs);
    expect(backoffDelayMs(500, DEFAULT_RETRY_POLICY)).toBe(60000);
  });

  it.each([
    ['0', 0], ['120', 120_000], [' 5 ', 5000], [['3', '9'], 3000],
    ['Wed, 01 Jan 2025 00:00:30 GMT', 30_000], ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
    [undefined, null], ['', null], ['-1', null], ['1.5', null], ['soon', null], ['2025', 2_025_000],
  ] as const)('parseRetryAfter(%j)', (value, expected) => {
    expect(parseRetryAfter(value as string | string[] | undefined, Date.parse('2025-01-01T00:00:00Z'))).toBe(expected);
  });

  it('decides retries', () => {
    const p = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, maxAgeMs: 10_000, maxRetryAfterMs: 5000 };
    expect(decideRetry(1, 0, null, p)).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry(1, 0, 3000, p)).toEqual({ retry: true, delayMs: 3000 });
    expect(decideRetry(2, 0, 500, p)).toEqual({ retry: true, delayMs: 2000 });
    expect(decideRetry(3, 0, null, p)).toEqual({ retry: false, reason: 'gave up after 3 attempts' });
    expect(decideRetry(1, 9500, null, p)).toMatchObject({ retry: false });
    expect(decideRetry(1, 0, 6000, p)).toEqual({ retry: false, reason: 'Retry-After of 6 s exceeds the 5 s honoured' });
  });
});
