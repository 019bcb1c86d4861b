// The webhook CloudEvents envelope (spec "Events"): building envelopes (sandbox deliveries,
// `webhook trigger`) and validating them strictly (`webhook listen`).
import { randomUUID } from 'node:crypto';
import { checkDataShape, isRfc3339, isUri, isUriReference } from './envelope-checks.js';
import { DATA_FIELDS, DATA_SCHEMA_NAMES, isEventType } from './event-payloads.js';
import type { AnyWebhookEvent, EventDataByType, EventType, LiveGpsData, WebhookEvent } from './event-payloads.js';
import { sampleData } from './sample-events.js';
import type { SampleEventOptions } from './sample-events.js';

export * from './event-payloads.js';
export type { SampleEventOptions } from './sample-events.js';

/** spec: "Content type is application/cloudevents+json (CloudEvents 1.0 structured mode)". */
export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json';
export const DATA_CONTENT_TYPE = 'application/json';

// spec: id is the "producer idempotency key (event id, alarm id, or hardware id plus UTC time)";
// time is "device wire time, not processing time" (media.ready carries none in its payload).
const ID_PROPERTY: Readonly<Record<EventType, string | null>> = {
  'live.gps': null, 'journey.closed': 'journeyId', 'alarm.triggered': 'id', 'event.generic': 'eventId',
  'media.ready': 'mediaId',
};
const TIME_PROPERTY: Readonly<Record<EventType, string | null>> = {
  'live.gps': 'utc', 'journey.closed': 'endUtc', 'alarm.triggered': 'triggerOn', 'event.generic': 'triggerUtc',
  'media.ready': null,
};

/** The envelope id: the payload's own id; for a live GPS fix, which has none, `<hardwareId>~<utc>`. */
export function producerEventId<T extends EventType>(type: T, data: EventDataByType[T]): string {
  const fields = data as unknown as Record<string, string>;
  const name = ID_PROPERTY[type];
  return name ? fields[name]! : `${data.hardwareId}~${(data as LiveGpsData).utc}`;
}

export function deviceTimeOf<T extends EventType>(type: T, data: EventDataByType[T]): string | undefined {
  const name = TIME_PROPERTY[type];
  return name ? (data as unknown as Record<string, string>)[name] : undefined;
}

function trimBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

export function dataSchemaUri(baseUrl: string, type: EventType): string {
  return `${trimBase(baseUrl)}/openapi/v1.json#/components/schemas/${DATA_SCHEMA_NAMES[type]}`;
}

export interface BuildEnvelopeOptions {
  /** The API's {base_url}: source and dataschema are built from it. */
  baseUrl: string;
  /** Device wire time when the payload has none (media.ready); defaults to `now`. */
  time?: string;
  now?: () => Date;
}

export function buildEnvelope<T extends EventType>(
  type: T,
  data: EventDataByType[T],
  opts: BuildEnvelopeOptions,
): WebhookEvent<T> {
  const time = deviceTimeOf(type, data) ?? opts.time ?? (opts.now?.() ?? new Date()).toISOString();
  return {
    id: producerEventId(type, data),
    source: `${trimBase(opts.baseUrl)}/v1/devices/${encodeURIComponent(data.hardwareId)}`,
    type,
    specversion: '1.0',
    time,
    datacontenttype: DATA_CONTENT_TYPE,
    subject: data.hardwareId,
    dataschema: dataSchemaUri(opts.baseUrl, type),
    data,
  };
}

export type EnvelopeValidation = { ok: true; event: AnyWebhookEvent } | { ok: false; reason: string };

// CloudEvents 1.0 "Attribute Naming Convention": lower-case ASCII letters and digits only
const ATTRIBUTE_NAME = /^[a-z0-9]+$/;
const CORE_ATTRIBUTES = new Set(['id', 'source', 'type', 'specversion', 'time', 'datacontenttype', 'subject',
  'dataschema', 'data', 'data_base64']);

/** Strict CloudEvents 1.0 structured-mode (JSON format) check of a parsed body, then type and payload. */
export function validateEnvelope(body: unknown): EnvelopeValidation {
  const fail = (reason: string): EnvelopeValidation => ({ ok: false, reason });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('the body is not a JSON object');
  const e = body as Record<string, unknown>;
  if (e.specversion !== '1.0') return fail('specversion must be "1.0"');
  for (const name of ['id', 'source', 'type'] as const) {
    if (typeof e[name] !== 'string' || e[name] === '') return fail(`${name} must be a non-empty string`);
  }
  if (!isUriReference(e.source as string)) return fail('source must be a URI-reference');
  for (const [name, value] of Object.entries(e)) {
    if (CORE_ATTRIBUTES.has(name)) continue;
    if (!ATTRIBUTE_NAME.test(name)) return fail(`invalid attribute name "${name}"`);
    if (value !== null && !['string', 'boolean'].includes(typeof value) && !Number.isInteger(value)) {
      return fail(`extension attribute ${name} must be a string, an integer or a boolean`);
    }
  }
  const optional = checkOptionalAttributes(e);
  if (optional) return fail(optional);
  if (!isEventType(e.type)) return fail(`unknown event type "${e.type as string}"`);
  if ('data_base64' in e) return fail('data_base64 is not expected: the payload is JSON');
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return fail('data must be a JSON object');
  const shape = checkDataShape(e.data as Record<string, unknown>, DATA_FIELDS[e.type], 'data');
  if (shape) return fail(shape);
  return { ok: true, event: e as unknown as AnyWebhookEvent };
}

function checkOptionalAttributes(e: Record<string, unknown>): string | null {
  for (const name of ['time', 'datacontenttype', 'subject', 'dataschema'] as const) {
    if (e[name] === undefined || e[name] === null) continue;
    if (typeof e[name] !== 'string' || e[name] === '') return `${name} must be a non-empty string when present`;
  }
  if (typeof e.time === 'string' && !isRfc3339(e.time)) return 'time must be an RFC 3339 timestamp';
  if (typeof e.dataschema === 'string' && !isUri(e.dataschema)) return 'dataschema must be an absolute URI';
  if (typeof e.datacontenttype === 'string' && !/^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i.test(e.datacontenttype)) {
    return `datacontenttype must be a JSON media type, not "${e.datacontenttype}"`;
  }
  return null;
}

/** A valid envelope of the given type with plausible data and fresh ids, stamped with the current time. */
export function sampleEvent<T extends EventType>(type: T, opts: SampleEventOptions): WebhookEvent<T> {
  const now = opts.now?.() ?? new Date();
  const data = sampleData(type, opts, now, opts.newId ?? randomUUID);
  return buildEnvelope(type, data, { baseUrl: opts.baseUrl, time: now.toISOString() });
}
