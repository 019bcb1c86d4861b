// Builds the dependencies every command receives; what is costly (conf, undici, tokens) is built on first use.
import { ApiError, AuthError, UsageError } from './errors.js';
import type { IOStreams } from './io/streams.js';
import { systemClock, type Clock } from './io/clock.js';
import { createPrompter, type Prompter } from './io/prompter.js';
import { Output, parseOutputFormat, type OutputFormat } from './output/render.js';
import type { JqProgram } from './output/jq.js';
import { parseColumns } from './output/values.js';
import { configDirectory, openConfigStore, type ConfigStore } from './config/store.js';
import { resolveSettings, type Settings } from './config/settings.js';
import { silentTracer, streamTracer, type Tracer } from './api/trace.js';
import type { Transport } from './api/transport.js';
import type { NetworkSettings } from './api/dispatcher.js';
import type { Keychain } from './auth/secret-store.js';
import type { ApiClient } from './api/client.js';
import type { ServedDocument } from './api/served-document.js';
import type { OperationId } from './openapi/operation-types.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './shared/retry.js';
import type { Dispatcher } from 'undici';
import { quoteInput } from './output/terminal-text.js';
import { requireWholeNumber } from './commands/shared/validate.js';

/** Global flags, as commander parses them. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  authUrl?: string;
  output?: string;
  json?: boolean;
  columns?: string;
  jq?: string;
  slurp?: boolean;
  color?: boolean;
  input?: boolean;
  debug?: boolean;
  timeout?: string;
  maxRetries?: string;
  maxRetryWait?: string;
  insecure?: boolean;
  caFile?: string;
  sandbox?: boolean;
}

/** Credentials and endpoints that replace the configured ones (embedded sandbox mode). */
export interface SettingsOverride {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  organizationId?: string;
  /** Names the issuer in the token cache when its URL changes from run to run (an ephemeral port). */
  tokenCacheAs?: string;
}

export interface Runtime {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  prompter?: Prompter;
  /** Tests pass undici's MockAgent. */
  dispatcher?: Dispatcher;
  /** Aborted on Ctrl-C, SIGTERM, or when the reader of stdout goes away. */
  signal?: AbortSignal;
  /** Aborted on Ctrl-C and SIGTERM only (defaults to `signal`). */
  interruptSignal?: AbortSignal;
  /** Tests pass a keychain of their own; by default, the system's. */
  keychain?: Keychain;
}

export interface Deps {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  prompter: Prompter;
  /** Stop: Ctrl-C, SIGTERM, or stdout closed by its reader (`| head`). Reads and watchers follow this one. */
  signal: AbortSignal;
  /**
   * Ctrl-C and SIGTERM only. Work the user confirmed (a bulk reboot) follows this one, so a reader that stops
   * reading its output does not leave it half done.
   */
  interruptSignal: AbortSignal;
  globals(): GlobalOptions;
  /** --debug or FLEETCTL_DEBUG: HTTP traces, and the stack of an unexpected failure. */
  debug(): boolean;
  output(): Output;
  tracer(): Tracer;
  configDir(): string;
  config(): Promise<ConfigStore>;
  /** The OS keychain (each call bounded: a machine without one answers "unavailable" within 3 s). */
  keychain(): Keychain;
  settings(): Promise<Settings>;
  transport(): Promise<Transport>;
  api(): Promise<ApiClient>;
  /**
   * The OpenAPI document of the profile's service (its own, a cached copy, else the bundled one; a warning on
   * stderr says when it stands in), fetched on the first call only: record shapes and request rules come from it.
   */
  servedDocument(): Promise<ServedDocument>;
  /** Registered by long-lived resources (an embedded sandbox) and run before the process ends. */
  onCleanup(task: () => Promise<void>): void;
  cleanup(): Promise<void>;
  /** Set by `--sandbox` before any command runs. */
  override?: SettingsOverride;
  /** Registered by `--sandbox`: starts the embedded sandbox on first use. */
  startOverride?: () => Promise<SettingsOverride>;
  /**
   * Fresh dependencies that also stop on `signal`, read `env` instead, and see extra global flags: completion
   * looks ids up as the line being completed would (its --profile), within a time budget.
   */
  derive(runtime: Partial<Pick<Runtime, 'env' | 'signal'>>, extraGlobals?: GlobalOptions): Deps;
}

