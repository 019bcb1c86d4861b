// The desired-state file of `webhook-config diff` and `apply`, checked as strictly as the service would.
import { UsageError } from '../../errors.js';
import { readJsonInput } from '../../io/read-input.js';
import { MAX_CALLBACK_URL_LENGTH, MAX_TOPICS, TOPIC_TYPES } from '../../webhooks/index.js';
import type { WebhookTopic } from './config-client.js';
import { requireCallbackUrl, requireTopicType } from './topic-input.js';

export interface DesiredState {
  /** Omitted: leave the delivery switch as it is (a new configuration stays disabled). */
  is_enabled?: boolean;
  topics: WebhookTopic[];
}

export const DESIRED_FORMAT_HELP = `The desired-state file (JSON; - reads stdin):
  {
    "is_enabled": true,
    "topics": [
      {"type": "events", "is_enabled": true, "delivery": {"url": "https://hooks.example.com/fleet"}},
      {"type": "alarms", "delivery": {"url": "https://hooks.example.com/alarms"}}
    ]
  }
  is_enabled   optional: the delivery switch; omitted, it is left as it is (a new configuration stays disabled)
  topics       1 to ${MAX_TOPICS} topics; type is one of ${TOPIC_TYPES.join(', ')} (a type may repeat with other URLs);
               is_enabled defaults to true; delivery.url is an absolute https URL of a public host,
               at most ${MAX_CALLBACK_URL_LENGTH} characters
Topics are compared as a set: their order does not matter.`;

/** Reads and checks `-f FILE` (or stdin for -); `source` names it in messages. */
export async function readDesired(file: string, stdin: NodeJS.ReadableStream, allowPrivate = false, signal?: AbortSignal): Promise<{ desired: DesiredState; source: string }> {
  const source = file === '-' ? 'stdin' : file;
  return { desired: parseDesired(await readJsonInput(file, stdin, '-f', { signal }), source, allowPrivate), source };
}

export function parseDesired(value: unknown, source: string, allowPrivate = false): DesiredState {
  const fail = (what: string) => new UsageError(`${source}: ${what}`, 'see `fleetctl webhook-config apply --help` for the file format');
  const root = objectWithOnly(value, ['is_enabled', 'topics'], 'the document', fail);
  if (root.is_enabled !== undefined && typeof root.is_enabled !== 'boolean') throw fail('is_enabled must be true or false');
  if (!Array.isArray(root.topics)) throw fail('topics must be an array of topics');
  if (root.topics.length === 0) throw fail('topics must list at least one topic (a configuration keeps at least one)');
  if (root.topics.length > MAX_TOPICS) throw fail(`topics lists ${root.topics.length} topics; a configuration holds at most ${MAX_TOPICS}`);
  const topics = root.topics.map((item: unknown, i: number) => parseTopic(item, `topics[${i}]`, fail, allowPrivate));
  const seen = new Map<string, number>();
  topics.forEach((topic, i) => {
    const key = `${topic.type} ${topic.delivery.url}`;
    const first = seen.get(key);
    if (first !== undefined) throw fail(`topics[${i}] repeats topics[${first}] (${key})`);
    seen.set(key, i);
  });
  return root.is_enabled === undefined ? { topics } : { is_enabled: root.is_enabled as boolean, topics };
}

function parseTopic(item: unknown, where: string, fail: (what: string) => UsageError, allowPrivate: boolean): WebhookTopic {
  const topic = objectWithOnly(item, ['type', 'is_enabled', 'delivery'], where, fail);
  if (typeof topic.type !== 'string') throw fail(`${where}.type must be one of ${TOPIC_TYPES.join(', ')}`);
  const type = wrap(() => requireTopicType(topic.type as string, `${where}.type`), fail);
  if (topic.is_enabled !== undefined && typeof topic.is_enabled !== 'boolean') throw fail(`${where}.is_enabled must be true or false`);
  const delivery = objectWithOnly(topic.delivery, ['url'], `${where}.delivery`, fail);
  if (typeof delivery.url !== 'string') throw fail(`${where}.delivery.url must be a string`);
  const url = wrap(() => requireCallbackUrl(delivery.url as string, `${where}.delivery.url`, allowPrivate), fail);
  return { type, is_enabled: topic.is_enabled !== false, delivery: { url } };
}

function objectWithOnly(value: unknown, members: string[], where: string, fail: (what: string) => UsageError): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(`${where} must be a JSON object`);
  const unknown = Object.keys(value).filter((key) => !members.includes(key));
  if (unknown.length > 0) throw fail(`${where} has unknown member(s): ${unknown.join(', ')} (allowed: ${members.join(', ')})`);
  return value as Record<string, unknown>;
}

/** The shared URL and type checks, with the file named in their message. */
function wrap<T>(check: () => T, fail: (what: string) => UsageError): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const failure = fail(error.message);
    failure.hint = error.hint ?? failure.hint;
    throw failure;
  }
}
