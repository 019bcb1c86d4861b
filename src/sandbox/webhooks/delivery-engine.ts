// The webhook delivery engine the sandbox drives: per-destination FIFO queues, POSTs of CloudEvents in
// structured mode with the spec's delivery headers, retries with back-off, delivery-time address checks
// with a pinned address, and a delivery log of every attempt (GET /_sandbox/deliveries).
//
// Queueing and overflow policy: each destination URL has its own FIFO queue and gets one delivery at a
// time, in order; while its head is waiting for a retry (the destination is down) later events wait behind
// it and are delivered once it answers again. A queue holds at most `maxQueuePerDestination` events
// (default 1000). When it is full a new event for that destination is refused and recorded in the log
// with outcome `dropped_overflow`, so nothing is dropped silently; other destinations are unaffected.
// The log keeps the last `maxLogEntries` entries (default 10000), oldest first.
import {
  approveDestination, deliveryHeaders, deliveryIdempotencyKey, newTraceId, pinnedLookup, postDelivery, systemResolver, traceparentFor,
  type PostOutcome, type Resolver, type WebhookEvent,
} from '../../webhooks/index.js';
import { decideRetry, parseRetryAfter, type RetryPolicy } from '../../shared/retry.js';

export { deliveryIdempotencyKey } from '../../webhooks/index.js';

export interface DeliveryDestination {
  url: string;
  /** The organization's key, asked at each attempt, sent verbatim in X-Webhook-Key. */
  key: () => string | Promise<string>;
  /** Asked before each attempt; false abandons the delivery (topic or configuration disabled or removed). */
  isActive?: () => boolean;
}

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'blocked' | 'dropped_overflow';

export interface DeliveryLogEntry {
  event_id: string;
  type: string;
  url: string;
  /** 1-based attempt number; 0 for an event refused before any attempt (dropped_overflow). */
  attempt: number;
  /** HTTP status of the answer; null when none came (blocked, network error, timeout, overflow). */
  status: number | null;
  outcome: DeliveryOutcome;
  reason: string | null;
  /** When the entry was recorded (ISO 8601). */
  at: string;
}

/** Time and timers, injectable so retries can be tested without real waiting. */
export interface DeliveryTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

// spec Delivery rule 2: "A non-2xx response or a timeout is retried with back-off. A Retry-After header in the
// response is honored." The schedule, the number of retries and the timeout are left to the producer: these are ours.
export interface DeliveryRetryPolicy extends RetryPolicy {
  /** Time limit of one attempt (connect, send, response headers); reaching it counts as a failure. */
  timeoutMs: number;
}

// Attempts at 0 s, then after 1, 2, 4 ... 32, 60 s, then every 60 s: 12 in all, none later than 15 minutes after the
// event was queued, 10 s each. No jitter (the sandbox stays deterministic); a Retry-After over 10 minutes gives up.
export const DEFAULT_DELIVERY_RETRY: Readonly<DeliveryRetryPolicy> = {
  maxRetries: 11,
  maxRetryWaitMs: 10 * 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  jitter: false,
  maxElapsedMs: 15 * 60_000,
  timeoutMs: 10_000,
};

export interface DeliveryEngineOptions {
  /** Local development only: lifts the address checks and allows http:// to loopback. */
  allowPrivate?: boolean;
  resolve?: Resolver;
  retry?: Partial<DeliveryRetryPolicy>;
  maxQueuePerDestination?: number;
  maxLogEntries?: number;
  timers?: DeliveryTimers;
  /** Called with each log entry as it is recorded (the sandbox logs them to stderr). */
  onLog?: (entry: DeliveryLogEntry) => void;
}

interface QueuedDelivery {
  event: WebhookEvent;
  body: string;
  destination: DeliveryDestination;
  idempotencyKey: string;
  traceId: string;
  attempt: number;
  queuedAt: number;
}

interface DestinationQueue {
  url: string;
  items: QueuedDelivery[];
  draining: boolean;
}

type AttemptResult = { done: true } | { done: false; delayMs: number };