export function createDeps(runtime: Runtime, globals: () => GlobalOptions): Deps {
  const debug = () => Boolean(globals().debug) || runtime.env.FLEETCTL_DEBUG === '1' || runtime.env.FLEETCTL_DEBUG === 'true';
  const clock = runtime.clock ?? systemClock;
  const cleanups: (() => Promise<void>)[] = [];
  let tracer: Tracer | undefined;
  let store: Promise<ConfigStore> | undefined;
  let transport: Promise<Transport> | undefined;
  let api: Promise<ApiClient> | undefined;
  let served: Promise<ServedDocument> | undefined;
  let jq: Promise<JqProgram> | undefined;
  let keychain: Keychain | undefined = runtime.keychain;

  const deps: Deps = {
    io: runtime.io,
    env: runtime.env,
    clock,
    prompter: runtime.prompter ?? createPrompter(runtime.io),
    signal: runtime.signal ?? new AbortController().signal,
    interruptSignal: runtime.interruptSignal ?? runtime.signal ?? new AbortController().signal,
    globals,
    output() {
      const g = globals();
      const format: OutputFormat = g.json ? 'json' : parseOutputFormat(g.output ?? 'table');
      checkJqFlags(g, format);
      if (g.jq !== undefined && !jq) {
        const expression = g.jq;
        jq = import('./output/jq.js').then(({ compileJq }) => compileJq(expression));
        // awaited before the command runs (Output.prepare); a failure is reported from there
        jq.catch(() => undefined);
      }
      // --columns and --sort may name what the service's own document describes: asked only when a name is not in the records
      const declaredFields = async (operationId: OperationId) => (await import('./api/served-document.js')).declaredFieldsIn(() => deps.servedDocument())(operationId);
      return new Output(runtime.io, { format, columns: parseColumns(g.columns), jq, slurp: g.slurp, declaredFields });
    },
    debug,
    tracer() {
      tracer ??= debug() ? streamTracer(runtime.io.err) : silentTracer;
      return tracer;
    },
    configDir: () => configDirectory(runtime.env),
    keychain() {
      keychain ??= lazyKeychain(runtime.env);
      return keychain;
    },
    config() {
      store ??= openConfigStore(deps.configDir());
      return store;
    },
    async settings() {
      if (deps.startOverride && !deps.override) deps.override = await deps.startOverride();
      const data = (await deps.config()).read();
      const settings = resolveSettings(globals(), runtime.env, data);
      const o = deps.override;
      if (!o) return settings;
      const flag = (value: string | undefined) => ({ value, source: 'flag' as const });
      return {
        ...settings,
        profile: { value: 'sandbox', source: 'flag' },
        base_url: flag(o.baseUrl),
        auth_url: flag(o.authUrl),
        client_id: flag(o.clientId),
        client_secret: flag(o.clientSecret),
        organization_id: settings.organization_id.source === 'flag' ? settings.organization_id : flag(o.organizationId),
      };
    },
    transport() {
      transport ??= (async () => {
        const [{ createTransport }, network] = await Promise.all([import('./request-stack.js'), networkSettings(deps)]);
        return createTransport({ timeoutMs: timeoutMs(globals()), tracer: deps.tracer(), dispatcher: runtime.dispatcher, network, activity: runtime.io.activity });
      })();
      return transport;
    },
    api() {
      api ??= buildApiClient(deps);
      return api;
    },
    servedDocument() {
      served ??= loadServedDocumentFor(deps);
      return served;
    },
    onCleanup(task) {
      cleanups.push(task);
    },
    async cleanup() {
      while (cleanups.length > 0) await cleanups.pop()!();
    },
    derive({ env, signal }, extraGlobals = {}) {
      const alsoOn = (own: AbortSignal) => (signal ? AbortSignal.any([own, signal]) : own);
      return createDeps(
        { ...runtime, clock, env: env ?? runtime.env, signal: alsoOn(deps.signal), interruptSignal: alsoOn(deps.interruptSignal) },
        () => ({ ...globals(), ...extraGlobals }),
      );
    },
  };
  return deps;
}

function checkJqFlags(g: GlobalOptions, format: OutputFormat): void {
  if (g.slurp && g.jq === undefined) throw new UsageError('--slurp only applies with --jq', "for example: --jq 'length' --slurp");
  if (g.jq !== undefined && (format === 'csv' || format === 'wide' || format === 'yaml')) {
    throw new UsageError(`--jq prints JSON values and raw strings, not ${format}`, 'drop -o, or use -o json (indented) or -o ndjson (one line a value)');
  }
}

