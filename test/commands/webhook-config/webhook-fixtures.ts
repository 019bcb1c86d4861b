// Shared fixtures of the webhook-config unit tests: a configuration and the scripted answers around it.
import type { ScriptedAnswer } from '../fake-deps.js';
import type { Schema } from '../../../src/openapi/operation-types.js';

/** The bundled document's configuration: every member it names present (the service may send fewer). */
type WebhookConfig = Schema<'WebhookConfig'>;

export const ORG = '11111111-1111-4111-8111-111111111111';
export const BASE = `/v1/organizations/${ORG}/webhook-config`;
export const URL_A = 'https://hooks.example.com/fleet';
export const URL_B = 'https://hooks.example.com/alarms';

export function config(over: Partial<WebhookConfig> = {}): WebhookConfig {
  return {
    organization_id: ORG,
    is_enabled: false,
    topics: [{ type: 'events', is_enabled: true, delivery: { url: URL_A } }],
    auth_key_hint: '…x7Qa',
    created_at: '2024-06-01T10:00:00Z',
    updated_at: '2024-06-01T11:00:00Z',
    ...over,
  };
}

export function getAnswer(etag: string, body: unknown = config()): ScriptedAnswer {
  return { method: 'GET', path: BASE, body, headers: { etag } };
}

export const noConfig: ScriptedAnswer = {
  method: 'GET',
  path: BASE,
  status: 404,
  body: { status: 404, code: 'webhook_config.not_found', detail: `Organization ${ORG} has no webhook configuration.` },
};

export function problem(method: string, path: string, status: number, code: string, detail: string): ScriptedAnswer {
  return { method, path, status, body: { status, code, detail } };
}

/** What `get` prints on a pipe: FIELD<TAB>VALUE rows, one per topic. */
export function pipedConfig(etag: string, c: WebhookConfig = config()): string {
  const rows: [string, string][] = [
    ['organization_id', c.organization_id],
    ['is_enabled', String(c.is_enabled)],
    ...c.topics.map((t, i): [string, string] => [`topics.${i}`, `${t.type} ${t.delivery.url}${t.is_enabled ? '' : ' (disabled)'}`]),
    ['auth_key_hint', c.auth_key_hint],
    ['etag', etag],
    ['created_at', c.created_at],
    ['updated_at', c.updated_at],
  ];
  return rows.map(([k, v]) => `${k}\t${v}\n`).join('');
}
