// Request bodies of the webhook-config operations, and the callback URL policy shared with the CLI.
import { checkCallbackUrl, isTopicType, MAX_TOPICS, TOPIC_TYPES, type TopicType } from '../../webhooks/index.js';
import { booleanField, rejectUnknownFields, requireObject, type JsonObject } from '../http/body-schema.js';
import { invalidBody, invalidParameter, problem } from '../http/problems.js';
import type { WebhookTopic } from '../store/webhook-configs.js';

export function topicTypeParam(value: string): TopicType {
  if (!isTopicType(value)) throw invalidParameter('topicType', `must be one of ${TOPIC_TYPES.join(', ')}`);
  return value;
}

export function tooManyTopics(count: number) {
  return problem(422, 'webhook.too_many_topics', `A webhook configuration holds at most ${MAX_TOPICS} topics; this change would make ${count}.`);
}

/** PUT body: {is_enabled, topics}. */
export function parseConfigBody(body: unknown, allowPrivate: boolean): { isEnabled: boolean; topics: WebhookTopic[] } {
  const obj = requireObject(body);
  rejectUnknownFields(obj, ['is_enabled', 'topics']);
  const isEnabled = booleanField(obj, 'is_enabled', true)!;
  const topics = obj.topics;
  if (!Array.isArray(topics)) throw invalidBody('topics', 'must be an array of topics');
  if (topics.length === 0) throw invalidBody('topics', 'must list at least one topic');
  if (topics.length > MAX_TOPICS) throw tooManyTopics(topics.length);
  return { isEnabled, topics: topics.map((t, i) => parseTopic(t, `topics[${i}].`, undefined, allowPrivate)) };
}

/** PATCH body: {is_enabled}. */
export function parsePatchBody(body: unknown): boolean {
  const obj = requireObject(body);
  rejectUnknownFields(obj, ['is_enabled']);
  return booleanField(obj, 'is_enabled', true)!;
}

/**
 * One topic: {type, is_enabled (default true), delivery: {url}}. For PUT /topics/{type} the type comes
 * from the path (`fixedType`) and the body has no type member (WebhookTopicUpsert).
 */
export function parseTopic(value: unknown, where: string, fixedType: TopicType | undefined, allowPrivate: boolean): WebhookTopic {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidBody(where.replace(/\.$/, '') || 'body', 'must be a JSON object');
  const obj = value as JsonObject;
  rejectUnknownFields(obj, fixedType ? ['is_enabled', 'delivery'] : ['type', 'is_enabled', 'delivery'], where);
  let type = fixedType;
  if (type === undefined) {
    if (!isTopicType(obj.type)) throw invalidBody(`${where}type`, `must be one of ${TOPIC_TYPES.join(', ')}`);
    type = obj.type;
  }
  const isEnabled = booleanField(obj, 'is_enabled', false) ?? true;
  const delivery = obj.delivery;
  if (typeof delivery !== 'object' || delivery === null || Array.isArray(delivery)) throw invalidBody(`${where}delivery`, 'must be an object {url}');
  rejectUnknownFields(delivery as JsonObject, ['url'], `${where}delivery.`);
  const url = (delivery as JsonObject).url;
  if (typeof url !== 'string') throw invalidBody(`${where}delivery.url`, 'must be a string');
  // spec: absolute HTTPS, at most 2048 characters; literal private hosts are webhook.ssrf_blocked
  const refused = checkCallbackUrl(url, { allowPrivate });
  if (refused) {
    throw problem(422, refused.code, refused.detail, { invalid_params: [{ name: `${where}delivery.url`, reason: refused.detail }] });
  }
  return { type, is_enabled: isEnabled, delivery: { url } };
}
