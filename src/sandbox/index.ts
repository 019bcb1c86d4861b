// The sandbox: a stateful local emulator of the Fleet and Telematics API (issue 3).
//   const sb = await startSandbox({ port: 0, seed: 7 });  ...  await sb.close();
// State lives in memory; with statePath it is loaded at start, and every change is on the disk before the
// request that made it is answered (store/state-file.ts). With a state file, the world is the one the file describes (its seed and device count win).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, type SandboxClient } from './auth/clients.js';
import { CorruptStateError, StateSaver, loadState, lockStateFile, type LoadedState, type SandboxState } from './store/state-file.js';
import type { SandboxHooks } from './hooks.js';
import { FaultInjector, RateLimiter } from './resilience.js';
import { answerClientError, createRequestHandler } from './http/server.js';
import { buildRouter } from './routes/index.js';
import { organizationView } from './routes/views.js';
import { SandboxWebhookDelivery } from './webhooks/index.js';
import { controlRoutes } from './control/index.js';
import { controlTokenFor, guardControlRoutes } from './control/control-token.js';
import { isLoopbackHost } from '../shared/loopback.js';
import { faultRulesOrUsageError, readDataFile, scenarioOrUsageError, scenarioUsageError } from './control/data-file.js';
import { createApp, type AppHandle } from './sandbox-app.js';
import { MovingWorld } from './telemetry/moving-world.js';
import { asScenario, type Scenario } from './scenario/scenario.js';
import { DEFAULT_DEVICES, DEFAULT_JOURNAL_SIZE, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SEED, validateOptions, type SandboxOptions } from './options.js';
import { serverFor } from './tls-certificate.js';
import { UsageError } from '../errors.js';
import { serverTimeouts } from '../shared/server-timeouts.js';

export { serverTimeouts } from '../shared/server-timeouts.js';

export { CorruptStateError } from './store/state-file.js';
export type { WebhookConfigChange } from './hooks.js';
export { ALL_SCOPES };
export type { SandboxOptions } from './options.js';

export interface RunningSandbox {
  baseUrl: string;
  authUrl: string;
  openapiUrl: string;
  /** The control routes' own OpenAPI document. */
  controlOpenapiUrl: string;
  /** The token the control routes require (given, or made at start off loopback); undefined when none is. */
  controlToken: string | undefined;
  /** The address it listens on (0.0.0.0, ::, 127.0.0.1, ...). */
  listenAddress: string;
  /** Whether that address can be reached only from this machine. */
  loopback: boolean;
  clients: SandboxClient[];
  organizations: { id: string; name: string; parent_id: string | null }[];
  /** Webhook seams (issue 6): configuration changes and emitted telemetry. */
  hooks: SandboxHooks;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  validateOptions(opts);
  // held from loading the state to its last save at close: see lockStateFile
  const stateLock = opts.statePath ? await lockStateFile(opts.statePath, opts.stateLockWaitMs ?? 0, opts.lockNotice) : null;
  try {
    return await serveSandbox(opts, () => stateLock?.release());
  } catch (err) {
    stateLock?.release();
    throw err;
  }
}

async function serveSandbox(opts: SandboxOptions, releaseState: () => void): Promise<RunningSandbox> {
  const log = opts.log ?? (() => undefined);
  const now = opts.now ?? (() => new Date());
  const choice = await chooseWorld(opts, log, now);
  const { seed, scenario, loaded } = choice;
  const faults = opts.faults ? await faultRulesOrUsageError('faults', opts.faults) : [];
  if (opts.faultFile) faults.push(...(await faultRulesOrUsageError(opts.faultFile, await readDataFile(opts.faultFile, 'fault'))));
  const handle = buildApp(opts, choice);
  const { app } = handle;
  for (const rule of faults) app.faults.add(rule);
  const saver = opts.statePath ? new StateSaver(opts.statePath, handle.snapshot, log, loaded) : null;
  if (saver) handle.persistTo(saver);

  const webhookDelivery = new SandboxWebhookDelivery(app, {
    allowPrivate: app.allowPrivateWebhooks, emitRatePerSecond: opts.emitRatePerSecond, propagationMs: opts.propagationMs,
    retry: opts.webhookRetry, resolve: opts.webhookResolver,
  });
  // required until the bound address is known to be loopback: no request slips through before that
  let controlToken: string | undefined = opts.controlToken ?? controlTokenFor(undefined, '0.0.0.0');
  const router = buildRouter(guardControlRoutes(controlRoutes(webhookDelivery), () => controlToken));
  const server = serverFor(opts.tls, createServer)(
    serverTimeouts(opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    createRequestHandler(app, router, {
      latencyMs: opts.latencyMs ?? 0,
      faults: new FaultInjector(opts.faultRate ?? 0, seed),
      // the sandbox's clock when one is injected (a test moves time rather than waiting); else a monotonic one
      rateLimiter: opts.rateLimit ? new RateLimiter(opts.rateLimit, opts.now ? () => now().getTime() : undefined) : null,
    }),
  );
  server.on('clientError', answerClientError);
  const address = await listen(server, opts.host ?? '127.0.0.1', opts.port ?? 4010);
  const baseUrl = `${opts.tls ? 'https' : 'http'}://${urlHost(address)}:${address.port}`;
  controlToken = controlTokenFor(opts.controlToken, address.address);
  handle.setBaseUrl(baseUrl);
  log(`sandbox: serving ${baseUrl} (seed ${seed}, ${app.world.devices.size} devices${scenario ? `, scenario ${scenario.name ?? '(unnamed)'}` : ''})`);
  for (const rule of app.faults.list()) log(`sandbox: fault ${rule.id} in effect: ${JSON.stringify(rule.match)} → ${JSON.stringify(rule.respond)}`);
  webhookDelivery.start();
  const movingWorld = new MovingWorld(app, app.telemetryRate);
  movingWorld.start();

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    authUrl: baseUrl,
    openapiUrl: `${baseUrl}/openapi/v1.json`,
    controlOpenapiUrl: `${baseUrl}/_sandbox/openapi.json`,
    controlToken,
    listenAddress: address.address,
    loopback: isLoopbackHost(address.address),
    clients: app.clients.map((c) => ({ ...c, scopes: [...c.scopes] })),
    organizations: app.world.refs.organizationList.map(organizationView),
    hooks: app.hooks,
    close: () =>
      (closing ??= (async () => {
        try {
          movingWorld.stop();
          await webhookDelivery.close();
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
          await saver?.flush();
        } finally {
          releaseState();
        }
      })()),
  };
}

