// The one retry mechanism: Retry-After by RFC 9110, back-off, and the decision, for the client's and delivery's schedules.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, backoffDelay, decideRetry, isSafeToRepeatAfterTimeout, parseRetryAfter } from '../../src/shared/retry.js';
import { DEFAULT_DELIVERY_RETRY } from '../../src/sandbox/webhooks/delivery-engine.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0], ['120', 120_000], [' 5 ', 5000], [['3', '9'], 3000], ['2025', 2_025_000],
    // IMF-fixdate, and the two obsolete forms recipients must accept (RFC 9110 section 5.6.7)
    ['Wed, 01 Jan 2025 00:00:30 GMT', 30_000],
    ['Wednesday, 01-Jan-25 00:01:00 GMT', 60_000],
    ['Wed Jan  1 00:00:45 2025', 45_000],
    // a date already past: retry now
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
  ] as const)('reads %j', (value, expected) => {
    expect(parseRetryAfter(value as string | string[], NOW)).toBe(expected);
  });

  it.each([
    // delay-seconds is 1*DIGIT: no fraction, sign or exponent
    '1.5', '-1', '+3', '1e3', '',
    'soon', '2025-01-01T00:00:30Z', 'Wed, 01 Jan 2025 00:00:30 +0000', 'Wed, 1 Jan 2025 00:00:30 GMT',
    // dates that do not exist are not rolled over into ones that do
    'Mon, 30 Feb 2026 00:00:00 GMT', 'Wed, 01 Jan 2025 24:00:00 GMT',
  ])('refuses %j (the caller backs off instead)', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('reads a two-digit year as the latest past one more than 50 years ahead would be', () => {
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Thursday, 01-Jan-76 00:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Tuesday, 01-Jan-75 00:00:00 GMT', NOW)).toBe(Date.parse('2075-01-01T00:00:00Z') - NOW);
    expect(parseRetryAfter('Friday, 01-Jan-27 00:00:00 GMT', NOW)).toBe(Date.parse('2027-01-01T00:00:00Z') - NOW);
  });

  it('is absent when there is no header', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter([], NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it("follows delivery's schedule: 1, 2, 4 ... 60 s, within its age limit", () => {
    const delays = Array.from({ length: DEFAULT_DELIVERY_RETRY.maxRetries }, (_, i) => backoffDelay(i, DEFAULT_DELIVERY_RETRY));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000, 60000]);
    expect(delays.reduce((a, b) => a + b, 0)).toBeLessThan(DEFAULT_DELIVERY_RETRY.maxElapsedMs!);
    expect(backoffDelay(500, DEFAULT_DELIVERY_RETRY)).toBe(60000);
  });

  it("spreads the client's back-off over the upper half of each step", () => {
    expect(backoffDelay(0, DEFAULT_RETRY_POLICY, () => 0)).toBe(125);
    expect(backoffDelay(0, DEFAULT_RETRY_POLICY, () => 1)).toBe(250);
    expect(backoffDelay(2, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(750);
    expect(backoffDelay(20, DEFAULT_RETRY_POLICY, () => 1)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
  });
});

describe('decideRetry', () => {
  const policy = { ...DEFAULT_DELIVERY_RETRY, maxRetries: 2, maxElapsedMs: 10_000, maxRetryWaitMs: 5000 };

  it('backs off, and never retries sooner than Retry-After asks', () => {
    expect(decideRetry({ retries: 0 }, policy)).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry({ retries: 0, retryAfterMs: 3000 }, policy)).toEqual({ retry: true, delayMs: 3000 });
    expect(decideRetry({ retries: 1, retryAfterMs: 500 }, policy)).toEqual({ retry: true, delayMs: 2000 });
  });

  it('gives up when retries are spent, the wait is too long, or the work too old', () => {
    expect(decideRetry({ retries: 2 }, policy)).toEqual({ retry: false, reason: 'exhausted', message: 'gave up after 3 attempts' });
    expect(decideRetry({ retries: 0, retryAfterMs: 6000 }, policy)).toEqual({
      retry: false, reason: 'wait-too-long', message: 'Retry-After of 6 s exceeds the 5 s honoured',
    });
    expect(decideRetry({ retries: 0, elapsedMs: 9500 }, policy)).toMatchObject({ retry: false, reason: 'too-old' });
    // a wait too long is said even when no retry was left: it tells when to come back
    expect(decideRetry({ retries: 2, retryAfterMs: 6000 }, policy)).toMatchObject({ reason: 'wait-too-long' });
  });

  it('leaves the age unchecked for a schedule without a limit', () => {
    expect(decideRetry({ retries: 0, elapsedMs: 1e12 }, DEFAULT_RETRY_POLICY, () => 1)).toEqual({ retry: true, delayMs: 250 });
  });
});

describe('isSafeToRepeatAfterTimeout', () => {
  it('a read, or a request carrying an Idempotency-Key (any spelling); never another write', () => {
    expect(isSafeToRepeatAfterTimeout('GET', {})).toBe(true);
    expect(isSafeToRepeatAfterTimeout('head', {})).toBe(true);
    expect(isSafeToRepeatAfterTimeout('POST', { 'Idempotency-Key': 'k' })).toBe(true);
    expect(isSafeToRepeatAfterTimeout('POST', { 'idempotency-key': 'k' })).toBe(true);
    expect(isSafeToRepeatAfterTimeout('POST', {})).toBe(false);
    // idempotent by HTTP, but a repeat after a success is answered otherwise (412 once the ETag moved)
    expect(isSafeToRepeatAfterTimeout('PUT', {})).toBe(false);
    expect(isSafeToRepeatAfterTimeout('PATCH', {})).toBe(false);
    expect(isSafeToRepeatAfterTimeout('DELETE', {})).toBe(false);
  });
});
