// Which service a bulk run went to, as its journal records it: the base URL and the client id, never a secret.
// `--resume` goes on only against that service and client (a run begun in the sandbox must not finish in
// production), and `fleetctl status` shows a service's runs apart from another's.
import type { Deps } from '../factory.js';
import type { Settings } from '../config/settings.js';
import { UsageError } from '../errors.js';
import { safeText } from '../shared/terminal-text.js';

export interface RunService {
  base_url: string;
  client_id: string;
  /**
   * The embedded sandbox of `--sandbox`: its port, so its base URL, changes with every process while its world
   * (kept in the config folder) stays the same; it is one service whatever the URL.
   */
  sandbox?: true;
}

/** The service the settings point at; undefined when they name none yet (the API client then says what is missing). */
export function serviceOf(settings: Pick<Settings, 'base_url' | 'client_id'>, sandbox: boolean): RunService | undefined {
  const baseUrl = settings.base_url.value;
  const clientId = settings.client_id.value;
  if (!baseUrl || !clientId) return undefined;
  return { base_url: withoutCredentials(baseUrl), client_id: clientId, ...(sandbox ? { sandbox: true as const } : {}) };
}

/** The service this process sends to (--sandbox: the embedded sandbox). */
export async function currentService(deps: Pick<Deps, 'settings' | 'globals'>): Promise<RunService | undefined> {
  return serviceOf(await deps.settings(), Boolean(deps.globals().sandbox));
}

/** A service as a journal holds it; anything else (an older or edited journal) is no record of one. */
export function recordedService(value: unknown): RunService | undefined {
  const s = value as Partial<RunService> | null | undefined;
  if (typeof s?.base_url !== 'string' || typeof s.client_id !== 'string') return undefined;
  return { base_url: s.base_url, client_id: s.client_id, ...(s.sandbox === true ? { sandbox: true as const } : {}) };
}

export function sameService(a: RunService, b: RunService): boolean {
  if (Boolean(a.sandbox) !== Boolean(b.sandbox) || a.client_id !== b.client_id) return false;
  return a.sandbox === true || comparableUrl(a.base_url) === comparableUrl(b.base_url);
}

/** How messages name a service: `https://api.example.com (client ci-bot)`, `the embedded sandbox (--sandbox, client sandbox-admin)`. */
export function serviceText(s: RunService): string {
  return s.sandbox ? `the embedded sandbox (--sandbox, client ${safeText(s.client_id)})` : `${safeText(s.base_url)} (client ${safeText(s.client_id)})`;
}

/**
 * A resumed run goes on against the service and client it began with: its keys replay there only, and its
 * devices are that service's. A journal without a service (an older fleetctl) is resumed as before.
 */
export function resumedServiceRefusal(runId: string, recorded: unknown, current: RunService | undefined): UsageError | undefined {
  const was = recordedService(recorded);
  if (!was || !current || sameService(was, current)) return undefined;
  return refusal(runId, was, current);
}

function refusal(runId: string, recorded: RunService, current: RunService): UsageError {
  const how = recorded.sandbox
    ? 'add --sandbox, as the run was made'
    : current.sandbox
      ? `drop --sandbox: resume against ${safeText(recorded.base_url)} with the profile of client ${safeText(recorded.client_id)}`
      : `resume with the profile (--profile) or --base-url and credentials of client ${safeText(recorded.client_id)} at ${safeText(recorded.base_url)}`;
  return new UsageError(`run ${runId} was sent to ${serviceText(recorded)}, not to ${serviceText(current)}: it is not resumed elsewhere`, how);
}

/** A URL without user name or password: what a journal or a printed command may hold. */
export function withoutCredentials(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.username === '' && parsed.password === '')) return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href.replace(/\/$/, url.endsWith('/') ? '/' : '');
}

/** Scheme and host in lower case, default port dropped, trailing slashes ignored. */
function comparableUrl(url: string): string {
  const parsed = URL.parse(url);
  return (parsed ? parsed.href : url).replace(/\/+$/, '');
}
