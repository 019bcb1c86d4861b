// Builds the dependencies every command receives, once; what is costly (conf, undici, tokens) is built on first
// use. It only wires: the global flags are read in config/global-flags.ts, settings (the --sandbox override
// included) are resolved in config/settings.ts, and the API client is assembled in api/client-from-settings.ts.
import type { IOStreams } from './io/streams.js';
import { systemClock, type Clock } from './io/clock.js';
import { createPrompter, type Prompter } from './io/prompter.js';
import { Output } from './output/render.js';
import type { JqProgram } from './output/jq.js';
import { parseColumns } from './output/values.js';
import { configDirectory, openConfigStore, type ConfigStore } from './config/store.js';
import { resolveSettings, type Settings, type SettingsOverride } from './config/settings.js';
import { debugWanted, outputFormat, timeoutMs, type GlobalOptions } from './config/global-flags.js';
import { silentTracer, streamTracer, type Tracer } from './http/trace.js';
import type { Transport } from './http/transport.js';
import type { Keychain } from './auth/secret-store.js';
import type { ApiClient } from './api/client.js';
import { buildApiClient, lazyKeychain, networkSettings } from './api/client-from-settings.js';
import type { ServedDocument } from './api/served-document.js';
import type { OperationId } from './openapi/operation-types.js';
import type { Dispatcher } from 'undici';
import { createLedger, type Ledger } from './ledger/recorder.js';

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
  /**
   * What `--sandbox` starts on the first need of settings (an embedded sandbox): its endpoints and credentials
   * replace the configured ones. Without it, --sandbox changes nothing.
   */
  startOverride?: (deps: Deps) => Promise<SettingsOverride>;
  /** The command line as given (process.argv): what the audit ledger records of it, redacted. */
  argv?: readonly string[];
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
   * stderr says when it stands in, once; not with `quiet`), fetched on the first call only: record shapes and
   * request rules come from it.
   */
  servedDocument(opts?: { quiet?: boolean }): Promise<ServedDocument>;
  /** True once servedDocument has answered in this process: what it knows then costs no request. */
  servedDocumentAtHand(): boolean;
  /**
   * The audit ledger: a command that changes something says what, and its line is written as the process ends
   * (src/ledger/recorder.ts); a --dry-run says nothing.
   */
  ledger(): Ledger;
  /** Registered by long-lived resources (an embedded sandbox) and run before the process ends. */
  onCleanup(task: () => Promise<void>): void;
  cleanup(): Promise<void>;
  /**
   * Fresh dependencies that also stop on `signal`, read `env` instead, and see extra global flags: completion
   * looks ids up as the line being completed would (its --profile), within a time budget.
   */
  derive(runtime: Partial<Pick<Runtime, 'env' | 'signal'>>, extraGlobals?: GlobalOptions): Deps;
}

