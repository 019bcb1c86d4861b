// The SandboxApp: the world (seeded, from a scenario, or both) and everything around it that route handlers
// share, with the two ways it is replaced while running (POST /_sandbox/reset and POST /_sandbox/scenario)
// and the snapshot the state file keeps.
import type { SandboxApp } from './app.js';
import { TokenStore } from './auth/tokens.js';
import { CursorCodec } from './paging.js';
import { MediaSigner } from './media-signing.js';
import { CommandStore } from './store/commands.js';
import { DeviceReturns } from './telemetry/device-returns.js';
import { WebhookConfigStore } from './store/webhook-configs.js';
import { STATE_FORMAT, STATE_VERSION, type SandboxState } from './state-file.js';
import { SandboxHooks } from './hooks.js';
import { TenantDirectory } from './common/tenancy.js';
import { RequestJournal } from './journal/journal.js';
import { FaultBook } from './faults/rules.js';
import { buildWorld, type BuiltWorld } from './scenario/build.js';
import type { Scenario } from './scenario/scenario.js';
import type { WorldChanges } from './world-store.js';
import type { StateChangeSink } from './store/state-changes.js';

export interface AppParams {
  seed: number;
  /** Devices of the seeded world. */
  devices: number;
  anchorMs: number;
  secret: Buffer;
  scenario: Scenario | null;
  saved: SandboxState | null;
  allowPrivateWebhooks: boolean;
  tokenTtlSeconds: number;
  telemetryRate: number;
  journalSize: number;
  now: () => Date;
  log: (line: string) => void;
}

/** What keeps the state: told of each change, asked to have them all on the disk before a request is answered. */
export interface StatePersistence {
  record: StateChangeSink;
  changedWhole(): void;
  durable(): Promise<void>;
}

/** No state file: nothing is kept beyond the process. */
const IN_MEMORY: StatePersistence = { record: () => undefined, changedWhole: () => undefined, durable: () => Promise.resolve() };

export interface AppHandle {
  app: SandboxApp;
  snapshot(): SandboxState;
  /** The origin clients reach the sandbox at, once it listens. */
  setBaseUrl(url: string): void;
  /** Where every change goes to be kept (the state saver, when there is a state file). */
  persistTo(saver: StatePersistence): void;
  /**
   * Replaces everything the state file keeps with `world`'s (another process sharing the file changed it): the
   * same app object, so the server, router and webhook delivery go on serving it. Throws as createApp does.
   */
  reload(world: WorldParams): void;
}

/** What a world is made of, as a state file (or the options, when there is none) gives it. */
export type WorldParams = Pick<AppParams, 'seed' | 'devices' | 'anchorMs' | 'secret' | 'scenario' | 'saved'>;