async function buildApiClient(deps: Deps): Promise<ApiClient> {
  // what a request needs, undici included, loads while the settings and the secret are read
  const modules = Promise.all([import('./auth/secret-store.js'), import('./request-stack.js')]);
  modules.catch(() => undefined);
  const settings = await deps.settings();
  const g = deps.globals();
  const baseUrl = settings.base_url.value;
  if (!baseUrl) {
    throw new UsageError('no base URL configured', 'pass --base-url, set FLEETCTL_BASE_URL, run `fleetctl auth login`, or try `fleetctl --sandbox ...`');
  }
  const clientId = settings.client_id.value;
  const [{ readClientSecret }, { assertSafeForCredentials, ApiClient, CachingTokenSource, operation }] = await modules;
  const profile = (await deps.config()).read().profiles[settings.profile.value];
  const clientSecret = clientId ? await readClientSecret(settings, profile, deps.keychain, deps.signal) : undefined;
  if (!clientId || !clientSecret) {
    throw new AuthError(
      `no ${clientId ? 'client secret' : 'client id'} for profile "${settings.profile.value}"`,
      'run `fleetctl auth login`, or set FLEETCTL_CLIENT_ID and FLEETCTL_CLIENT_SECRET',
    );
  }
  const authUrl = settings.auth_url.value ?? baseUrl;
  assertSafeForCredentials(authUrl, 'the client secret', 'auth_url', Boolean(g.insecure));
  assertSafeForCredentials(baseUrl, 'a bearer token', 'base_url', Boolean(g.insecure));
  const [transport, store] = await Promise.all([deps.transport(), deps.config()]);
  const tokens = new CachingTokenSource(
    { transport, store, clock: deps.clock, tracer: deps.tracer(), retry: retryPolicy(g), signal: deps.signal },
    { profile: settings.profile.value, authUrl, clientId, clientSecret, cacheAs: deps.override?.tokenCacheAs },
  );
  return new ApiClient({
    baseUrl,
    transport,
    tokens,
    clock: deps.clock,
    tracer: deps.tracer(),
    retry: retryPolicy(g),
    signal: deps.signal,
    operation,
    activity: deps.io.activity,
  });
}

/** The document for the profile's base URL; the bundled one, silently, when no usable base URL is configured. */
async function loadServedDocumentFor(deps: Deps): Promise<ServedDocument> {
  const [{ loadServedDocument, bundledDocument }, settings] = await Promise.all([import('./api/served-document.js'), deps.settings()]);
  const baseUrl = settings.base_url.value;
  // no service to ask (a base URL that is no http(s) URL is named by the API client when a request is made)
  if (!baseUrl || !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? '')) return { document: await bundledDocument(), source: 'bundled' };
  const served = await loadServedDocument({ transport: await deps.transport(), clock: deps.clock, configDir: deps.configDir() }, baseUrl);
  if (served.warning) deps.io.warn(served.warning);
  return served;
}

/**
 * The system keychain, its module loaded on the first call (most commands never make one). FLEETCTL_KEYCHAIN=off
 * turns it off: the file is used, as on a machine without one (a keyring that prompts, a shared account, tests).
 */
function lazyKeychain(env: NodeJS.ProcessEnv): Keychain {
  const off = /^(off|0|false|no)$/i.test(env.FLEETCTL_KEYCHAIN ?? '');
  const system = import('./auth/secret-store.js').then(({ systemKeychain, switchedOffKeychain }) => (off ? switchedOffKeychain() : systemKeychain()));
  return {
    get: async (profile) => (await system).get(profile),
    set: async (profile, secret) => (await system).set(profile, secret),
    delete: async (profile) => (await system).delete(profile),
  };
}

/** Proxies from the environment, except for the embedded sandbox on loopback; the CA bundle of the settings. */
async function networkSettings(deps: Deps): Promise<NetworkSettings> {
  const [{ proxyEnvironment, readCaBundle, NO_PROXY }, settings] = await Promise.all([import('./request-stack.js'), deps.settings()]);
  const proxy = deps.globals().sandbox ? NO_PROXY : proxyEnvironment(deps.env);
  const caFile = settings.ca_file;
  if (!caFile.value) return { proxy };
  const origin = caFile.source === 'flag' ? '--ca-file' : caFile.source === 'environment' ? 'FLEETCTL_CA_FILE' : `ca_file of profile "${settings.profile.value}"`;
  return { proxy, extraCa: readCaBundle(caFile.value, origin) };
}

export function timeoutMs(g: GlobalOptions): number {
  return positiveNumber(g.timeout, '--timeout', 30) * 1000;
}

export function retryPolicy(g: GlobalOptions): RetryPolicy {
  const maxRetries = g.maxRetries === undefined ? DEFAULT_RETRY_POLICY.maxRetries : requireWholeNumber(g.maxRetries, '--max-retries');
  const maxRetryWaitMs = positiveNumber(g.maxRetryWait, '--max-retry-wait', DEFAULT_RETRY_POLICY.maxRetryWaitMs / 1000) * 1000;
  return { ...DEFAULT_RETRY_POLICY, maxRetries, maxRetryWaitMs };
}

function positiveNumber(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new UsageError(`${flag} must be a positive number of seconds, got ${quoteInput(value)}`);
  return parsed;
}

export { ApiError };
