// The five webhook event types (spec "Types and payloads"): their topics, camelCase payloads and the
// envelope type. Payload shapes are declared once, in DATA_FIELDS, and validated from there.
import type { TopicType } from './callback-url.js';
import type { FieldKind } from './envelope-checks.js';
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

const POINT: Record<string, FieldKind> = { latitude: 'latitude', longitude: 'longitude', utc: 'dateTime' };

/** Required payload properties and their kinds; extra properties are tolerated (the spec lists are partial). */
export const DATA_FIELDS: Readonly<Record<EventType, Readonly<Record<string, FieldKind>>>> = {
  'live.gps': {
    hardwareId: 'string', latitude: 'latitude', longitude: 'longitude', heading: 'heading', speed: 'nonNegative',
    utc: 'dateTime', invalidGps: 'boolean',
  },
  'journey.closed': {
    journeyId: 'string', hardwareId: 'string', startUtc: 'dateTime', endUtc: 'dateTime',
    startLatitude: 'latitude', startLongitude: 'longitude', endLatitude: 'latitude', endLongitude: 'longitude',
    distanceMeters: 'nonNegative', durationSeconds: 'nonNegativeInteger',
  },
  'alarm.triggered': {
    id: 'string', hardwareId: 'string', triggerOn: 'dateTime', alarmKey: 'string',
    locations: { arrayOf: POINT },
    speedPoints: { arrayOf: { speed: 'nonNegative', utc: 'dateTime' } },
    headingPoints: { arrayOf: { heading: 'heading', utc: 'dateTime' } },
  },
  'event.generic': {
    eventId: 'string', hardwareId: 'string', triggerUtc: 'dateTime', eventTypes: 'stringArray',
    eventCategories: 'stringArray', isAccident: 'boolean', locations: { arrayOf: POINT },
    address: 'nullableString', vehicleId: 'nullableString',
  },
  'media.ready': {
    mediaId: 'string', hardwareId: 'string', fileName: 'string', mimeType: 'string',
    channel: 'nonNegativeInteger', downloadUrl: 'uri',
  },
};

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}
