// Who may call a scenario's world and who hears from it: its clients (with the seeded four, on base seed)
// and the webhook configurations it starts with, checked as the API would check them.
import { ALL_SCOPES, SCOPE_PREFIX, clientSecret, seedClients, type SandboxClient } from '../auth/clients.js';
import { checkCallbackUrl } from '../../webhooks/index.js';
import { fail, type Scenario } from './scenario.js';
import type { WebhookTopic } from '../store/webhook-configs.js';
import type { WorldStore } from '../world-store.js';

/** What clients and webhooks need of the scenario's names (build.ts's ScenarioRefs): an organization's id. */
type OrganizationRefs = { organization(ref: string, member: string): string };

export interface WebhookSeed {
  organizationId: string;
  isEnabled: boolean;
  topics: WebhookTopic[];
  authKey?: string;
}

export function scenarioClients(scenario: Scenario, world: WorldStore, refs: OrganizationRefs, seed: number): SandboxClient[] {
  const clients = world.orgs ? seedClients(seed, world.orgs) : [];
  (scenario.clients ?? []).forEach((c, i) => {
    const member = `clients[${i}]`;
    if (clients.some((other) => other.client_id === c.client_id)) fail(`${member}.client_id`, `${c.client_id} is another client's id`);
    const scopes = c.scopes.includes('all') ? [...ALL_SCOPES] : [...new Set(c.scopes.map((s) => (s.startsWith(SCOPE_PREFIX) ? s : SCOPE_PREFIX + s)))];
    clients.push({
      client_id: c.client_id,
      client_secret: c.client_secret ?? clientSecret(seed, c.client_id),
      scopes,
      organization_id: refs.organization(c.organization, `${member}.organization`),
    });
  });
  if (clients.length === 0) fail('clients', 'a scenario with base empty needs at least one client, or nobody can call the API');
  return clients;
}

export function scenarioWebhooks(scenario: Scenario, refs: OrganizationRefs, allowPrivate: boolean): WebhookSeed[] {
  const seeds: WebhookSeed[] = [];
  (scenario.webhooks ?? []).forEach((w, i) => {
    const member = `webhooks[${i}]`;
    const organizationId = refs.organization(w.organization, `${member}.organization`);
    if (seeds.some((s) => s.organizationId === organizationId)) fail(`${member}.organization`, 'has a webhook configuration above already (one per organization)');
    const topics = w.topics.map((t, j): WebhookTopic => {
      if (w.topics.findIndex((other) => other.type === t.type) !== j) fail(`${member}.topics[${j}].type`, `${t.type} is listed twice`);
      // the API's write-time rules (spec: Callback URL rules)
      const refused = checkCallbackUrl(t.url, { allowPrivate });
      if (refused) fail(`${member}.topics[${j}].url`, refused.detail);
      return { type: t.type, is_enabled: t.is_enabled ?? true, delivery: { url: t.url } };
    });
    seeds.push({ organizationId, isEnabled: w.is_enabled ?? false, topics, ...(w.auth_key ? { authKey: w.auth_key } : {}) });
  });
  return seeds;
}
