// The sandbox: a stateful local emulator of the Fleet and Telematics API.
//   const sb = await startSandbox({ port: 0, seed: 7 });  ...  await sb.close();
// State lives in memory; with statePath it is loaded at start, and every change is on the disk before the
// request that made it is answered (state-file.ts). With a state file, the world is the one the file describes
// (its seed, device count and anchor win: world-choice.ts); with shareState too, processes serve it by turns.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES, type SandboxClient } from './auth/clients.js';
import { CorruptStateError, StateSaver, loadState, lockStateFile, type LoadedState } from './state-file.js';
import { StateTurns } from './store/state-turns.js';
import type { HeldLock } from '../io/file-lock.js';
import { chooseWorld, startupScenario, type WorldChoice } from './world-choice.js';
import { problem } from './common/problems.js';
import type { SandboxHooks } from './hooks.js';
import { FaultInjector, RateLimiter } from './resilience.js';
import { answerClientError, createRequestHandler } from './http/server.js';
import { buildRouter } from './routes/index.js';
import { organizationView } from './routes/views.js';
import { SandboxWebhookDelivery } from './webhooks/index.js';
import { controlRoutes } from './control/index.js';
import { controlTokenFor, guardControlRoutes } from './control/control-token.js';
import { isLoopbackHost } from '../shared/loopback.js';
import { faultRulesOrUsageError, readDataFile, scenarioUsageError } from './control/data-file.js';
import { createApp, type AppHandle } from './sandbox-app.js';
import type { SandboxApp } from './app.js';
import { MovingWorld } from './moving-world.js';
import type { Scenario } from './scenario/scenario.js';
import { DEFAULT_JOURNAL_SIZE, DEFAULT_REQUEST_TIMEOUT_MS, validateOptions, type SandboxOptions } from './options.js';
import { serverFor } from './tls-certificate.js';
import { UsageError } from '../errors.js';
import { serverTimeouts } from '../shared/server-timeouts.js';

export { serverTimeouts } from '../shared/server-timeouts.js';

export { CorruptStateError } from './state-file.js';
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
  /** Webhook seams: configuration changes and emitted telemetry. */
  hooks: SandboxHooks;
  /** Stops the world that moves (--telemetry-rate): no report after this, so a test can compare what was listed. */
  stopTelemetry(): void;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  validateOptions(opts);
  const statePath = opts.statePath;
  if (!statePath) return serveSandbox(opts, await startingWorld(opts, null), null);
  const lock = () => lockStateFile(statePath, { waitMs: opts.stateLockWaitMs ?? 0, notice: opts.lockNotice, noticeAfterMs: opts.lockNoticeAfterMs, purpose: opts.lockPurpose });
  // shared: held while the world is loaded (and, new, first saved), then one request at a time (store/state-turns.ts);
  // else held from loading the state to its last save
  const stateLock = await lock();
  try {
    const start = await startingWorld(opts, await loadState(statePath));
    const sandbox = await serveSandbox(opts, start, opts.shareState ? lock : stateLock);
    if (opts.shareState) stateLock.release();
    return sandbox;
  } catch (err) {
    stateLock.release();
    throw err;
  }
}

interface StartingWorld {
  choice: WorldChoice;
  loaded: LoadedState | null;
  /** The scenario of the options, for a world made anew. */
  given: Scenario | null;
}

async function startingWorld(opts: SandboxOptions, loaded: LoadedState | null): Promise<StartingWorld> {
  const given = await startupScenario(opts);
  return { choice: await chooseWorld(opts, loaded, given, (opts.now ?? (() => new Date()))(), opts.log ?? (() => undefined)), loaded, given };
}

/**
 * `state`: the lock of the state file, held by this sandbox until it closes; or how to take it, per request, when
 * the file is shared; null: no state file.
 */
