// How a configuration is shown: the record with its ETag; in tables one row per topic, in JSON as the API has it.
import type { Output } from '../../output/render.js';
import { viewOf } from '../../output/columns.js';
import { carriedFields, carries } from '../../output/record-fields.js';
import type { Versioned, WebhookTopic } from './config-client.js';

/** The member that carries the ETag header in a printed configuration. */
export const ETAG_MEMBER = 'etag';

/** The configuration with its ETag, as JSON output has it (the key only ever as auth_key_hint). */
export function configRecord(v: Versioned): Record<string, unknown> {
  return { ...v.config, [ETAG_MEMBER]: v.etag };
}

export function topicLabel(topic: WebhookTopic): string {
  return `${topic.type} ${topic.delivery.url}${topic.is_enabled ? '' : ' (disabled)'}`;
}

export async function showConfig(output: Output, v: Versioned): Promise<void> {
  // the record as the API has it wherever whole records are printed
  if (!output.showsColumns) {
    await output.object(configRecord(v));
    return;
  }
  const topics = v.config.topics ?? [];
  const record = { ...configRecord(v), topics: topics.map(topicLabel) };
  // the members fleetctl prefers, as the service sent them, then every other member it sent: none printed empty
  const preferred = viewOf('webhookConfig').script.filter((column) => carries(record, column));
  const columns = [...preferred, ...carriedFields([record]).filter((field) => !preferred.includes(field))].flatMap((column) =>
    column === 'topics' && topics.length > 0 ? topics.map((_, i) => `topics.${i}`) : [column],
  );
  await output.object(record, columns);
}
