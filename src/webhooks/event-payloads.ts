// The five webhook event types (spec "Types and payloads"): their topics, camelCase payloads and the
// envelope type. Payload shapes are the document's (v1.json), validated from there (cloudevents.ts).
import type { TopicType } from './callback-url.js';
import type { Schema } from '../openapi/operation-types.js';

export const EVENT_TYPES = ['live.gps', 'journey.closed', 'alarm.triggered', 'event.generic', 'media.ready'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** spec "Types and payloads": the topic each type is delivered under. */
export const TOPIC_OF_EVENT_TYPE: Readonly<Record<EventType, TopicType>> = {
  'live.gps': 'live_gps',
  'journey.closed': 'journeys',
  'alarm.triggered': 'alarms',
  'event.generic': 'events',
  'media.ready': 'media',
};

/** Names of the payload schemas under #/components/schemas of {base_url}/openapi/v1.json. */
export const DATA_SCHEMA_NAMES: Readonly<Record<EventType, string>> = {
  'live.gps': 'LiveGpsData',
  'journey.closed': 'JourneyClosedData',
  'alarm.triggered': 'AlarmTriggeredData',
  'event.generic': 'EventGenericData',
  'media.ready': 'MediaReadyData',
};

export type LiveGpsData = Schema<'LiveGpsData'>;
export type MediaReadyData = Schema<'MediaReadyData'>;

/** The payload of each type, as the document's schemas declare it. */
export interface EventDataByType {
  'live.gps': LiveGpsData;
  'journey.closed': Schema<'JourneyClosedData'>;
  'alarm.triggered': Schema<'AlarmTriggeredData'>;
  'event.generic': Schema<'EventGenericData'>;
  'media.ready': MediaReadyData;
}

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
