// The one loop that repeats an HTTP request: the API client's calls (api/client.ts) and the token request
// (auth/tokens.ts). Whether to try again and after how long is shared/retry.ts's decision; this loop acts on it:
// a connection failure that may pass (isRetryableNetworkError; a timeout when the request may be repeated), 429
// and 503 are tried again, Retry-After (seconds
// or an HTTP-date) is honoured, and each wait is traced for --debug and shown on the spinner. What an answer that
// was not retried means (an exit code, a message) is the caller's to say.
import type { Clock } from '../io/clock.js';
import type { ActivityTask } from '../io/spinner.js';
import { decideRetry, parseRetryAfter, type RetryDecision, type RetryPolicy } from '../shared/retry.js';
import { isRetryableNetworkError } from './network-failure.js';
import type { Tracer } from './trace.js';
import type { HttpResponse } from './transport.js';

/** spec Errors: 429 (rate limit or quota, with Retry-After) and 503 (unavailable) say "come back later". */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export interface RetryLoop {
  /** The schedule; a request that is not safe to repeat passes maxRetries 0 (and still honours maxRetryWaitMs). */
  policy: RetryPolicy;
  /** A timeout is retried too (shared/retry.ts isSafeToRepeatAfterTimeout: a GET, or an Idempotency-Key). */
  retryTimeouts?: boolean;
  clock: Clock;
  /** --debug: each wait and why. Only the cause is traced (an HTTP status, a failure's message): never a header or body. */
  tracer?: Tracer;
  /** Aborts a wait (Ctrl-C). */
  signal?: AbortSignal;
  /** Told about each 429 and its Retry-After (0 without one), so bulk work can slow down. */
  onRateLimited?: (retryAfterMs: number) => void;
  /** The spinner of the request, which says it is waiting and for how long, then shows `label` again. */
  activity?: { task: ActivityTask; label: string };
}

export interface RetriedAnswer {
  /** The last answer: a success, an error that is not retried, or a 429/503 after the retries stopped. */
  response: HttpResponse;
  /** That answer's Retry-After in milliseconds, when it had a valid one. */
  retryAfterMs: number | undefined;
  /** Why a 429 or 503 was not tried again: the retries ran out, or Retry-After asked for longer than allowed. */
  gaveUp?: Extract<RetryDecision, { retry: false }>;
}

/** One request, as the loop repeats it. */
export interface Exchange<T> {
  /** Made before each attempt (a bearer token, pacing): a failure here ends the loop as it came, never retried. */
  prepare?: () => Promise<T>;
  /** The request itself: its connection failures, 429 and 503 are what is retried. */
  send: (prepared: T) => Promise<HttpResponse>;
  /** Whether an answer calls for one more attempt at once, not counted as a retry (a fresh token after a 401). */
  sendAgain?: (response: HttpResponse, prepared: T) => boolean;
}

/**
 * Sends the exchange until it answers something other than 429 or 503, or the policy stops. A connection failure
 * that is not retried (not retryable, or the retries ran out) is thrown as it came.
 */
export async function sendWithRetries<T = void>(exchange: Exchange<T>, loop: RetryLoop): Promise<RetriedAnswer> {
  for (let retries = 0; ; ) {
    const prepared = (await exchange.prepare?.()) as T;
    let response: HttpResponse;
    try {
      response = await exchange.send(prepared);
    } catch (error) {
      const decision = isRetryableNetworkError(error, loop.retryTimeouts) ? decideRetry({ retries }, loop.policy) : undefined;
      if (!decision?.retry) throw error;
      await pause(loop, decision.delayMs, `connection failed: ${(error as Error).message}`, 'a connection failure');
      retries++;
      continue;
    }
    if (exchange.sendAgain?.(response, prepared)) continue;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], loop.clock.now().getTime());
    if (!RETRIED_STATUSES.has(response.status)) return { response, retryAfterMs };
    if (response.status === 429) loop.onRateLimited?.(retryAfterMs ?? 0);
    const decision = decideRetry({ retries, retryAfterMs }, loop.policy);
    if (!decision.retry) return { response, retryAfterMs, gaveUp: decision };
    await pause(loop, decision.delayMs, `HTTP ${response.status}`, `HTTP ${response.status}`);
    retries++;
  }
}

async function pause(loop: RetryLoop, ms: number, cause: string, shortCause: string): Promise<void> {
  loop.tracer?.note(`retrying in ${ms} ms after ${cause}`);
  const { task, label } = loop.activity ?? {};
  task?.update(`${label}: retrying in ${Math.ceil(ms / 1000)} s after ${shortCause}`);
  try {
    await loop.clock.sleep(ms, loop.signal);
  } finally {
    task?.update(label!);
  }
}
