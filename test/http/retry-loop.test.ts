// The one retry loop (src/http/retry-loop.ts), which the API client and the token request both use: what it
// repeats, how long it waits, what it leaves to the caller. The callers' own behaviour through the CLI is in
// test/api/retry.test.ts and test/auth/tokens.test.ts.
import { describe, expect, it } from 'vitest';
import { sendWithRetries, type Exchange, type RetryLoop } from '../../src/http/retry-loop.js';
import { ConnectionFailure } from '../../src/http/network-failure.js';
import type { HttpResponse } from '../../src/http/transport.js';
import type { Tracer } from '../../src/http/trace.js';
import { AuthError } from '../../src/errors.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import { FakeClock, T0 } from '../support/fake-clock.js';

const answer = (status: number, headers: Record<string, string> = {}): HttpResponse => ({ status, headers, text: '' });
const refused = () => new ConnectionFailure('https://api.fleet.test', 'connection refused (ECONNREFUSED)', 'check the URL', 'ECONNREFUSED', false, true);
const timedOut = () => new ConnectionFailure('https://api.fleet.test', 'timed out after 30 s', 'raise --timeout', 'UND_ERR_HEADERS_TIMEOUT', false, false, true);

/** An exchange that answers (or throws) the script in order, and fails the test if asked once more. */
function scripted(script: (HttpResponse | Error)[], extra: Partial<Exchange<void>> = {}): Exchange<void> & { sent: number } {
  const exchange = {
    sent: 0,
    ...extra,
    send: async () => {
      const next = script[exchange.sent++];
      if (next === undefined) throw new Error('sent once more than scripted');
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return exchange;
}

function notes(): { tracer: Tracer; lines: string[] } {
  const lines: string[] = [];
  return { lines, tracer: { enabled: true, request() {}, response() {}, failure() {}, note: (line) => lines.push(line) } };
}

const policy = { ...DEFAULT_RETRY_POLICY, jitter: false };
const loopWith = (clock: FakeClock, extra: Partial<RetryLoop> = {}): RetryLoop => ({ policy, clock, ...extra });

describe('sendWithRetries', () => {
  it('retries 503 and a refused connection with back-off, then returns the answer', async () => {
    const clock = new FakeClock();
    const exchange = scripted([answer(503), refused(), answer(200)]);
    const { response, gaveUp } = await sendWithRetries(exchange, loopWith(clock));
    expect(response.status).toBe(200);
    expect(gaveUp).toBeUndefined();
    expect(clock.sleeps).toEqual([250, 500]);
  });

  it('waits what Retry-After asks, in seconds or as an HTTP-date, never less than the back-off', async () => {
    const clock = new FakeClock();
    const date = new Date(T0.getTime() + 7000).toUTCString();
    const exchange = scripted([answer(429, { 'retry-after': '3' }), answer(503, { 'retry-after': date }), answer(429, { 'retry-after': '0' }), answer(204)]);
    const rateLimited: number[] = [];
    await sendWithRetries(exchange, loopWith(clock, { onRateLimited: (ms) => rateLimited.push(ms) }));
    // the HTTP-date is 7 s after T0, and the first wait has already moved the clock 3 s on
    expect(clock.sleeps).toEqual([3000, 4000, 1000]);
    expect(rateLimited).toEqual([3000, 0]);
  });

  it('returns the last 429 or 503 with the reason it stopped, for the caller to word', async () => {
    const clock = new FakeClock();
    const exhausted = await sendWithRetries(scripted([answer(503), answer(503)]), loopWith(clock, { policy: { ...policy, maxRetries: 1 } }));
    expect(exhausted).toMatchObject({ response: { status: 503 }, gaveUp: { reason: 'exhausted' } });
    const tooLong = await sendWithRetries(scripted([answer(429, { 'retry-after': '3600' })]), loopWith(clock));
    expect(tooLong).toMatchObject({ response: { status: 429 }, retryAfterMs: 3_600_000, gaveUp: { reason: 'wait-too-long' } });
    expect(clock.sleeps).toEqual([250]);
  });

  it('returns any other answer at once, with its Retry-After', async () => {
    const clock = new FakeClock();
    for (const status of [200, 301, 400, 401, 404, 500, 502]) {
      const result = await sendWithRetries(scripted([answer(status, { 'retry-after': '5' })]), loopWith(clock));
      expect(result).toEqual({ response: answer(status, { 'retry-after': '5' }), retryAfterMs: 5000 });
    }
    expect(clock.sleeps).toEqual([]);
  });

  it('retries a timeout with the same back-off and budget when the request may be repeated (a GET, an Idempotency-Key)', async () => {
    const clock = new FakeClock();
    const exchange = scripted([timedOut(), timedOut(), answer(200)]);
    expect((await sendWithRetries(exchange, loopWith(clock, { retryTimeouts: true }))).response.status).toBe(200);
    expect(clock.sleeps).toEqual([250, 500]);
    const last = timedOut();
    await expect(sendWithRetries(scripted([timedOut(), timedOut(), timedOut(), last]), loopWith(clock, { retryTimeouts: true }))).rejects.toBe(last);
    expect(clock.sleeps).toEqual([250, 500, 250, 500, 1000]);
  });

  it('throws a failure that more time would not cure (a timeout of a request that may not be repeated, an error that is not the network\'s) as it came', async () => {
    const clock = new FakeClock();
    const timeout = timedOut();
    await expect(sendWithRetries(scripted([timeout]), loopWith(clock))).rejects.toBe(timeout);
    const bug = new TypeError('not a network failure');
    await expect(sendWithRetries(scripted([bug]), loopWith(clock))).rejects.toBe(bug);
    const last = refused();
    await expect(sendWithRetries(scripted([refused(), last]), loopWith(clock, { policy: { ...policy, maxRetries: 1 } }))).rejects.toBe(last);
    expect(clock.sleeps).toEqual([250]);
  });

  it('never retries what comes before the request (a token that could not be had)', async () => {
    const clock = new FakeClock();
    const noToken = new AuthError('token request failed', 'check the credentials');
    const exchange = scripted([answer(200)], { prepare: () => Promise.reject(noToken) });
    await expect(sendWithRetries(exchange, loopWith(clock))).rejects.toBe(noToken);
    expect(exchange.sent).toBe(0);
  });

  it('sends again at once when the exchange asks (a fresh token after a 401), without counting a retry', async () => {
    const clock = new FakeClock();
    const prepared: number[] = [];
    let count = 0;
    const exchange: Exchange<number> = {
      prepare: async () => ++count,
      send: async (n) => (prepared.push(n), n === 1 ? answer(401) : n === 2 ? answer(503) : answer(200)),
      sendAgain: (response) => response.status === 401,
    };
    const { response } = await sendWithRetries(exchange, loopWith(clock, { policy: { ...policy, maxRetries: 1 } }));
    expect(response.status).toBe(200);
    expect(prepared).toEqual([1, 2, 3]);
    // the one retry allowed went to the 503, at the first back-off
    expect(clock.sleeps).toEqual([250]);
  });

  it('traces each wait and its cause, never a header, and shows it on the spinner', async () => {
    const clock = new FakeClock();
    const { tracer, lines } = notes();
    const texts: string[] = [];
    const task = { update: (text: string) => texts.push(text) };
    const exchange = scripted([answer(503, { authorization: 'Bearer secret-token', 'retry-after': '2' }), refused(), answer(200)]);
    await sendWithRetries(exchange, loopWith(clock, { tracer, activity: { task, label: 'GET /v1/devices' } }));
    expect(lines).toEqual(['retrying in 2000 ms after HTTP 503', 'retrying in 500 ms after connection failed: could not reach https://api.fleet.test: connection refused (ECONNREFUSED)']);
    expect(texts).toEqual([
      'GET /v1/devices: retrying in 2 s after HTTP 503', 'GET /v1/devices',
      'GET /v1/devices: retrying in 1 s after a connection failure', 'GET /v1/devices',
    ]);
  });

  it('stops waiting when the signal aborts', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    await expect(sendWithRetries(scripted([answer(503)]), loopWith(clock, { signal: controller.signal }))).rejects.toThrow('interrupted');
  });
});
