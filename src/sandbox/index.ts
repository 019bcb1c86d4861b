// The sandbox: a stateful local emulator of the Fleet and Telematics API (issue 3).
//   const sb = await startSandbox({ port: 0, seed: 7 });  ...  await sb.close();
// State lives in memory; with statePath it is loaded at start and saved atomically after changes and at
// close. With a state file, the world is the one the file describes (its seed and device count win).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, seedClients, type SandboxClient } from './auth/clients.js';
import { TokenStore } from './auth/tokens.js';
import { CursorCodec } from './paging.js';
import { MediaSigner } from './media-signing.js';
import { CommandStore } from './store/commands.js';
import { WebhookConfigStore } from './store/webhook-configs.js';
import { WorldStore } from './store/world-store.js';
import { CorruptStateError, STATE_FORMAT, STATE_VERSION, StateSaver, loadState, type SandboxState } from './store/state-file.js';
import { SandboxHooks } from './hooks.js';
import { TenantDirectory } from './tenancy.js';
import { FaultInjector, RateLimiter } from './resilience.js';
import { answerClientError, createRequestHandler } from './http/server.js';
import { buildRouter } from './routes/index.js';
import { organizationView } from './routes/views.js';
import { serverFor, type SandboxTls } from './tls-certificate.js';
import type { SandboxApp } from './app.js';
import { SandboxWebhookDelivery, addSandboxWebhookRoutes } from './webhooks/index.js';
import type { Resolver, RetryPolicy } from '../webhooks/index.js';
import { UsageError } from '../errors.js';

export { CorruptStateError } from './store/state-file.js';
export { SandboxHooks } from './hooks.js';
export type { WebhookConfigChange, EmittedEvent } from './hooks.js';
export { ALL_SCOPES };

export interface SandboxOptions {
  host?: string;
  port?: number;
  statePath?: string;
  seed?: number;
  devices?: number;
  rateLimit?: number;
  faultRate?: number;
  latencyMs?: number;
  tokenTtlSeconds?: number;
  allowPrivateWebhooks?: boolean;
  emitRatePerSecond?: number;
  propagationMs?: number;
  /** Shortens the webhook retry schedule (tests). */
  webhookRetry?: Partial<RetryPolicy>;
  /** DNS resolver for delivery-time webhook address checks (tests). */
  webhookResolver?: Resolver;
  log?: (line: string) => void;
  now?: () => Date;
  /** Serve HTTPS with this key and certificate (`fleetctl sandbox --tls`). */
  tls?: SandboxTls;
}

export interface RunningSandbox {
  baseUrl: string;
  authUrl: string;
  openapiUrl: string;
  clients: SandboxClient[];
  organizations: { id: string; name: string; parent_id: string | null }[];
  /** Webhook seams (issue 6): configuration changes and emitted telemetry. */
  hooks: SandboxHooks;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_DEVICES = 200;

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const log = opts.log ?? (() => undefined);
  const now = opts.now ?? (() => new Date());
  validateOptions(opts);
  const saved = opts.statePath ? await loadState(opts.statePath) : null;
  const seed = saved?.seed ?? opts.seed ?? DEFAULT_SEED;
  const deviceCount = saved?.devices ?? opts.devices ?? DEFAULT_DEVICES;
  if (saved && ((opts.seed !== undefined && opts.seed !== seed) || (opts.devices !== undefined && opts.devices !== deviceCount))) {
    log(`sandbox: ${opts.statePath} holds a world of seed ${seed} with ${deviceCount} devices; using it (reset to start afresh)`);
  }
  const secret = Buffer.from(saved?.secret ?? randomBytes(32).toString('hex'), 'hex');
  const anchorMs = Math.floor(now().getTime() / 60_000) * 60_000;
  const world = buildWorld(seed, deviceCount, anchorMs, saved, opts.statePath);
  const tokens = new TokenStore(now);
  if (saved) tokens.load(saved.tokens);
  const clients = seedClients(seed, world.orgs);
  let baseUrl = '';
  let saver: StateSaver | null = null;

