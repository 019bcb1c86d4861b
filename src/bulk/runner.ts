// Sends one command to many devices: each device once (its retries carry the same Idempotency-Key), results
// reported as they arrive. A device told to wait (503 or 429 with Retry-After, a dropped connection) waits in a
// queue, not in a request slot: the slot goes to the next device at once. How many requests are in flight adapts
// to the answers (concurrency.ts); how fast they go out is the RatePacer's business (in the API client).
import { ApiError, CancelledError, FleetctlError, NetworkError } from '../errors.js';
import type { Clock } from '../io/clock.js';
import { TokenEndpointUnavailable } from '../auth/tokens.js';
import { decideRetry, type RetryPolicy } from '../shared/retry.js';
import { isRetryableNetworkError } from '../http/network-failure.js';
import { sendDeviceCommand, type CommandSender, type DeviceCommand, type DeviceCommandOutcome } from '../api/device-commands.js';
import { AdaptiveConcurrency, type ConcurrencyBounds } from './concurrency.js';

/** What the runner needs of one device's outcome: the HTTP status (for concurrency) and the error (for retries). */
export interface BulkOutcome {
  result: { http_status: number | null };
  error?: Error;
}

export interface BulkPlan<O extends BulkOutcome = DeviceCommandOutcome> {
  /** A device command, sent with each device's key (keyFor); not used when `send` is given. */
  command?: DeviceCommand;
  keyFor?: (hardwareId: string) => string;
  /**
   * Another kind of task than a device command (an assignment): its one attempt for a device, which never throws
   * for an API or network failure (that is its outcome).
   */
  send?: (hardwareId: string, signal: AbortSignal) => Promise<O>;
  /** `send` carries the same Idempotency-Key on every attempt: a try that timed out may be made again (it replays). */
  repeatable?: boolean;
  hardwareIds: string[];
  concurrency: ConcurrencyBounds;
  /** Retries of each device (503, 429, dropped connections), made by the runner: the API client makes none. */
  retry: RetryPolicy;
}

/**
 * A failure that is not about one device but about the run (the token endpoint refused the credentials or the
 * scope, or could not give a token at all; the configuration is unusable): every other device would fail the
 * same way, so the run stops.
 */
export function isRunFatal(error: unknown): error is FleetctlError {
  if (error instanceof TokenEndpointUnavailable) return true;
  return error instanceof FleetctlError && !(error instanceof ApiError) && !(error instanceof NetworkError) && !(error instanceof CancelledError);
}

interface Pending {
  hardwareId: string;
  /** Retries made so far. */
  retries: number;
  /** Not before this time (ms since the epoch). */
  at: number;
}

/**
 * Runs the plan; stops taking devices when the signal aborts, and then rejects with its reason once the requests
 * in flight have ended (devices still waiting to be retried are not reported: --resume sends them, same keys).
 * onResult sees every final outcome, in the order they arrive. A run-fatal failure (see isRunFatal) stops it too:
 * that device is not reported (nothing reached the API for it) and the run rejects with that error.
 */
export function runBulk<O extends BulkOutcome = DeviceCommandOutcome>(
  api: CommandSender,
  plan: BulkPlan<O>,
  opts: {
    signal: AbortSignal;
    clock: Clock;
    onResult: (outcome: O) => void;
    /** A brake (bulk/waves.ts): once true, no device is taken; those in flight end, then the run resolves. */
    halt?: () => boolean;
  },
): Promise<void> {
  const { command, keyFor, send: task } = plan;
  if (!task && (command === undefined || keyFor === undefined)) throw new Error('a bulk plan names its command and keys, or its task');
  const concurrency = new AdaptiveConcurrency(plan.concurrency);
  const now = () => opts.clock.now().getTime();
  let nextFresh = 0;
  const due: Pending[] = [];
  const waiting: Pending[] = []; // by time
  let inFlight = 0;
  let wakeAt = Infinity;
  let stop: unknown;

  return new Promise<void>((resolve, reject) => {
    const stopped = () => opts.signal.aborted || stop !== undefined || opts.halt?.() === true;
    const hasWork = () => due.length > 0 || nextFresh < plan.hardwareIds.length;
    // devices whose wait is over go before those not tried yet
    const take = (): Pending => due.shift() ?? { hardwareId: plan.hardwareIds[nextFresh++]!, retries: 0, at: 0 };

    const pump = (): void => {
      while (waiting.length > 0 && waiting[0]!.at <= now()) due.push(waiting.shift()!);
      while (!stopped() && inFlight < concurrency.limit && hasWork()) send(take());
      if (inFlight === 0 && (stopped() || (!hasWork() && waiting.length === 0))) return settle();
      if (!stopped() && !hasWork() && waiting.length > 0 && waiting[0]!.at < wakeAt) sleepUntil(waiting[0]!.at);
    };

    const sleepUntil = (at: number): void => {
      wakeAt = at;
      opts.clock.sleep(Math.max(0, at - now()), opts.signal).then(
        () => {
          if (wakeAt === at) wakeAt = Infinity;
          pump();
        },
        () => pump(), // aborted: pump settles once nothing is in flight
      );
    };

    const send = (item: Pending): void => {
      inFlight++;
      const ticket = concurrency.started();
      const attempt = task
        ? task(item.hardwareId, opts.signal)
        : (sendDeviceCommand(api, { hardwareId: item.hardwareId, command: command!, idempotencyKey: keyFor!(item.hardwareId), signal: opts.signal }) as Promise<BulkOutcome> as Promise<O>);
      attempt
        .then((outcome) => answered(item, ticket, outcome))
        .catch((error: unknown) => (stop ??= error))
        .finally(() => {
          inFlight--;
          pump();
        });
    };

    const answered = (item: Pending, ticket: number, outcome: O): void => {
      const error = outcome.error;
      if (isRunFatal(error)) {
        stop ??= error;
        return;
      }
      if (error instanceof ApiError && error.status === 429) concurrency.rateLimited(ticket);
      else if (outcome.result.http_status !== null && outcome.result.http_status !== 503) concurrency.accepted();
      // a device command carries its device's Idempotency-Key: sent again after a timeout, it replays
      const wait = retryDelay(error, item.retries, plan.retry, plan.send === undefined || plan.repeatable === true);
      if (wait === undefined) return opts.onResult(outcome);
      const later = { ...item, retries: item.retries + 1, at: now() + wait };
      const before = waiting.findIndex((w) => w.at > later.at);
      waiting.splice(before === -1 ? waiting.length : before, 0, later);
    };

    const settle = (): void => {
      if (opts.signal.aborted) reject(opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
      else if (stop !== undefined) reject(stop);
      else resolve();
    };

    pump();
  });
}

/** How long a device waits before its next try, or undefined when it is done (success, or a final failure). */
function retryDelay(error: Error | undefined, retries: number, policy: RetryPolicy, repeatableAfterTimeout: boolean): number | undefined {
  const unavailable = error instanceof ApiError && (error.status === 503 || error.status === 429);
  if (!unavailable && !(error && isRetryableNetworkError(error, repeatableAfterTimeout))) return undefined;
  const retryAfterMs = error instanceof ApiError && error.retryAfter !== undefined ? error.retryAfter * 1000 : undefined;
  const decision = decideRetry({ retries, retryAfterMs }, policy);
  return decision.retry ? decision.delayMs : undefined;
}
