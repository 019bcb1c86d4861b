// Webhook configuration of the spec's table, with members of this service's own (transport, created_by,
// revision, per-topic added_at and delivery.method), weak ETags compared verbatim, and the spec's write rules.
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { jsonObject, problem, requireUuid } from './http.js';
import { inTenant, type Answer, type Route, type RouteContext } from './routing.js';

export const TOPIC_TYPES = ['events', 'alarms', 'media', 'live_gps', 'journeys'] as const;

interface Topic { type: string; is_enabled: boolean; delivery: { url: string; method: 'POST' }; added_at: string }

export interface StoredConfig {
  org: string;
  is_enabled: boolean;
  transport: 'HttpCallback';
  topics: Topic[];
  created_by: string;
  created_at: string;
  revision: number;
  /** Internal: the key, shown only by the regenerate answer. */
  key: string;
}

export type ConfigStore = Map<string, StoredConfig>;

/** A weak validator in standard base64 ("+", "/", "="): a client must send it back byte for byte. */
function etagOf(config: StoredConfig): string {
  const digest = createHash('sha256').update(`${config.org}:${config.revision}`).digest();
  return `W/"${digest.subarray(0, 7).toString('base64')}"`;
}

function view(config: StoredConfig): Record<string, unknown> {
  const { key, ...shown } = config;
  return { ...shown, auth_key_hint: `…${key.slice(-4)}` };
}

function organization(ctx: RouteContext): string {
  const org = requireUuid(ctx.params.organizationId, '/path/organizationId');
  if (!inTenant(ctx.state, ctx.caller, org)) throw problem(403, 'tenant.outside', `organization ${org} is outside your tenant`, { extra: { organization: org } });
  return org;
}

function existing(ctx: RouteContext, store: ConfigStore): StoredConfig {
  const config = store.get(organization(ctx));
  if (!config) throw problem(404, 'webhook.config_absent', 'this organization has no webhook configuration');
  return config;
}

/** spec: a stale If-Match is 412; once a configuration exists If-Match is required. Compared verbatim. */
function checkIfMatch(ctx: RouteContext, config: StoredConfig): void {
  const given = ctx.headers['if-match'];
  const current = etagOf(config);
  if (given === undefined) throw problem(412, 'webhook.if_match_required', 'send If-Match with the current ETag', { extra: { current_etag: current } });
  if (given !== current) throw problem(412, 'webhook.etag_stale', 'the configuration changed since that ETag', { extra: { sent_etag: given } });
}

/** spec: absolute HTTPS, at most 2048 characters, no literal host in a blocked range (422 webhook.ssrf_blocked). */
function checkUrl(value: unknown, pointer: string): string {
  if (typeof value !== 'string' || !URL.canParse(value) || new URL(value).protocol !== 'https:' || value.length > 2048) {
    throw problem(400, 'webhook.url_invalid', 'the delivery URL must be an absolute https URL of at most 2048 characters', { errors: [{ pointer, reason: 'not an absolute https URL' }] });
  }
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && blocked(host)) throw problem(422, 'webhook.ssrf_blocked', `the delivery host ${host} is in a blocked range`, { errors: [{ pointer, reason: 'blocked address' }] });
  return value;
}

function blocked(host: string): boolean {
  const v4 = host.replace(/^::ffff:/i, '');
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || a === 0;
  }
  const h = host.toLowerCase();
  return h === '::1' || h === '::' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith('::ffff:');
}

function topicFrom(value: unknown, pointer: string, type?: string): Topic {
  if (typeof value !== 'object' || value === null) throw problem(400, 'request.invalid_body', 'a topic is an object', { errors: [{ pointer, reason: 'not an object' }] });
  const t = value as Record<string, unknown>;
  const kind = type ?? t.type;
  if (typeof kind !== 'string' || !(TOPIC_TYPES as readonly string[]).includes(kind)) throw problem(400, 'webhook.topic_type_invalid', `topic type must be one of ${TOPIC_TYPES.join(', ')}`, { errors: [{ pointer: `${pointer}/type`, reason: `got ${String(kind)}` }] });
  const delivery = t.delivery as Record<string, unknown> | undefined;
  const url = checkUrl(delivery?.url, `${pointer}/delivery/url`);
  if (t.is_enabled !== undefined && typeof t.is_enabled !== 'boolean') throw problem(400, 'request.invalid_body', 'is_enabled is true or false', { errors: [{ pointer: `${pointer}/is_enabled`, reason: 'not a boolean' }] });
  return { type: kind, is_enabled: t.is_enabled !== false, delivery: { url, method: 'POST' }, added_at: new Date().toISOString() };
}

function saved(store: ConfigStore, config: StoredConfig, status = 200): Answer {
  config.revision += 1;
  store.set(config.org, config);
  // spec: after a mutation the config is re-read for its new ETag. This service's answers carry an ETag of their
  // own (of the answer's representation, as some gateways tag every answer) that If-Match does not accept
  return { status, body: view(config), headers: { etag: `"answer-${config.revision}"` } };
}

