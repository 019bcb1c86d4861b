// What `apply` must do to turn the current configuration into the desired one: the fewest calls, in an
// order the service accepts. diff shows the same list, so what it shows is exactly what apply does.
import { MAX_TOPICS, type TopicType } from '../../webhooks/index.js';
import type { WebhookConfig, WebhookTopic } from './config-client.js';
import type { DesiredState } from './desired.js';

export type Change =
  | { op: 'create'; after: { is_enabled: false; topics: WebhookTopic[] } }
  | { op: 'set_enabled'; before: boolean; after: boolean }
  | { op: 'set_topic'; type: TopicType; before: WebhookTopic[]; after: WebhookTopic }
  | { op: 'remove_topic'; type: TopicType; before: WebhookTopic[] }
  | { op: 'replace_topics'; is_enabled: boolean; before: WebhookTopic[]; after: WebhookTopic[] };

/**
 * Order: switching delivery off comes first and switching it on last, so no event goes to a destination
 * that is about to change; topics are set before others are removed, so the configuration never loses its
 * last topic (409). spec: a new configuration must be created disabled (422 initial_activation_forbidden).
 */
export function planChanges(current: WebhookConfig | undefined, desired: DesiredState): Change[] {
  if (!current) {
    const changes: Change[] = [{ op: 'create', after: { is_enabled: false, topics: desired.topics } }];
    if (desired.is_enabled === true) changes.push({ op: 'set_enabled', before: false, after: true });
    return changes;
  }
  const wanted = desired.is_enabled ?? current.is_enabled;
  const changes: Change[] = [];
  if (current.is_enabled && !wanted) changes.push({ op: 'set_enabled', before: true, after: false });
  changes.push(...topicChanges(current.topics, desired.topics, current.is_enabled && wanted));
  if (!current.is_enabled && wanted) changes.push({ op: 'set_enabled', before: false, after: true });
  return changes;
}

function topicChanges(current: WebhookTopic[], desired: WebhookTopic[], enabledMeanwhile: boolean): Change[] {
  const have = byType(current);
  const want = byType(desired);
  const types = [...new Set([...have.keys(), ...want.keys()])];
  const changed = types.filter((type) => !sameTopics(have.get(type) ?? [], want.get(type) ?? []));
  if (changed.length === 0) return [];
  const sets = changed.filter((type) => want.has(type));
  const removes = changed.filter((type) => !want.has(type));
  // the per-type upsert holds one topic per type, and must not push the count past the limit on the way
  const countAfterSets = types.reduce((n, type) => n + (sets.includes(type) ? 1 : (have.get(type)?.length ?? 0)), 0);
  if (sets.some((type) => want.get(type)!.length > 1) || countAfterSets > MAX_TOPICS) {
    return [{ op: 'replace_topics', is_enabled: enabledMeanwhile, before: current, after: desired }];
  }
  return [
    ...sets.map((type): Change => ({ op: 'set_topic', type, before: have.get(type) ?? [], after: want.get(type)![0]! })),
    ...removes.map((type): Change => ({ op: 'remove_topic', type, before: have.get(type)! })),
  ];
}

/** The topics whose type the changes stop delivering: what `apply` asks about first, as `topics remove` does. */
export function removedTopics(changes: readonly Change[]): WebhookTopic[] {
  return changes.flatMap((change) => {
    if (change.op === 'remove_topic') return change.before;
    if (change.op === 'replace_topics') return change.before.filter((topic) => !change.after.some((kept) => kept.type === topic.type));
    return [];
  });
}

function byType(topics: WebhookTopic[]): Map<TopicType, WebhookTopic[]> {
  const map = new Map<TopicType, WebhookTopic[]>();
  for (const topic of topics) map.set(topic.type, [...(map.get(topic.type) ?? []), topic]);
  return map;
}

function topicKey(topic: WebhookTopic): string {
  return `${topic.type} ${topic.is_enabled} ${topic.delivery.url}`;
}

/** Topics compare as a multiset: order does not matter. */
function sameTopics(a: WebhookTopic[], b: WebhookTopic[]): boolean {
  return a.length === b.length && difference(a, b).length === 0;
}

/** Topics of a that b lacks (as a multiset). */
export function difference(a: WebhookTopic[], b: WebhookTopic[]): WebhookTopic[] {
  const left = b.map(topicKey);
  return a.filter((topic) => {
    const at = left.indexOf(topicKey(topic));
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}
