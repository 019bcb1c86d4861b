// The API client, built from the resolved settings: the credentials checked (present, and never sent in clear
// to a host that is not loopback), the secret read from where the profile keeps it (keychain, command, file or
// environment), the network chosen (proxies, extra certificate authorities), the token source wired in.
// Everything a request needs is imported on first use: most commands (help, completion, config) never build one.
import { AuthError, UsageError } from '../errors.js';
import { retryPolicy, type GlobalOptions } from '../config/global-flags.js';
import type { Settings } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import type { Keychain } from '../auth/secret-store.js';
import type { Clock } from '../io/clock.js';
import type { Activity } from '../io/spinner.js';
import type { ApiClient } from './client.js';
import type { NetworkSettings } from '../http/dispatcher.js';
import type { Tracer } from '../http/trace.js';
import type { Transport } from '../http/transport.js';
import type { ServedDocument } from './served-document.js';
import type { ParameterStyles } from './parameter-style.js';

/** What building a client reads: the members of the factory's Deps it needs, lazy as they are there. */
export interface ClientSources {
  globals(): GlobalOptions;
  settings(): Promise<Settings>;
  config(): Promise<ConfigStore>;
  keychain(): Keychain;
  transport(): Promise<Transport>;
  tracer(): Tracer;
  clock: Clock;
  signal: AbortSignal;
  io: { activity: Activity };
  /** The service's API document, asked after a 404 whether it has the operation at all (quietly). */
  servedDocument?(opts?: { quiet?: boolean }): Promise<ServedDocument>;
  /** True once that document is loaded in this process. */
  servedDocumentAtHand?(): boolean;
}

export async function buildApiClient(from: ClientSources): Promise<ApiClient> {
  // what a request needs, undici included, loads while the settings and the secret are read (one chunk: request-stack.ts)
  const modules = Promise.all([import('../auth/secret-store.js'), import('./request-stack.js')]);
  modules.catch(() => undefined);
  const settings = await from.settings();
  const g = from.globals();
  const baseUrl = settings.base_url.value;
  if (!baseUrl) {
    throw new UsageError('no base URL configured', 'pass --base-url, set FLEETCTL_BASE_URL, run `fleetctl auth login`, or try `fleetctl --sandbox ...`');
  }
  const clientId = settings.client_id.value;
  const [{ readClientSecret }, { assertSafeForCredentials, ApiClient, CachingTokenSource, operation }] = await modules;
  const profile = (await from.config()).read().profiles[settings.profile.value];
  const clientSecret = clientId ? await readClientSecret(settings, profile, () => from.keychain(), from.signal) : undefined;
  if (!clientId || !clientSecret) {
    throw new AuthError(
      `no ${clientId ? 'client secret' : 'client id'} for profile "${settings.profile.value}"`,
      'run `fleetctl auth login`, or set FLEETCTL_CLIENT_ID and FLEETCTL_CLIENT_SECRET',
    );
  }
  const authUrl = settings.auth_url.value ?? baseUrl;
  assertSafeForCredentials(authUrl, 'the client secret', 'auth_url', Boolean(g.insecure));
  assertSafeForCredentials(baseUrl, 'a bearer token', 'base_url', Boolean(g.insecure));
  const [transport, store] = await Promise.all([from.transport(), from.config()]);
  const tokens = new CachingTokenSource(
    { transport, store, clock: from.clock, tracer: from.tracer(), retry: retryPolicy(g), signal: from.signal },
    { profile: settings.profile.value, authUrl, clientId, clientSecret, cacheAs: settings.tokenCacheAs },
  );
  return new ApiClient({
    baseUrl,
    transport,
    tokens,
    clock: from.clock,
    tracer: from.tracer(),
    retry: retryPolicy(g),
    signal: from.signal,
    operation,
    activity: from.io.activity,
    offers: from.servedDocument && offeredBy(() => from.servedDocument!({ quiet: true })),
    parameterStyles: from.servedDocument && stylesIn(() => from.servedDocument!({ quiet: true })),
    documentAtHand: from.servedDocumentAtHand && (() => from.servedDocumentAtHand!()),
  });
}

/** The style and explode of each query and path parameter of an operation, from the document in use (the bundled one too). */
function stylesIn(servedDocument: () => Promise<ServedDocument>): (method: string, pathTemplate: string) => Promise<ParameterStyles> {
  return async (method, pathTemplate) => {
    const served = await servedDocument();
    const { pathParameterStyles, queryParameterStyles } = await import('../openapi/document-shapes.js');
    return { query: queryParameterStyles(served.document, method, pathTemplate), path: pathParameterStyles(served.document, method, pathTemplate) };
  };
}

/** Whether the service's own document has an operation; undefined when only the bundled one is there. */
function offeredBy(servedDocument: () => Promise<ServedDocument>): (method: string, pathTemplate: string) => Promise<boolean | undefined> {
  return async (method, pathTemplate) => {
    const served = await servedDocument();
    if (served.source === 'bundled') return undefined;
    const { findOperation } = await import('../openapi/document-shapes.js');
    return findOperation(served.document, method.toLowerCase(), pathTemplate) !== undefined;
  };
}

/**
 * The system keychain, its module loaded on the first call (most commands never make one). FLEETCTL_KEYCHAIN=off
 * turns it off: the file is used, as on a machine without one (a keyring that prompts, a shared account, tests).
 */
export function lazyKeychain(env: NodeJS.ProcessEnv): Keychain {
  const off = /^(off|0|false|no)$/i.test(env.FLEETCTL_KEYCHAIN ?? '');
  const system = import('../auth/secret-store.js').then(({ systemKeychain, switchedOffKeychain }) => (off ? switchedOffKeychain() : systemKeychain()));
  return {
    get: async (profile) => (await system).get(profile),
    set: async (profile, secret) => (await system).set(profile, secret),
    delete: async (profile) => (await system).delete(profile),
  };
}

/**
 * Proxies from the environment, except for the embedded sandbox on loopback; the CA bundle of the settings
 * (given as a promise: the dispatcher module loads while they are read).
 */
export async function networkSettings(pending: Promise<Settings>, env: NodeJS.ProcessEnv, embeddedSandbox: boolean): Promise<NetworkSettings> {
  const [{ proxyEnvironment, readCaBundle, NO_PROXY }, settings] = await Promise.all([import('./request-stack.js'), pending]);
  const proxy = embeddedSandbox ? NO_PROXY : proxyEnvironment(env);
  const caFile = settings.ca_file;
  if (!caFile.value) return { proxy };
  const origin = caFile.source === 'flag' ? '--ca-file' : caFile.source === 'environment' ? 'FLEETCTL_CA_FILE' : `ca_file of profile "${settings.profile.value}"`;
  return { proxy, extraCa: await readCaBundle(caFile.value, origin) };
}
