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
import { STATE_FORMAT, STATE_VERSION, type SandboxState } from './store/state-file.js';
import { SandboxHooks } from './hooks.js';
import { TenantDirectory } from './tenancy.js';
import { RequestJournal } from './journal/journal.js';
import { FaultBook } from './faults/rules.js';
import { buildWorld, type BuiltWorld } from './scenario/build.js';
import type { Scenario } from './scenario/scenario.js';
import type { WorldChanges } from './store/world-store.js';
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
}

/** Builds the app; a scenario that does not fit the world throws ScenarioError (saved changes: plain Error). */
export function createApp(p: AppParams): AppHandle {
  const build = (scenario: Scenario | null, changes?: WorldChanges) => buildWorld({
    seed: p.seed, devices: p.devices, anchorMs: p.anchorMs, scenario, changes, allowPrivateWebhooks: p.allowPrivateWebhooks,
  });
  const built = build(p.scenario, p.saved?.world);
  const tokens = new TokenStore(p.now);
  if (p.saved) tokens.load(p.saved.tokens);
  let baseUrl = '';
  let persistence = IN_MEMORY;
  const record: StateChangeSink = (change) => persistence.record(change);
  tokens.onChange = record;
  // what goes with a world, replaced with it (reset, a scenario loaded); `saved`: as the state file has it
  const worldParts = (next: BuiltWorld, scenario: Scenario | null, saved?: SandboxState) => {
    const parts = {
      world: next.world,
      clients: next.clients,
      scenario,
      tenants: new TenantDirectory(() => app.world.organizations.values()),
      commands: new CommandStore(saved?.commands),
      returns: new DeviceReturns(p.seed, scenario?.device_reporting),
      webhooks: saved ? new WebhookConfigStore(p.now, saved.webhooks) : webhookStoreOf(next, p.now),
    };
    // built from the saved state or the scenario: only what the API changes from here is reported
    parts.world.onChange = parts.commands.onChange = parts.webhooks.onChange = record;
    return parts;
  };

  const app: SandboxApp = {
    seed: p.seed,
    startedAt: p.now(),
    ...worldParts(built, p.scenario, p.saved ?? undefined),
    tokens,
    journal: new RequestJournal(p.journalSize),
    faults: new FaultBook(p.seed, p.now),
    telemetryRate: p.telemetryRate,
    cursors: new CursorCodec(p.secret),
    media: new MediaSigner(p.secret, p.now),
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
    snapshot: (): SandboxState => ({
      format: STATE_FORMAT,
      version: STATE_VERSION,
      seed: p.seed,
      devices: p.devices,
      secret: p.secret.toString('hex'),
      scenario: app.scenario,
      world: app.world.getChanges(),
      commands: app.commands.toJSON(),
      webhooks: app.webhooks.toJSON(),
      tokens: app.tokens.toJSON(),
    }),
    persistTo(saver) {
      persistence = saver;
    },
  };
}

function webhookStoreOf(built: BuiltWorld, now: () => Date): WebhookConfigStore {
  const store = new WebhookConfigStore(now);
  for (const w of built.webhooks) store.install(w.organizationId, w.isEnabled, w.topics, w.authKey);
  return store;
}