interface WorldChoice {
  seed: number;
  deviceCount: number;
  scenario: Scenario | null;
  saved: SandboxState | null;
  /** The state file as read, for the saver. */
  loaded: LoadedState | null;
  now: () => Date;
  log: (line: string) => void;
}

/** The world to start from: the state file's when there is one (its seed, size and scenario win), else the options'. */
async function chooseWorld(opts: SandboxOptions, log: (line: string) => void, now: () => Date): Promise<WorldChoice> {
  const loaded = opts.statePath ? await loadState(opts.statePath) : null;
  const saved = loaded?.state ?? null;
  const seed = saved?.seed ?? opts.seed ?? DEFAULT_SEED;
  const deviceCount = saved?.devices ?? opts.devices ?? DEFAULT_DEVICES;
  const given = await startupScenario(opts);
  const scenario = saved ? await savedScenario(saved, opts.statePath!) : given;
  const differs = (opts.seed !== undefined && opts.seed !== seed) || (opts.devices !== undefined && opts.devices !== deviceCount) || (given !== null && JSON.stringify(given) !== JSON.stringify(scenario));
  if (saved && differs) {
    log(`sandbox: ${opts.statePath} holds a world of seed ${seed} with ${deviceCount} devices${scenario ? ` and scenario ${scenario.name ?? '(unnamed)'}` : ''}; using it (reset to start afresh)`);
  }
  return { seed, deviceCount, scenario, saved, loaded, now, log };
}

/** The app, its world built; what does not fit is the user's to fix (exit 2), naming the file it came from. */
function buildApp(opts: SandboxOptions, w: WorldChoice): AppHandle {
  try {
    return createApp({
      seed: w.seed,
      devices: w.deviceCount,
      anchorMs: Math.floor(w.now().getTime() / 60_000) * 60_000,
      secret: Buffer.from(w.saved?.secret ?? randomBytes(32).toString('hex'), 'hex'),
      scenario: w.scenario,
      saved: w.saved,
      allowPrivateWebhooks: opts.allowPrivateWebhooks ?? false,
      tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600,
      telemetryRate: opts.telemetryRatePerSecond ?? 0,
      journalSize: opts.journalSize ?? DEFAULT_JOURNAL_SIZE,
      now: w.now,
      log: w.log,
    });
  } catch (err) {
    if (w.saved && opts.statePath) throw new CorruptStateError(opts.statePath, `its world cannot be built: ${(err as Error).message}`);
    throw scenarioUsageError(opts.scenarioFile ?? 'scenario', err);
  }
}

async function startupScenario(opts: SandboxOptions): Promise<Scenario | null> {
  if (opts.scenarioFile !== undefined) return scenarioOrUsageError(opts.scenarioFile, await readDataFile(opts.scenarioFile, 'scenario'));
  if (opts.scenario !== undefined) return scenarioOrUsageError('scenario', opts.scenario);
  return null;
}

async function savedScenario(saved: SandboxState, statePath: string): Promise<Scenario | null> {
  if (!saved.scenario) return null;
  try {
    return await asScenario(saved.scenario);
  } catch (err) {
    throw new CorruptStateError(statePath, `its scenario does not fit the Scenario schema: ${(err as Error).message}`);
  }
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
