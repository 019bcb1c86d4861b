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
const MONTH = `(${MONTHS.join('|')})`;
const DAY_NAME = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 section 5.6.7: recipients accept the preferred IMF-fixdate and the two obsolete forms.
const IMF_FIXDATE = new RegExp(`^${DAY_NAME}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY_NAME} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

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

function parseHttpDate(text: string, nowMs: number): number | undefined {
  let m = IMF_FIXDATE.exec(text);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m.slice(4, 7));
  m = RFC850_DATE.exec(text);
  if (m) return utc(fullYear(Number(m[3]), nowMs), m[2]!, Number(m[1]), m.slice(4, 7));
  m = ASCTIME_DATE.exec(text);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m.slice(3, 6));
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years ahead is the latest past year with those digits. */
function fullYear(twoDigits: number, nowMs: number): number {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + twoDigits;
  return year > thisYear + 50 ? year - 100 : year;
}

/** Epoch ms of a calendar date and time, or undefined for one that does not exist (31 Feb, 25:00). */
function utc(year: number, monthName: string, day: number, time: (string | undefined)[]): number | undefined {
  const [hours, minutes, seconds] = time.map(Number) as [number, number, number];
  const month = MONTHS.indexOf(monthName);
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const ms = Date.UTC(year, month, day, hours, minutes, seconds);
  const date = new Date(Date.UTC(year, month, day));
  return date.getUTCMonth() === month && date.getUTCDate() === day ? ms : undefined;
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
