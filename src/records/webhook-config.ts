// An organization's webhook configuration as the service answers it. Unlike the other records, the spec shows its
// members (the table "Webhook configuration": is_enabled, topics[].type, topics[].is_enabled, topics[].delivery.url,
// auth_key_hint, auth_key once on rotation) and leaves the rest unshown: those it shows are read by their names,
// checked, never trusted to be there; every other member the service sends is kept as sent.
import { InvalidResponseError } from '../errors.js';
import type { Schema } from '../openapi/operation-types.js';

/** A topic as the spec shows it (the bundled document's type names its five kinds), with whatever else the service adds. */
export type WebhookTopic = Schema<'WebhookTopic'>;

/** The members the spec shows; created_at, organization_id and the like are the service's to send or not. */
export type WebhookConfig = Pick<Schema<'WebhookConfig'>, 'is_enabled' | 'topics'> & { auth_key_hint?: string; [member: string]: unknown };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A GET answer read as a configuration: an object whose `is_enabled` is a boolean and whose `topics` is a list of
 * topics (type text, is_enabled a boolean, delivery.url text). A service that leaves out an empty list has no
 * topics. Anything else is not a configuration: said, naming the member, rather than read into one.
 */
export function webhookConfigOf(body: unknown): WebhookConfig {
  const bad = (what: string) => new InvalidResponseError(`the service answered the webhook configuration ${what}`);
  if (!isObject(body)) throw bad('with something that is not an object');
  if (typeof body.is_enabled !== 'boolean') throw bad('without a boolean is_enabled');
  const topics = body.topics ?? [];
  if (!Array.isArray(topics)) throw bad('with topics that is not a list');
  topics.forEach((topic: unknown, i) => {
    const fault = topicFault(topic);
    if (fault !== undefined) throw bad(`with topics[${i}] ${fault}`);
  });
  if (body.auth_key_hint !== undefined && typeof body.auth_key_hint !== 'string') throw bad('with an auth_key_hint that is not text');
  return { ...body, is_enabled: body.is_enabled, topics: topics as WebhookTopic[] };
}

/** What is wrong with a topic as the spec shows it; undefined when nothing is. A type the spec does not list is kept. */
function topicFault(topic: unknown): string | undefined {
  if (!isObject(topic)) return 'not an object';
  if (typeof topic.type !== 'string') return 'without a type';
  if (typeof topic.is_enabled !== 'boolean') return 'without a boolean is_enabled';
  if (!isObject(topic.delivery) || typeof topic.delivery.url !== 'string') return 'without a delivery.url';
  return undefined;
}

/** spec: the rotation's answer "carries auth_key, returned once"; undefined when it does not (the caller says so). */
export function issuedAuthKeyOf(body: unknown): string | undefined {
  const key = isObject(body) ? body.auth_key : undefined;
  return typeof key === 'string' && key !== '' ? key : undefined;
}
