// Back-off with full jitter; Retry-After as seconds or an HTTP date.

export interface RetryPolicy {
  maxRetries: number;
  /** A Retry-After longer than this is not waited for. */
  maxRetryWaitMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  maxRetryWaitMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
};

/** Milliseconds to wait, or undefined when the header is absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text.trim()) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** GET, PUT, DELETE may be repeated; a POST only when it carries an Idempotency-Key. */
export function isSafeToRepeat(method: string, headers: Record<string, string>): boolean {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'PUT' || upper === 'DELETE' || upper === 'OPTIONS') return true;
  return upper === 'POST' && Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}