/** Builds the app; a scenario that does not fit the world throws ScenarioError (saved changes: plain Error). */
export function createApp(params: AppParams): AppHandle {
  // replaced by reload: read at each use
  const p = { ...params };
  const build = (scenario: Scenario | null, changes?: WorldChanges) => buildWorld({
    seed: p.seed, devices: p.devices, anchorMs: p.anchorMs, scenario, changes, allowPrivateWebhooks: p.allowPrivateWebhooks,
  });
  let baseUrl = '';
  let persistence = IN_MEMORY;
  const record: StateChangeSink = (change) => persistence.record(change);
  const tokenStore = (saved: SandboxState | null) => {
    const tokens = new TokenStore(p.now);
    if (saved) tokens.load(saved.tokens);
    tokens.onChange = record;
    return tokens;
  };
  /** The parts that follow from the seed's secret and the saved state, rebuilt when the state is reloaded. */
  const stateParts = (saved: SandboxState | null) => ({
    ...worldParts(build(p.scenario, saved?.world), p.scenario, saved ?? undefined),
    seed: p.seed,
    tokens: tokenStore(saved),
    cursors: new CursorCodec(p.secret),
    media: new MediaSigner(p.secret, p.now),
  });
  const worldParts = (next: BuiltWorld, scenario: Scenario | null, saved?: SandboxState) =>
    worldPartsOf(next, scenario, saved, { seed: p.seed, now: p.now, record, organizations: () => app.world.organizations.values() });

  const app: SandboxApp = {
    startedAt: p.now(),
    ...stateParts(p.saved),
    journal: new RequestJournal(p.journalSize),
    faults: new FaultBook(p.seed, p.now),
    telemetryRate: p.telemetryRate,
    hooks: new SandboxHooks(),
    allowPrivateWebhooks: p.allowPrivateWebhooks,
    tokenTtlSeconds: p.tokenTtlSeconds,
    now: p.now,
    baseUrl: () => baseUrl,
    changed: () => persistence.changedWhole(),
    durable: () => persistence.durable(),
    reset() {
      Object.assign(app, worldParts(build(app.scenario), app.scenario));
      app.changed();
    },
    loadScenario(scenario) {
      const next = build(scenario); // throws before anything is replaced
      Object.assign(app, worldParts(next, scenario));
      // the clients may have changed (their scopes, their organizations): no token outlives them
      app.tokens.revokeAll();
      app.log(`sandbox: scenario ${scenario.name ?? '(unnamed)'} loaded: ${next.world.devices.size} devices, ${next.clients.length} clients`);
      app.changed();
    },
    log: p.log,
  };
  return {
    app,
    setBaseUrl(url) {
      baseUrl = url;
    },
    snapshot: () => snapshotOf(p, app),
    persistTo(saver) {
      persistence = saver;
    },
    reload(world) {
      const before = { ...p };
      Object.assign(p, world);
      try {
        Object.assign(app, stateParts(world.saved));
      } catch (err) {
        Object.assign(p, before);
        throw err;
      }
    },
  };
}

interface WorldPartsContext {
  seed: number;
  now: () => Date;
  record: StateChangeSink;
  /** The organizations of the world the app serves at the time of asking. */
  organizations: ConstructorParameters<typeof TenantDirectory>[0];
}

/** What goes with a world, replaced with it (reset, a scenario loaded); `saved`: as the state file has it. */
function worldPartsOf(next: BuiltWorld, scenario: Scenario | null, saved: SandboxState | undefined, ctx: WorldPartsContext) {
  const parts = {
    world: next.world,
    clients: next.clients,
    scenario,
    tenants: new TenantDirectory(ctx.organizations),
    commands: new CommandStore(saved?.commands),
    returns: new DeviceReturns(ctx.seed, scenario?.device_reporting),
    webhooks: saved ? new WebhookConfigStore(ctx.now, saved.webhooks) : webhookStoreOf(next, ctx.now),
  };
  // devices rebooted in earlier runs come back (or have come back) as they would have here
  parts.returns.replay(parts.world, parts.commands.executed());
  // built from the saved state or the scenario: only what the API changes from here is reported
  parts.world.onChange = parts.commands.onChange = parts.webhooks.onChange = ctx.record;
  return parts;
}

/** Everything the state file keeps of the app, for the world `p` describes. */
function snapshotOf(p: Pick<AppParams, 'seed' | 'devices' | 'secret' | 'anchorMs'>, app: SandboxApp): SandboxState {
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    seed: p.seed,
    devices: p.devices,
    secret: p.secret.toString('hex'),
    anchor: new Date(p.anchorMs).toISOString(),
    scenario: app.scenario,
    world: app.world.getChanges(),
    commands: app.commands.toJSON(),
    webhooks: app.webhooks.toJSON(),
    tokens: app.tokens.toJSON(),
  };
}

function webhookStoreOf(built: BuiltWorld, now: () => Date): WebhookConfigStore {
  const store = new WebhookConfigStore(now);
  for (const w of built.webhooks) store.install(w.organizationId, w.isEnabled, w.topics, w.authKey);
  return store;
}
