// When a failed HTTP exchange is tried again, and after how long: one mechanism for the API client, the token
// endpoint and webhook delivery, each with its own schedule as parameters. Exponential back-off, capped; a
// Retry-After (RFC 9110 section 10.2.3) is never cut short and one longer than the caller accepts ends the retries.

export interface RetryPolicy {
  /** Attempts after the first; 0 never retries. */
  maxRetries: number;
  /** Longest Retry-After waited for; a longer one gives up at once (the caller says when to come back). */
  maxRetryWaitMs: number;
  /** Back-off before the first retry; each later one doubles. */
  baseDelayMs: number;
  /** Cap of a single back-off. */
  maxDelayMs: number;
  /** Spreads each back-off over its upper half, so many clients of one service do not retry in step. */
  jitter: boolean;
  /** No retry starts later than this after the work began (a retry is not worth making once stale). */
  maxElapsedMs?: number;
}

/** The API client's and the token endpoint's schedule (--max-retries and --max-retry-wait change the first two). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 3,
  maxRetryWaitMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  jitter: true,
};

const DELAY_SECONDS = /^\d+$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(?<month>${MONTHS.join('|')})`;
const DAY_NAME = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const TIME = '(?<hours>\\d{2}):(?<minutes>\\d{2}):(?<seconds>\\d{2})';
// RFC 9110 section 5.6.7: recipients accept the preferred IMF-fixdate and the two obsolete forms (rfc850, asctime).
const HTTP_DATES = [
  new RegExp(`^${DAY_NAME}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`),
  new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (?<day>\\d{2})-${MONTH}-(?<twoDigitYear>\\d{2}) ${TIME} GMT$`),
  new RegExp(`^${DAY_NAME} ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`),
];

/**
 * Retry-After in milliseconds from `nowMs`: delay-seconds (a whole number: "1.5" is not one) or an HTTP-date
 * (a date already past is 0). Undefined when absent or not either form, so the caller backs off instead.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (DELAY_SECONDS.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text, nowMs);
  return date === undefined ? undefined : Math.max(0, date - nowMs);
}

/** Epoch ms of an HTTP-date, or undefined for another text or a date that does not exist (31 Feb, 24:00). */
function parseHttpDate(text: string, nowMs: number): number | undefined {
  const g = HTTP_DATES.map((form) => form.exec(text)?.groups).find((groups) => groups !== undefined);
  if (!g) return undefined;
  // RFC 9110: a two-digit year more than 50 years ahead is the latest past year with those digits
  const thisYear = new Date(nowMs).getUTCFullYear();
  const near = thisYear - (thisYear % 100) + Number(g.twoDigitYear);
  const year = g.year !== undefined ? Number(g.year) : near > thisYear + 50 ? near - 100 : near;
  const [month, day, hours, minutes, seconds] = [MONTHS.indexOf(g.month!), Number(g.day), Number(g.hours), Number(g.minutes), Number(g.seconds)];
  const date = new Date(Date.UTC(year, month, day));
  if (hours > 23 || minutes > 59 || seconds > 60 || date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  return Date.UTC(year, month, day, hours, minutes, seconds);
}

/** Back-off before retry `retry` (0 for the first retry). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 30));
  return policy.jitter ? Math.round(ceiling / 2 + random() * (ceiling / 2)) : ceiling;
}

export interface FailedAttempt {
  /** Retries already made: 0 when the first attempt just failed. */
  retries: number;
  /** The answer's Retry-After in ms (parseRetryAfter), if it had one. */
  retryAfterMs?: number;
  /** Time since the work began (the first attempt, or when it was queued), checked against maxElapsedMs. */
  elapsedMs?: number;
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'wait-too-long' | 'exhausted' | 'too-old'; message: string };

/** Whether to try again after a failed attempt, and after how long (never sooner than Retry-After asks). */
export function decideRetry(failed: FailedAttempt, policy: RetryPolicy, random: () => number = Math.random): RetryDecision {
  const { retries, retryAfterMs } = failed;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryWaitMs) {
    const message = `Retry-After of ${Math.ceil(retryAfterMs / 1000)} s exceeds the ${policy.maxRetryWaitMs / 1000} s honoured`;
    return { retry: false, reason: 'wait-too-long', message };
  }
  if (retries >= policy.maxRetries) return { retry: false, reason: 'exhausted', message: `gave up after ${retries + 1} attempts` };
  const delayMs = Math.max(backoffDelay(retries, policy, random), retryAfterMs ?? 0);
  if (policy.maxElapsedMs !== undefined && (failed.elapsedMs ?? 0) + delayMs > policy.maxElapsedMs) {
    return { retry: false, reason: 'too-old', message: `gave up: the next attempt would start more than ${policy.maxElapsedMs / 1000} s after the work began` };
  }
  return { retry: true, delayMs };
}

/** GET, PUT, DELETE may be repeated; a POST only when it carries an Idempotency-Key. */
export function isSafeToRepeat(method: string, headers: Record<string, string>): boolean {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'PUT' || upper === 'DELETE' || upper === 'OPTIONS') return true;
  return upper === 'POST' && Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}

/**
 * A request that timed out may have been carried out: it is sent again only when that is safe whatever happened to
 * the first, a read (GET, HEAD) or a request carrying an Idempotency-Key (spec: the same key replays the original
 * result). A PUT or DELETE is idempotent in HTTP's terms, but a repeat after a success is answered differently
 * (a 412 once the ETag moved): never repeated after a timeout.
 */
export function isSafeToRepeatAfterTimeout(method: string, headers: Record<string, string>): boolean {
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' || Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}