function put(store: ConfigStore) {
  return (ctx: RouteContext): Answer => {
    const org = organization(ctx);
    const body = jsonObject(ctx.body);
    const extra = Object.keys(body).filter((k) => k !== 'is_enabled' && k !== 'topics');
    if (extra.length > 0) throw problem(400, 'request.unknown_member', `unknown member ${extra[0]}`, { errors: extra.map((k) => ({ pointer: `/${k}`, reason: 'not writable' })) });
    if (typeof body.is_enabled !== 'boolean' || !Array.isArray(body.topics)) throw problem(400, 'request.invalid_body', 'is_enabled (boolean) and topics (array) are required', { errors: [{ pointer: '', reason: 'missing is_enabled or topics' }] });
    if (body.topics.length > 25) throw problem(400, 'webhook.too_many_topics', 'at most 25 topics');
    const topics = body.topics.map((t, i) => topicFrom(t, `/topics/${i}`));
    const current = store.get(org);
    if (current) checkIfMatch(ctx, current);
    else if (body.is_enabled) throw problem(422, 'webhook.initial_activation_forbidden', 'a first configuration must be created with is_enabled false');
    const config: StoredConfig = current
      ? { ...current, is_enabled: body.is_enabled, topics }
      : { org, is_enabled: false, transport: 'HttpCallback', topics, created_by: ctx.caller.clientId, created_at: new Date().toISOString(), revision: 0, key: newKey() };
    return saved(store, config, current ? 200 : 201);
  };
}

function patch(store: ConfigStore) {
  return (ctx: RouteContext): Answer => {
    const config = existing(ctx, store);
    const body = jsonObject(ctx.body);
    if (typeof body.is_enabled !== 'boolean' || Object.keys(body).length !== 1) throw problem(400, 'request.invalid_body', 'the body is {"is_enabled": true|false}', { errors: [{ pointer: '/is_enabled', reason: 'required, alone' }] });
    checkIfMatch(ctx, config);
    config.is_enabled = body.is_enabled;
    return saved(store, config);
  };
}

function putTopic(store: ConfigStore) {
  return (ctx: RouteContext): Answer => {
    const config = existing(ctx, store);
    const topic = topicFrom(jsonObject(ctx.body), '', ctx.params.topicType);
    checkIfMatch(ctx, config);
    const others = config.topics.filter((t) => t.type !== topic.type);
    if (others.length >= 25) throw problem(400, 'webhook.too_many_topics', 'at most 25 topics');
    config.topics = [...others, topic];
    return saved(store, config);
  };
}

function deleteTopic(store: ConfigStore) {
  return (ctx: RouteContext): Answer => {
    const config = existing(ctx, store);
    checkIfMatch(ctx, config);
    if (!config.topics.some((t) => t.type === ctx.params.topicType)) throw problem(404, 'webhook.topic_absent', `no topic ${ctx.params.topicType}`);
    if (config.topics.length === 1) throw problem(409, 'webhook.last_topic', 'the last remaining topic cannot be removed; delete the configuration instead');
    config.topics = config.topics.filter((t) => t.type !== ctx.params.topicType);
    saved(store, config);
    return { status: 204 };
  };
}

function newKey(): string {
  return `whk_${randomBytes(18).toString('base64url')}`;
}

export function webhookConfigRoutes(store: ConfigStore): Route[] {
  const base = '/v1/organizations/{organizationId}/webhook-config';
  return [
    { method: 'GET', template: base, scope: 'webhooks_read', handle: (ctx) => { const c = existing(ctx, store); return { status: 200, body: view(c), headers: { etag: etagOf(c) } }; } },
    { method: 'PUT', template: base, scope: 'webhooks_write', handle: put(store) },
    { method: 'PATCH', template: base, scope: 'webhooks_write', handle: patch(store) },
    {
      method: 'DELETE', template: base, scope: 'webhooks_write', handle: (ctx) => {
        const config = existing(ctx, store);
        checkIfMatch(ctx, config);
        store.delete(config.org);
        return { status: 204 };
      },
    },
    {
      method: 'POST', template: `${base}/regenerate-auth-key`, scope: 'webhooks_write', handle: (ctx) => {
        const config = existing(ctx, store);
        // an If-Match is not required here, but a stale one is still refused (spec: a concurrent update can return 412)
        if (ctx.headers['if-match'] !== undefined) checkIfMatch(ctx, config);
        config.key = newKey();
        saved(store, config);
        return { status: 200, body: { auth_key: config.key, rotated_at: new Date().toISOString(), previous_key_valid_for_s: 60 } };
      },
    },
    { method: 'PUT', template: `${base}/topics/{topicType}`, scope: 'webhooks_write', handle: putTopic(store) },
    { method: 'DELETE', template: `${base}/topics/{topicType}`, scope: 'webhooks_write', handle: deleteTopic(store) },
  ];
}