  const app: SandboxApp = {
    world,
    tokens,
    tenants: new TenantDirectory(() => app.world.organizations.values()),
    clients,
    cursors: new CursorCodec(secret),
    media: new MediaSigner(secret, now),
    commands: new CommandStore(saved?.commands),
    webhooks: new WebhookConfigStore(now, saved?.webhooks),
    hooks: new SandboxHooks(),
    allowPrivateWebhooks: opts.allowPrivateWebhooks ?? false,
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600,
    now,
    baseUrl: () => baseUrl,
    changed: () => saver?.changed(),
    reset() {
      app.world = new WorldStore(seed, deviceCount, anchorMs);
      app.commands = new CommandStore();
      app.webhooks = new WebhookConfigStore(now);
      app.changed();
    },
    log,
  };
  const snapshot = (): SandboxState => ({
    format: STATE_FORMAT,
    version: STATE_VERSION,
    seed,
    devices: deviceCount,
    secret: secret.toString('hex'),
    world: app.world.getChanges(),
    commands: app.commands.toJSON(),
    webhooks: app.webhooks.toJSON(),
    tokens: app.tokens.toJSON(),
  });
  if (opts.statePath) saver = new StateSaver(opts.statePath, snapshot, log, saved !== null);

  const webhookDelivery = new SandboxWebhookDelivery(app, {
    allowPrivate: app.allowPrivateWebhooks, emitRatePerSecond: opts.emitRatePerSecond, propagationMs: opts.propagationMs,
    retry: opts.webhookRetry, resolve: opts.webhookResolver,
  });
  const router = buildRouter();
  addSandboxWebhookRoutes(router, webhookDelivery);
  const server = serverFor(opts.tls, createServer)(
    { keepAliveTimeout: 5_000 },
    createRequestHandler(app, router, {
      latencyMs: opts.latencyMs ?? 0,
      faults: new FaultInjector(opts.faultRate ?? 0, seed),
      rateLimiter: opts.rateLimit ? new RateLimiter(opts.rateLimit) : null,
    }),
  );
  server.on('clientError', answerClientError);
  const address = await listen(server, opts.host ?? '127.0.0.1', opts.port ?? 4010);
  baseUrl = `${opts.tls ? 'https' : 'http'}://${urlHost(address)}:${address.port}`;
  log(`sandbox: listening on ${baseUrl} (seed ${seed}, ${deviceCount} devices)`);
  webhookDelivery.start();

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    authUrl: baseUrl,
    openapiUrl: `${baseUrl}/openapi/v1.json`,
    clients: clients.map((c) => ({ ...c, scopes: [...c.scopes] })),
    organizations: world.orgs.all.map(organizationView),
    hooks: app.hooks,
    close: () =>
      (closing ??= (async () => {
        await webhookDelivery.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await saver?.flush();
      })()),
  };
}

/** The world with the saved changes applied; changes that do not fit the seed mean a corrupt file. */
function buildWorld(seed: number, devices: number, anchorMs: number, saved: SandboxState | null, statePath?: string): WorldStore {
  try {
    return new WorldStore(seed, devices, anchorMs, saved?.world);
  } catch (err) {
    if (!saved || !statePath) throw err;
    throw new CorruptStateError(statePath, `its world section cannot be applied: ${(err as Error).message}`);
  }
}

function validateOptions(opts: SandboxOptions): void {
  const bad = (what: string) => {
    throw new RangeError(`sandbox: ${what}`);
  };
  if (opts.devices !== undefined && (!Number.isInteger(opts.devices) || opts.devices < 0)) bad('devices must be a non-negative integer');
  if (opts.seed !== undefined && !Number.isInteger(opts.seed)) bad('seed must be an integer');
  if (opts.faultRate !== undefined && !(opts.faultRate >= 0 && opts.faultRate <= 1)) bad('faultRate must be between 0 and 1');
  if (opts.rateLimit !== undefined && !(opts.rateLimit > 0)) bad('rateLimit must be a positive number of requests per second');
  if (opts.latencyMs !== undefined && !(opts.latencyMs >= 0)) bad('latencyMs must be 0 or more');
  if (opts.tokenTtlSeconds !== undefined && !(Number.isInteger(opts.tokenTtlSeconds) && opts.tokenTtlSeconds > 0)) bad('tokenTtlSeconds must be a positive integer');
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => reject(listenError(err, host, port));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** The usual reasons a port cannot be taken are the user's to fix: one line and a hint, exit 2. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return new UsageError(`cannot listen on ${where}: the port is already in use`, 'pick another with --port, or --port 0 for a free one');
    case 'EACCES':
      return new UsageError(`cannot listen on ${where}: permission denied`, 'use a port above 1023, or --port 0 for a free one');
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(`cannot listen on ${where}: no such address on this machine (${err.code})`, 'use --host 127.0.0.1 (the default), or an address of this machine');
    default:
      return err;
  }
}

function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