export function createDeps(runtime: Runtime, globals: () => GlobalOptions): Deps {
  const debug = () => debugWanted(globals(), runtime.env);
  const clock = runtime.clock ?? systemClock;
  const cleanups: (() => Promise<void>)[] = [];
  let tracer: Tracer | undefined;
  let store: Promise<ConfigStore> | undefined;
  let transport: Promise<Transport> | undefined;
  let api: Promise<ApiClient> | undefined;
  let served: Promise<ServedDocument> | undefined;
  let servedWarned = false;
  let servedLoaded = false;
  let jq: Promise<JqProgram> | undefined;
  let keychain: Keychain | undefined = runtime.keychain;
  let override: Promise<SettingsOverride> | undefined;
  let ledger: Ledger | undefined;
  // started once, on the first need of settings, and only when --sandbox was given
  const sandboxOverride = () => (globals().sandbox && runtime.startOverride ? (override ??= runtime.startOverride(deps)) : undefined);

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
      const format = outputFormat(g);
      if (g.jq !== undefined && !jq) {
        const expression = g.jq;
        jq = import('./output/jq.js').then(({ compileJq }) => compileJq(expression));
        // awaited before the command runs (Output.prepare); a failure is reported from there
        jq.catch(() => undefined);
      }
      // --columns and --sort may name what the service's own document describes: asked only when a name is not in the records
      const declaredFields = async (operationId: OperationId) => (await import('./records/declared-fields.js')).declaredFieldsIn(() => deps.servedDocument())(operationId);
      // --sort orders a member the service's document declares a date-time by instant (quiet: with none, the values decide)
      const declaredTimes = async (operationId: OperationId) => (await import('./records/declared-fields.js')).declaredTimesIn(() => deps.servedDocument({ quiet: true }))(operationId);
      return new Output(runtime.io, { format, columns: parseColumns(g.columns), jq, slurp: g.slurp, declaredFields, declaredTimes });
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
      store ??= openConfigStore(deps.configDir(), { notice: (line) => runtime.io.info(line) });
      return store;
    },
    async settings() {
      const replacing = await sandboxOverride();
      return resolveSettings(globals(), runtime.env, (await deps.config()).read(), replacing);
    },
    transport() {
      transport ??= (async () => {
        const pending = networkSettings(deps.settings(), runtime.env, Boolean(globals().sandbox));
        const [{ createTransport }, network] = await Promise.all([import('./api/request-stack.js'), pending]);
        return createTransport({ timeoutMs: timeoutMs(globals()), tracer: deps.tracer(), dispatcher: runtime.dispatcher, network, activity: runtime.io.activity });
      })();
      return transport;
    },
    api() {
      api ??= buildApiClient(deps);
      return api;
    },
    servedDocument(opts) {
      served ??= loadServedDocumentFor(deps).then((document) => {
        servedLoaded = true;
        return document;
      });
      if (opts?.quiet) return served;
      return served.then((document) => {
        if (document.warning && !servedWarned) deps.io.warn(document.warning);
        servedWarned = true;
        return document;
      });
    },
    servedDocumentAtHand: () => servedLoaded,
    ledger() {
      if (ledger) return ledger;
      const made = createLedger({ env: runtime.env, clock, configDir: deps.configDir, settings: deps.settings, warn: (line) => runtime.io.warn(line), argv: runtime.argv?.slice(2) ?? [] });
      // the last cleanup to run, whenever it was made: the line says how every target ended, an interrupted run's too
      cleanups.unshift(() => made.flush());
      return (ledger = made);
    },
    onCleanup(task) {
      cleanups.push(task);
    },
    async cleanup() {
      while (cleanups.length > 0) await cleanups.pop()!();
    },
    derive({ env, signal }, extraGlobals = {}) {
      const alsoOn = (own: AbortSignal) => (signal ? AbortSignal.any([own, signal]) : own);
      // one embedded sandbox a process: a derived view uses the one this started (its cleanup is registered here)
      const startOverride = runtime.startOverride && (() => sandboxOverride() ?? runtime.startOverride!(deps));
      return createDeps(
        { ...runtime, clock, env: env ?? runtime.env, signal: alsoOn(deps.signal), interruptSignal: alsoOn(deps.interruptSignal), startOverride },
        () => ({ ...globals(), ...extraGlobals }),
      );
    },
  };
  // built once: what a command changes lives in the closures above, never in the members
  return Object.freeze(deps);
}

/**
 * The document for the profile's base URL (its warning, when an older copy stands in, is said by servedDocument);
 * the bundled one, silently, when no usable base URL is configured.
 */
async function loadServedDocumentFor(deps: Deps): Promise<ServedDocument> {
  const [{ loadServedDocument, bundledDocument }, settings] = await Promise.all([import('./api/served-document.js'), deps.settings()]);
  const baseUrl = settings.base_url.value;
  // no service to ask (a base URL that is no http(s) URL is named by the API client when a request is made)
  if (!baseUrl || !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? '')) return { document: await bundledDocument(deps.configDir()), source: 'bundled' };
  return loadServedDocument({ transport: await deps.transport(), clock: deps.clock, configDir: deps.configDir() }, baseUrl);
}