const realTimers: DeliveryTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class DeliveryEngine {
  private readonly queues = new Map<string, DestinationQueue>();
  private readonly log: DeliveryLogEntry[] = [];
  private readonly policy: DeliveryRetryPolicy;
  private readonly timers: DeliveryTimers;
  private readonly resolve: Resolver;
  private readonly sleeping = new Map<unknown, () => void>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly opts: DeliveryEngineOptions = {}) {
    this.policy = { ...DEFAULT_DELIVERY_RETRY, ...opts.retry };
    this.timers = opts.timers ?? realTimers;
    this.resolve = opts.resolve ?? systemResolver;
  }

  /** Queues one event for one destination; false when refused (queue full, or the engine is closed). */
  enqueue(event: WebhookEvent, destination: DeliveryDestination): boolean {
    let queue = this.queues.get(destination.url);
    if (!queue) {
      queue = { url: destination.url, items: [], draining: false };
      this.queues.set(destination.url, queue);
    }
    const limit = this.opts.maxQueuePerDestination ?? 1000;
    if (this.closed || queue.items.length >= limit) {
      const reason = this.closed ? 'the delivery engine is closed' : `the queue of this destination is full (${limit} events)`;
      this.record(event, destination.url, 0, null, 'dropped_overflow', reason);
      return false;
    }
    queue.items.push({
      event,
      body: JSON.stringify(event),
      destination,
      idempotencyKey: deliveryIdempotencyKey(event.id, destination.url),
      traceId: newTraceId(),
      attempt: 0,
      queuedAt: this.timers.now(),
    });
    if (!queue.draining) void this.drain(queue);
    return true;
  }

  /** Every recorded attempt, oldest first (a copy). */
  deliveries(): DeliveryLogEntry[] {
    return this.log.slice();
  }

  /** Events queued or in flight, for one destination or all. */
  pending(url?: string): number {
    if (url !== undefined) return this.queues.get(url)?.items.length ?? 0;
    return [...this.queues.values()].reduce((total, q) => total + q.items.length, 0);
  }

  /** Resolves once every queue is empty, or the engine is closed. */
  whenIdle(): Promise<void> {
    if (this.closed || this.pending() === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops retrying and refuses new events. Events still queued stay unsent (queues live in memory only);
   * the answer names each destination that still had some, so the caller can say so instead of losing them
   * silently.
   */
  async close(): Promise<{ url: string; pending: number }[]> {
    if (this.closed) return [];
    const undelivered = [...this.queues.values()].filter((q) => q.items.length > 0).map((q) => ({ url: q.url, pending: q.items.length }));
    this.closed = true;
    for (const [handle, wake] of this.sleeping) {
      this.timers.clearTimeout(handle);
      wake();
    }
    this.sleeping.clear();
    this.idleWaiters.splice(0).forEach((wake) => wake());
    return undelivered;
  }

  private async drain(queue: DestinationQueue): Promise<void> {
    queue.draining = true;
    try {
      while (queue.items.length > 0 && !this.closed) {
        const result = await this.attemptSafely(queue.items[0]!);
        if (result.done) queue.items.shift();
        else await this.sleep(result.delayMs);
      }
    } finally {
      queue.draining = false;
      if (queue.items.length === 0) this.queues.delete(queue.url);
      if (this.pending() === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.timers.setTimeout(() => {
        this.sleeping.delete(handle);
        resolve();
      }, ms);
      this.sleeping.set(handle, resolve);
    });
  }

  /** A throwing provider (isActive, key, resolver) must neither stall the queue nor crash the process. */
  private async attemptSafely(item: QueuedDelivery): Promise<AttemptResult> {
    try {
      return await this.attempt(item);
    } catch (err) {
      this.record(item.event, item.destination.url, item.attempt, null, 'failed', `internal error: ${(err as Error).message}`);
      return { done: true };
    }
  }

  private async attempt(item: QueuedDelivery): Promise<AttemptResult> {
    item.attempt += 1;
    const { event, destination } = item;
    const url = destination.url;
    if (destination.isActive && !destination.isActive()) {
      this.record(event, url, item.attempt, null, 'failed', 'the subscription was disabled or removed before delivery');
      return { done: true };
    }
    const approval = await approveDestination(url, { resolve: this.resolve, allowPrivate: this.opts.allowPrivate === true });
    if (!approval.ok && approval.blocked) {
      this.record(event, url, item.attempt, null, 'blocked', approval.reason);
      return { done: true };
    }
    const answer: PostOutcome = approval.ok
      ? await this.send(item, approval.address, approval.family)
      : { error: approval.reason, timedOut: false };
    if ('status' in answer && answer.status >= 200 && answer.status < 300) {
      this.record(event, url, item.attempt, answer.status, 'delivered', null);
      return { done: true };
    }
    const status = 'status' in answer ? answer.status : null;
    const why = 'status' in answer ? `HTTP ${answer.status}` : answer.error;
    const retryAfterMs = 'status' in answer ? parseRetryAfter(answer.retryAfter, this.timers.now()) : undefined;
    const decision = decideRetry({ retries: item.attempt - 1, retryAfterMs, elapsedMs: this.timers.now() - item.queuedAt }, this.policy);
    if (!decision.retry) {
      this.record(event, url, item.attempt, status, 'failed', `${why}; ${decision.message}`);
      return { done: true };
    }
    const after = retryAfterMs !== undefined ? ` (Retry-After ${Math.ceil(retryAfterMs / 1000)} s)` : '';
    this.record(event, url, item.attempt, status, 'retrying', `${why}; next attempt in ${decision.delayMs} ms${after}`);
    return { done: false, delayMs: decision.delayMs };
  }

  private async send(item: QueuedDelivery, address: string, family: 4 | 6): Promise<PostOutcome> {
    let key: string;
    try {
      key = await item.destination.key();
    } catch (err) {
      return { error: `the webhook key is unavailable (${(err as Error).message})`, timedOut: false };
    }
    const headers = deliveryHeaders({
      key, attempt: item.attempt, idempotencyKey: item.idempotencyKey, traceparent: traceparentFor(item.traceId),
    });
    const { Agent } = await import('../../shared/undici.js');
    const agent = new Agent({ connect: { lookup: pinnedLookup(address, family) } });
    try {
      const outcome = await postDelivery(item.destination.url, item.body, headers, { timeoutMs: this.policy.timeoutMs, dispatcher: agent });
      return 'error' in outcome && !outcome.timedOut ? { ...outcome, error: `connection to ${address} failed (${outcome.error})` } : outcome;
    } finally {
      void agent.destroy().catch(() => undefined);
    }
  }

  private record(
    event: WebhookEvent,
    url: string,
    attempt: number,
    status: number | null,
    outcome: DeliveryOutcome,
    reason: string | null,
  ): void {
    const entry: DeliveryLogEntry = {
      event_id: event.id, type: event.type, url, attempt, status, outcome, reason,
      at: new Date(this.timers.now()).toISOString(),
    };
    this.log.push(entry);
    const max = this.opts.maxLogEntries ?? 10_000;
    if (this.log.length > max) this.log.splice(0, this.log.length - max);
    try {
      this.opts.onLog?.(entry);
    } catch {
      // a failing logger must not stop deliveries
    }
  }
}
