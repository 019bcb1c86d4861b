// The webhook section of the status report, read as an outcome (read, or why not) and only then put in words: the
// section's note and whether its scope was granted both follow from the outcome, never from the note's wording.
import type { Deps } from '../../factory.js';
import { ApiError, AuthError } from '../../errors.js';
import { shortScope } from '../../auth/scopes.js';
import { scopeFor } from '../../openapi/operations.js';
import { isUuid } from '../../shared/uuid.js';
import { records } from '../../records/resources.js';
import { WebhookConfigClient } from '../webhook-config/config-client.js';

export interface WebhookSection {
  /** enabled, disabled, none (404: nothing configured), unavailable (could not be read: see note). */
  state: 'enabled' | 'disabled' | 'none' | 'unavailable';
  organization_id: string | null;
  topics: { type: string; is_enabled: boolean | null; url: string | null }[];
  note: string | null;
}

/** Why the configuration could not be read. */
export type WebhookFailure =
  /**
   * No organization named by --organization-id, the fleet of --fleet-id or organization_id: nothing was asked.
   * `fleet`: why the fleet's record gave none (it names none, or could not be read: the service's words).
   */
  | { kind: 'no organization'; fleet?: { namesNone: true } | { unreadable: string } }
  /** The service answered 403: these credentials may not read it. */
  | { kind: 'forbidden'; code?: string }
  /** The issuer gave no token for the scope. */
  | { kind: 'no token'; reason: string }
  /** The service answered some other error: the scope was not what failed. */
  | { kind: 'service error'; status: number; code?: string };

export type WebhookOutcome =
  | { kind: 'read'; section: WebhookSection }
  | { kind: 'unavailable'; organization: string | null; failure: WebhookFailure };

export type ScopeState = 'granted' | 'refused' | 'not asked';

/** The scope the section needs, as the report names it (webhooks_read). */
export const WEBHOOK_SCOPE = shortScope(scopeFor('getWebhookConfig'));

/** What the report is of: --organization-id, or --fleet-id (a fleet belongs to one organization). */
export interface WebhookTarget {
  organizationId?: string;
  fleetId?: string;
}

export async function readWebhooks(deps: Pick<Deps, 'api' | 'settings'>, target: WebhookTarget): Promise<WebhookOutcome> {
  const fleet = target.organizationId === undefined && target.fleetId !== undefined ? await fleetOrganization(deps, target.fleetId) : undefined;
  const configured = (await deps.settings()).organization_id.value;
  const organization = target.organizationId ?? fleet?.organization ?? (configured !== undefined && isUuid(configured) ? configured : undefined);
  if (organization === undefined) {
    const why = fleet === undefined ? {} : { fleet: fleet.unreadable === undefined ? { namesNone: true as const } : { unreadable: fleet.unreadable } };
    return { kind: 'unavailable', organization: null, failure: { kind: 'no organization', ...why } };
  }
  try {
    const found = await new WebhookConfigClient(await deps.api(), organization).readIfExists();
    if (!found) return { kind: 'read', section: { state: 'none', organization_id: organization, topics: [], note: 'no webhook configuration' } };
    const config = found.config as { is_enabled?: unknown; topics?: unknown };
    const topics = (Array.isArray(config.topics) ? config.topics : []).map((t: { type?: unknown; is_enabled?: unknown; delivery?: { url?: unknown } }) => ({
      type: String(t?.type ?? ''),
      is_enabled: typeof t?.is_enabled === 'boolean' ? t.is_enabled : null,
      url: typeof t?.delivery?.url === 'string' ? t.delivery.url : null,
    }));
    return { kind: 'read', section: { state: config.is_enabled === true ? 'enabled' : 'disabled', organization_id: organization, topics, note: null } };
  } catch (error) {
    const failure = failureOf(error);
    if (!failure) throw error;
    return { kind: 'unavailable', organization, failure };
  }
}

/**
 * The organization the fleet's record names, however it names it (records/references.ts): the one whose webhooks
 * a report of the fleet is about, before the profile's organization_id. A fleet that cannot be read leaves the
 * section to the rest, with the reason.
 */
async function fleetOrganization(deps: Pick<Deps, 'api'>, fleetId: string): Promise<{ organization?: string; unreadable?: string }> {
  try {
    const fleet = await (await deps.api()).call('getFleet', { pathParams: { id: fleetId } });
    return { organization: records.fleet.organizationOf(fleet.body) };
  } catch (error) {
    if (error instanceof ApiError) return { unreadable: `HTTP ${error.status}${error.code ? `, ${error.code}` : ''}` };
    if (error instanceof AuthError) return { unreadable: error.message };
    throw error;
  }
}

function failureOf(error: unknown): WebhookFailure | undefined {
  if (error instanceof ApiError && error.status === 403) return { kind: 'forbidden', code: error.code };
  if (error instanceof AuthError) return { kind: 'no token', reason: error.message };
  if (error instanceof ApiError) return { kind: 'service error', status: error.status, code: error.code };
  return undefined;
}

/** The section as the report prints it: an unavailable one says why in its note. */
export function webhookSectionOf(outcome: WebhookOutcome): WebhookSection {
  if (outcome.kind === 'read') return outcome.section;
  return { state: 'unavailable', organization_id: outcome.organization, topics: [], note: failureNote(outcome.failure) };
}

function failureNote(failure: WebhookFailure): string {
  switch (failure.kind) {
    case 'no organization':
      if (failure.fleet === undefined) return 'no organization: pass --organization-id or set organization_id';
      if ('unreadable' in failure.fleet) return `no organization: the fleet could not be read (${failure.fleet.unreadable}); set organization_id`;
      return "no organization: the fleet's record names none; set organization_id";
    case 'forbidden':
      return `not readable with these credentials (HTTP 403${failure.code ? `, ${failure.code}` : ''}): the ${WEBHOOK_SCOPE} scope is needed`;
    case 'no token':
      return `no token for ${WEBHOOK_SCOPE}: ${failure.reason}`;
    case 'service error':
      return `the service answered HTTP ${failure.status}${failure.code ? ` (${failure.code})` : ''}`;
  }
}

/**
 * Whether the section's scope was granted: read, or answered with an error that is not about the scope, it was;
 * a 403 or no token for it, it was refused; with no organization it was never asked for.
 */
export function webhookScopeState(outcome: WebhookOutcome): ScopeState {
  if (outcome.kind === 'read') return 'granted';
  const states: Record<WebhookFailure['kind'], ScopeState> = { 'no organization': 'not asked', forbidden: 'refused', 'no token': 'refused', 'service error': 'granted' };
  return states[outcome.failure.kind];
}
