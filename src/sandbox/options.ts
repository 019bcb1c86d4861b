// The one options type of the sandbox: `fleetctl sandbox` (src/commands/sandbox/start.ts) builds it from its
// flags, `fleetctl --sandbox` (src/sandbox/embedded.ts) from the config directory, tests and the bench directly.
import type { Resolver } from '../webhooks/index.js';
import type { DeliveryRetryPolicy } from './webhooks/delivery-engine.js';
import type { SandboxTls } from './tls-certificate.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  statePath?: string;
  /** One line when the state file's lock is recovered or waited for past a second (the CLI's stderr). */
  lockNotice?: (line: string) => void;
  /** How long a wait for the state file's lock goes unsaid (default a second). */
  lockNoticeAfterMs?: number;
  /** What this sandbox is for, recorded in the lock and shown to those who wait for it (the command that runs). */
  lockPurpose?: string;
  /**
   * How long to wait for the state file's lock (state-file.ts): for another sandbox using statePath to stop,
   * or with shareState for another's request; 0, the default, refuses at once.
   */
  stateLockWaitMs?: number;
  /**
   * Share statePath with other processes one request at a time (store/state-turns.ts), rather than holding it from
   * start to close: the embedded sandbox of `fleetctl --sandbox`, which many commands use at once.
   */
  shareState?: boolean;
  seed?: number;
  devices?: number;
  /** A scenario file (YAML or JSON) to start from (common/control-openapi.json, schema Scenario). */
  scenarioFile?: string;
  /** A scenario document, as parsed (instead of scenarioFile). */
  scenario?: unknown;
  /** A file of fault rules (YAML or JSON; schema FaultFile) in effect from the start. */
  faultFile?: string;
  /** Fault rules, as parsed (before those of faultFile). */
  faults?: unknown[];
  rateLimit?: number;
  faultRate?: number;
  latencyMs?: number;
  tokenTtlSeconds?: number;
  allowPrivateWebhooks?: boolean;
  emitRatePerSecond?: number;
  propagationMs?: number;
  /** Device reports per second across the world (new positions, states and events); 0 or undefined: still. */
  telemetryRatePerSecond?: number;
  /** Entries the request journal keeps (default 1000). */
  journalSize?: number;
  /** Shortens the webhook retry schedule (tests). */
  webhookRetry?: Partial<DeliveryRetryPolicy>;
  /** DNS resolver for delivery-time webhook address checks (tests). */
  webhookResolver?: Resolver;
  log?: (line: string) => void;
  /** The sandbox's clock (tests): the world's dates, token lifetimes and the rate limiter's refills follow it. */
  now?: () => Date;
  /**
   * How long a request may take to arrive, headers and body, before it is answered 408 (default 20 s; Node's own
   * 300 s would hold a stalled connection for minutes). Tests use a short one.
   */
  requestTimeoutMs?: number;
  /**
   * The token every control route (/_sandbox/*) requires as `Authorization: Bearer`. Without one, a sandbox bound
   * to a non-loopback address makes one at start (RunningSandbox.controlToken); on loopback none is required.
   */
  controlToken?: string;
  /** Serve HTTPS with this key and certificate (`fleetctl sandbox --tls`). */
  tls?: SandboxTls;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_DEVICES = 200;
export const DEFAULT_JOURNAL_SIZE = 1000;
export const MAX_JOURNAL_SIZE = 10_000;
export const MAX_TELEMETRY_RATE = 10_000;
/** Webhook events a second from --emit-rate: beyond it the timer's loop would never let the server answer. */
export const MAX_EMIT_RATE = 10_000;
export { DEFAULT_REQUEST_TIMEOUT_MS } from '../shared/server-timeouts.js';

/** Programming errors of callers that bypass the CLI's checks (which say the same with flag names). */
export function validateOptions(opts: SandboxOptions): void {
  const bad = (what: string) => {
    throw new RangeError(`sandbox: ${what}`);
  };
  if (opts.devices !== undefined && (!Number.isInteger(opts.devices) || opts.devices < 0)) bad('devices must be a non-negative integer');
  if (opts.seed !== undefined && !Number.isInteger(opts.seed)) bad('seed must be an integer');
  if (opts.faultRate !== undefined && !(opts.faultRate >= 0 && opts.faultRate <= 1)) bad('faultRate must be between 0 and 1');
  if (opts.rateLimit !== undefined && !(opts.rateLimit > 0)) bad('rateLimit must be a positive number of requests per second');
  if (opts.latencyMs !== undefined && !(opts.latencyMs >= 0)) bad('latencyMs must be 0 or more');
  if (opts.tokenTtlSeconds !== undefined && !(Number.isInteger(opts.tokenTtlSeconds) && opts.tokenTtlSeconds > 0)) bad('tokenTtlSeconds must be a positive integer');
  const rate = opts.telemetryRatePerSecond;
  if (rate !== undefined && !(rate >= 0 && rate <= MAX_TELEMETRY_RATE)) bad(`telemetryRatePerSecond must be from 0 to ${MAX_TELEMETRY_RATE}`);
  const emit = opts.emitRatePerSecond;
  if (emit !== undefined && !(emit >= 0 && emit <= MAX_EMIT_RATE)) bad(`emitRatePerSecond must be from 0 to ${MAX_EMIT_RATE}`);
  const size = opts.journalSize;
  if (size !== undefined && !(Number.isInteger(size) && size >= 1 && size <= MAX_JOURNAL_SIZE)) bad(`journalSize must be a whole number from 1 to ${MAX_JOURNAL_SIZE}`);
  const timeout = opts.requestTimeoutMs;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1)) bad('requestTimeoutMs must be a whole number of milliseconds, 1 or more');
  if (opts.scenario !== undefined && opts.scenarioFile !== undefined) bad('give scenario or scenarioFile, not both');
}
