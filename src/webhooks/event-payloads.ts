// The five webhook event types (spec "Types and payloads"): their topics, camelCase payloads and the
// envelope type. Types, topics, the topic map and the schema names are read off the document (v1.json's webhooks,
// webhook-events.gen.ts); payload shapes are its schemas, validated from there (cloudevents.ts).
import { DATA_SCHEMA_NAMES, EVENT_TYPES, type EventType } from '../openapi/webhook-events.gen.js';
import type { Schema } from '../openapi/operation-types.js';

export { DATA_SCHEMA_NAMES, ENVELOPE_SCHEMA_NAMES, EVENT_TYPES, TOPIC_OF_EVENT_TYPE, type EventType } from '../openapi/webhook-events.gen.js';

export type LiveGpsData = Schema<'LiveGpsData'>;
export type MediaReadyData = Schema<'MediaReadyData'>;

/** The payload of each type, as the document's schemas declare it. */
export type EventDataByType = { [T in EventType]: Schema<(typeof DATA_SCHEMA_NAMES)[T]> };

/** A CloudEvents 1.0 structured-mode envelope as the service sends it. */
export interface WebhookEvent<T extends EventType = EventType> {
  id: string;
  source: string;
  type: T;
  specversion: '1.0';
  time?: string;
  datacontenttype?: string;
  subject?: string;
  dataschema?: string;
  data: EventDataByType[T];
}
/** The union discriminated by `type`, so narrowing on type narrows data. */
export type AnyWebhookEvent = { [K in EventType]: WebhookEvent<K> }[EventType];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}
