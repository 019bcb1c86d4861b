// When a failed webhook delivery is tried again, and when it is given up (spec Delivery rule 2: "A non-2xx
// response or a timeout is retried with back-off. A Retry-After header in the response is honored."
// The spec leaves the schedule, the number of retries and the timeout to the producer; these are ours.)

export interface RetryPolicy {
  /** Delay before the second attempt; each later delay doubles. */
  initialDelayMs: number;
  /** Cap of a single back-off delay. */
  maxDelayMs: number;
  /** Attempts in all, the first included; after the last failure the delivery is `failed`. */
  maxAttempts: number;
  /**
   * Age limit, counted from when the event was queued for the destination: a retry that would start later
   * than this is not made and the delivery is `failed`. Every queued event still gets at least one attempt.
   */
  maxAgeMs: number;
  /** Time limit of one attempt (connect, send, response headers); reaching it counts as a failure. */
  timeoutMs: number;
  /** Longest Retry-After honoured; a longer one gives the delivery up instead of parking the queue. */
  maxRetryAfterMs: number;
}

/**
 * Default schedule: attempts at 0 s, then after 1, 2, 4, 8, 16, 32 and 60 s, then every 60 s, 12 attempts
 * in all (the last about 6 minutes after the first), and never later than 15 minutes after the event was
 * queued; 10 s per attempt. No jitter, so the sandbox stays deterministic.
 */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  maxAttempts: 12,
  maxAgeMs: 15 * 60_000,
  timeoutMs: 10_000,
  maxRetryAfterMs: 10 * 60_000,
};

/** Back-off before attempt `attempt + 1`, given that attempt `attempt` (1-based) just failed. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(exponent, 30));
}

/** Retry-After (RFC 9110: delay-seconds or an HTTP-date) in milliseconds from `nowMs`; null if absent or invalid. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return null;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return null;
  return Math.max(0, date - nowMs);
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/** Whether to try again after failed attempt `attempt`, and after how long. */
export function decideRetry(
  attempt: number,
  ageMs: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
): RetryDecision {
  if (attempt >= policy.maxAttempts) return { retry: false, reason: `gave up after ${attempt} attempts` };
  if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) {
    return { retry: false, reason: `Retry-After of ${Math.ceil(retryAfterMs / 1000)} s exceeds the ${policy.maxRetryAfterMs / 1000} s honoured` };
  }
  const delayMs = Math.max(backoffDelayMs(attempt, policy), retryAfterMs ?? 0);
  if (ageMs + delayMs > policy.maxAgeMs) {
    return { retry: false, reason: `gave up: the event would be older than ${policy.maxAgeMs / 1000} s at the next attempt` };
  }
  return { retry: true, delayMs };
}
