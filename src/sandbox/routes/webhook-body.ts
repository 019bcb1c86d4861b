// Request bodies of the webhook-config operations: their shape from the document, then the callback URL
// policy shared with the CLI. spec: too many topics and a refused URL are 422 with their own codes, not 400.
import { checkCallbackUrl, isCallbackUrlShapeIssue, isTopicType, MAX_TOPICS, TOPIC_TYPES, type TopicType } from '../../webhooks/index.js';
import { API_DOCUMENT, type SchemaIssue } from '../../openapi/schema-check.js';
import { bodyIssue, issueProblem, requireShape } from '../http/body-schema.js';
import { invalidParameter, problem } from '../common/problems.js';
import type { WebhookTopic } from '../store/webhook-configs.js';

interface TopicInput {
  type: TopicType;
  is_enabled?: boolean;
  delivery: { url: string };
}

export function topicTypeParam(value: string): TopicType {
  if (!isTopicType(value)) throw invalidParameter('topicType', `must be one of ${TOPIC_TYPES.join(', ')}`);
  return value;
}

export function tooManyTopics(count: number) {
  return problem(422, 'webhook.too_many_topics', `A webhook configuration holds at most ${MAX_TOPICS} topics; this change would make ${count}.`);
}

/** PUT body (WebhookConfigReplace): {is_enabled, topics}. */
export async function parseConfigBody(body: unknown, allowPrivate: boolean): Promise<{ isEnabled: boolean; topics: WebhookTopic[] }> {
  const topics = (body as { topics?: unknown } | null)?.topics;
  const issue = await bodyIssue(API_DOCUMENT, 'WebhookConfigReplace', body);
  if (issue?.member === 'topics' && issue.keyword === 'maxItems') throw tooManyTopics((topics as unknown[]).length);
  const replace = body as { is_enabled: boolean; topics: TopicInput[] };
  const inputs = Array.isArray(topics) ? (topics as Partial<TopicInput>[]) : [];
  refuseUrls(issue, inputs.map((t, i) => [`topics[${i}].delivery.url`, t?.delivery?.url]), allowPrivate);
  return { isEnabled: replace.is_enabled, topics: replace.topics.map((t) => topicOf(t.type, t)) };
}

/** PATCH body (WebhookConfigPatch): {is_enabled}. */
export async function parsePatchBody(body: unknown): Promise<boolean> {
  return (await requireShape<{ is_enabled: boolean }>(API_DOCUMENT, 'WebhookConfigPatch', body)).is_enabled;
}

/** PUT /topics/{type} body (WebhookTopicUpsert): {is_enabled (default true), delivery: {url}}; the type is the path's. */
export async function parseTopicUpsert(body: unknown, type: TopicType, allowPrivate: boolean): Promise<WebhookTopic> {
  const issue = await bodyIssue(API_DOCUMENT, 'WebhookTopicUpsert', body);
  refuseUrls(issue, [['delivery.url', (body as Partial<TopicInput> | null)?.delivery?.url]], allowPrivate);
  return topicOf(type, body as TopicInput);
}

function topicOf(type: TopicType, input: Omit<TopicInput, 'type'>): WebhookTopic {
  return { type, is_enabled: input.is_enabled ?? true, delivery: { url: input.delivery.url } };
}

/**
 * spec: a URL that is not absolute HTTPS of at most 2048 characters is 422 webhook.invalid_url, a literal private
 * host 422 webhook.ssrf_blocked; the schema's own URL rules (format, maxLength) give way to those answers.
 */
function refuseUrls(issue: SchemaIssue | null, urls: [string, unknown][], allowPrivate: boolean): void {
  if (issue && !isCallbackUrlShapeIssue(issue)) throw issueProblem(issue);
  for (const [name, url] of urls) {
    const refused = typeof url === 'string' ? checkCallbackUrl(url, { allowPrivate }) : null;
    if (refused) throw problem(422, refused.code, refused.detail, { invalid_params: [{ name, reason: refused.detail }] });
  }
  if (issue) throw issueProblem(issue);
}