async function serveSandbox(opts: SandboxOptions, start: StartingWorld, state: HeldLock | (() => Promise<HeldLock>) | null): Promise<RunningSandbox> {
  const log = opts.log ?? (() => undefined);
  const now = opts.now ?? (() => new Date());
  const { choice } = start;
  const { seed, scenario } = choice;
  const faults = opts.faults ? await faultRulesOrUsageError('faults', opts.faults) : [];
  if (opts.faultFile) faults.push(...(await faultRulesOrUsageError(opts.faultFile, await readDataFile(opts.faultFile, 'fault'))));
  const handle = buildApp(opts, choice);
  const { app } = handle;
  for (const rule of faults) app.faults.add(rule);
  let saver = opts.statePath ? keepState(opts.statePath, handle, start.loaded, choice, log) : null;
  // shared, a new world is written at once: its anchor (so its times) is then that of every process and later start;
  // else at the first change, or at close
  if (opts.shareState) await saver?.durable().catch(() => undefined);
  const turns = saver && typeof state === 'function' ? new StateTurns(opts.statePath!, {
    lock: () => state().catch((err: unknown) => {
      throw problem(503, 'service.unavailable', `The sandbox's state is in use: ${(err as Error).message}.`, { headers: { 'retry-after': '1' } });
    }),
    async changed() {
      let loaded: LoadedState | null;
      let next: WorldChoice;
      try {
        loaded = await loadState(opts.statePath!);
        next = await chooseWorld(opts, loaded, start.given, now(), log);
        handle.reload(next);
      } catch (err) {
        // the world as it was stays; the next request tries again
        throw problem(503, 'service.unavailable', `The sandbox cannot load its state: ${(err as Error).message}`, { headers: { 'retry-after': '1' } });
      }
      await saver!.close();
      saver = keepState(opts.statePath!, handle, loaded, next, log);
    },
  }) : null;
  const releaseState = () => (typeof state === 'object' ? state?.release() : undefined);

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
      turn: turns ? takingTurns(turns, () => saver) : undefined,
    }),
  );
  server.on('clientError', answerClientError);
  const address = await listen(server, opts.host ?? '127.0.0.1', opts.port ?? 4010);
  const baseUrl = `${opts.tls ? 'https' : 'http'}://${urlHost(address)}:${address.port}`;
  controlToken = controlTokenFor(opts.controlToken, address.address);
  handle.setBaseUrl(baseUrl);
  log(`sandbox: serving ${baseUrl} (seed ${seed}, ${app.world.devices.size} devices${scenario ? `, scenario ${scenario.name ?? '(unnamed)'}` : ''}${turns ? ', its state shared one request at a time' : ''})`);
  for (const rule of app.faults.list()) log(`sandbox: fault ${rule.id} in effect: ${JSON.stringify(rule.match)} → ${JSON.stringify(rule.respond)}`);
  webhookDelivery.start();
  const movingWorld = new MovingWorld(app, app.telemetryRate);
  movingWorld.start();
  turns?.saw();

  return runningSandbox({ app, baseUrl, controlToken, address: address.address }, async () => {
    movingWorld.stop();
    await webhookDelivery.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    // shared: every turn saved what it changed, and outside a turn the files are another's to write
    if (turns) await saver?.close();
    else await saver?.flush();
  }, releaseState, () => movingWorld.stop());
}

/** What a started sandbox tells its caller; `stop` runs once, however often close is called, and the state's lock goes after it. */
function runningSandbox(
  serving: { app: SandboxApp; baseUrl: string; controlToken: string | undefined; address: string },
  stop: () => Promise<void>,
  releaseState: () => void,
  stopTelemetry: () => void,
): RunningSandbox {
  const { app, baseUrl, controlToken, address } = serving;
  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    authUrl: baseUrl,
    openapiUrl: `${baseUrl}/openapi/v1.json`,
    controlOpenapiUrl: `${baseUrl}/_sandbox/openapi.json`,
    controlToken,
    listenAddress: address,
    loopback: isLoopbackHost(address),
    clients: app.clients.map((c) => ({ ...c, scopes: [...c.scopes] })),
    organizations: app.world.refs.organizationList.map(organizationView),
    hooks: app.hooks,
    stopTelemetry,
    close: () =>
      (closing ??= (async () => {
        try {
          await stop();
        } finally {
          releaseState();
        }
      })()),
  };
}

/** Each request in its turn of the shared state file, saved before the turn passes. */
function takingTurns(turns: StateTurns, saver: () => StateSaver | null): <T>(work: () => Promise<T>) => Promise<T> {
  // whatever a request did is on the disk before the next holder loads it (kept() answered 503 if it could not be)
  return (work) => turns.take(async () => {
    try {
      return await work();
    } finally {
      await saver()?.durable().catch(() => undefined);
    }
  });
}

/** A saver of the state file for the world `choice` (as `loaded` from it), writing it whole when it is new. */
function keepState(file: string, handle: AppHandle, loaded: LoadedState | null, choice: WorldChoice, log: (line: string) => void): StateSaver {
  const saver = new StateSaver(file, handle.snapshot, log, loaded);
  handle.persistTo(saver);
  if (choice.unpinned) saver.changedWhole();
  return saver;
}

/** The app, its world built; what does not fit is the user's to fix (exit 2), naming the file it came from. */
function buildApp(opts: SandboxOptions, w: WorldChoice): AppHandle {
  try {
    return createApp({
      ...w,
      allowPrivateWebhooks: opts.allowPrivateWebhooks ?? false,
      tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600,
      telemetryRate: opts.telemetryRatePerSecond ?? 0,
      journalSize: opts.journalSize ?? DEFAULT_JOURNAL_SIZE,
      now: opts.now ?? (() => new Date()),
      log: opts.log ?? (() => undefined),
    });
  } catch (err) {
    if (w.saved && opts.statePath) throw new CorruptStateError(opts.statePath, `its world cannot be built: ${(err as Error).message}`);
    throw scenarioUsageError(opts.scenarioFile ?? 'scenario', err);
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
