// The webhook configuration state machine (spec: Webhook configuration; States and transitions).
// Optimistic concurrency: every answer carrying the configuration has a strong ETag; once a configuration
// exists, PUT/PATCH/DELETE and topic changes need If-Match (412 precondition.required without it,
// 412 precondition.failed when stale). Checks run in this order: tenant, existence, If-Match, body.
import { notFound, problem } from '../common/problems.js';
import { MAX_TOPICS } from '../../webhooks/index.js';
import { organizationInPath } from './lookup.js';
import { parseConfigBody, parsePatchBody, parseTopicUpsert, tooManyTopics, topicTypeParam } from './webhook-body.js';
import { webhookEtag, webhookView, type StoredWebhookConfig } from '../store/webhook-configs.js';
import type { ApiContext } from '../common/context.js';
import type { Reply } from '../common/reply.js';
import type { ApiRoute, SandboxApp } from '../app.js';
import type { WebhookConfigChangeKind } from '../hooks.js';

const BASE = '/v1/organizations/{organizationId}/webhook-config';

export const webhookConfigRoutes: ApiRoute[] = [
  { method: 'GET', path: BASE, operationId: 'getWebhookConfig', handler: (ctx, app) => configReply(current(ctx, app)) },
  {
    method: 'PUT',
    path: BASE,
    operationId: 'replaceWebhookConfig',
    async handler(ctx, app) {
      const org = organizationInPath(ctx, app);
      const existing = app.webhooks.get(org);
      if (existing) checkIfMatch(ctx, existing, true);
      // no current representation: any If-Match fails (RFC 9110 13.1.1)
      else if (ctx.req.headers['if-match'] !== undefined) throw problem(412, 'precondition.failed', 'No webhook configuration exists yet; omit If-Match to create it.');
      const { isEnabled, topics } = await parseConfigBody(await ctx.jsonBody(), app.allowPrivateWebhooks);
      if (!existing && isEnabled) {
        throw problem(422, 'webhook.initial_activation_forbidden', 'A new webhook configuration must be created with is_enabled false; enable it with PATCH afterwards.');
      }
      const reply = commit(app, existing ? 'replaced' : 'created', app.webhooks.put(org, isEnabled, topics));
      return { ...reply, status: existing ? 200 : 201 };
    },
  },
  {
    method: 'PATCH',
    path: BASE,
    operationId: 'updateWebhookConfig',
    async handler(ctx, app) {
      const config = current(ctx, app);
      checkIfMatch(ctx, config, true);
      const isEnabled = await parsePatchBody(await ctx.jsonBody());
      return commit(app, isEnabled ? 'enabled' : 'disabled', app.webhooks.update(config, { is_enabled: isEnabled }));
    },
  },
  {
    method: 'DELETE',
    path: BASE,
    operationId: 'deleteWebhookConfig',
    handler(ctx, app) {
      const config = current(ctx, app);
      checkIfMatch(ctx, config, true);
      app.webhooks.delete(config.organization_id);
      announce(app, 'deleted', config.organization_id, null);
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    path: `${BASE}/regenerate-auth-key`,
    operationId: 'regenerateWebhookAuthKey',
    handler(ctx, app) {
      const config = current(ctx, app);
      // spec: no precondition needed, but a concurrent update can return 412 (when If-Match is sent)
      checkIfMatch(ctx, config, false);
      const rotated = app.webhooks.rotateKey(config);
      announce(app, 'key_rotated', rotated.organization_id, rotated, config.auth_key);
      // spec: the key is returned once and never retrievable later
      return { status: 200, headers: { etag: webhookEtag(rotated), 'cache-control': 'no-store' }, json: { auth_key: rotated.auth_key } };
    },
  },
  {
    method: 'PUT',
    path: `${BASE}/topics/{topicType}`,
    operationId: 'upsertWebhookTopic',
    async handler(ctx, app) {
      const type = topicTypeParam(ctx.params.topicType!);
      const config = current(ctx, app);
      checkIfMatch(ctx, config, true);
      const topic = await parseTopicUpsert(await ctx.jsonBody(), type, app.allowPrivateWebhooks);
      // contract: upsert replaces the topics of that type with the one given, where the first of them was
      const at = config.topics.findIndex((t) => t.type === type);
      const others = config.topics.filter((t) => t.type !== type);
      const topics = at < 0 ? [...others, topic] : [...others.slice(0, at), topic, ...others.slice(at)];
      if (topics.length > MAX_TOPICS) throw tooManyTopics(topics.length);
      return commit(app, 'topic_upserted', app.webhooks.update(config, { topics }));
    },
  },
  {
    method: 'DELETE',
    path: `${BASE}/topics/{topicType}`,
    operationId: 'deleteWebhookTopic',
    handler(ctx, app) {
      const type = topicTypeParam(ctx.params.topicType!);
      const config = current(ctx, app);
      checkIfMatch(ctx, config, true);
      if (!config.topics.some((t) => t.type === type)) throw notFound(`Topic ${type}`);
      const topics = config.topics.filter((t) => t.type !== type);
      if (topics.length === 0) {
        throw problem(409, 'webhook.last_topic', 'This is the last remaining topic; delete the whole configuration instead.');
      }
      return commit(app, 'topic_removed', app.webhooks.update(config, { topics }));
    },
  },
];

function current(ctx: ApiContext, app: SandboxApp): StoredWebhookConfig {
  const org = organizationInPath(ctx, app);
  const config = app.webhooks.get(org);
  if (!config) throw problem(404, 'webhook_config.not_found', `Organization ${org} has no webhook configuration.`);
  return config;
}

/** RFC 9110 13.1.1 with strong comparison: "*" or a listed tag equal to the current one. */
function checkIfMatch(ctx: ApiContext, config: StoredWebhookConfig, required: boolean): void {
  const header = ctx.req.headers['if-match'];
  if (header === undefined) {
    if (required) throw problem(412, 'precondition.required', 'If-Match is required once a webhook configuration exists; GET it for the current ETag.');
    return;
  }
  const etag = webhookEtag(config);
  const tags = header.split(',').map((t) => t.trim());
  if (!tags.includes('*') && !tags.includes(etag)) {
    throw problem(412, 'precondition.failed', 'The webhook configuration has changed (If-Match does not match its ETag); GET it again.');
  }
}

function configReply(config: StoredWebhookConfig): Reply {
  return { status: 200, headers: { etag: webhookEtag(config) }, json: webhookView(config) };
}

function commit(app: SandboxApp, kind: WebhookConfigChangeKind, config: StoredWebhookConfig): Reply {
  announce(app, kind, config.organization_id, config);
  return configReply(config);
}

function announce(app: SandboxApp, kind: WebhookConfigChangeKind, org: string, config: StoredWebhookConfig | null, previousAuthKey?: string): void {
  app.hooks.webhookConfigChanged({ kind, organizationId: org, config, previousAuthKey, at: app.now() });
}
