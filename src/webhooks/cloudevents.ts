// The webhook CloudEvents envelope (spec "Events"): building envelopes (sandbox deliveries,
// `webhook trigger`) and validating them strictly (`webhook listen`).
import { nodeCrypto } from '../shared/node-crypto.js';
import { describeIssue, issueOf } from '../openapi/schema-check.js';
import * as schemas from '../openapi/validators.gen.js';
import { DATA_SCHEMA_NAMES, ENVELOPE_SCHEMA_NAMES } from './event-payloads.js';
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

// The document's envelope schema of each type (compiled at build time: the listener checks every delivery)
const EVENT_SCHEMAS: Readonly<Record<EventType, (value: unknown) => boolean>> = Object.fromEntries(
  Object.entries(ENVELOPE_SCHEMA_NAMES).map(([type, name]) => [type, schemas[name] as (value: unknown) => boolean]),
) as Record<EventType, (value: unknown) => boolean>;

/**
 * Strict CloudEvents 1.0 structured-mode (JSON format) check of a parsed body: the document's CloudEvent schema,
 * the attribute rules of CloudEvents itself, then the schema of the type with its payload.
 */
export function validateEnvelope(body: unknown): EnvelopeValidation {
  const fail = (reason: string): EnvelopeValidation => ({ ok: false, reason });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('the body is not a JSON object');
  // CloudEvents JSON format: an attribute whose value is null is absent
  const e = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
  const base = issueOf(schemas.CloudEvent, e);
  if (base) return fail(describeIssue(base));
  for (const [name, value] of Object.entries(e)) {
    if (CORE_ATTRIBUTES.has(name)) continue;
    if (!ATTRIBUTE_NAME.test(name)) return fail(`invalid attribute name "${name}"`);
    if (value !== null && !['string', 'boolean'].includes(typeof value) && !Number.isInteger(value)) {
      return fail(`extension attribute ${name} must be a string, an integer or a boolean`);
    }
  }
  if (typeof e.datacontenttype === 'string' && !/^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i.test(e.datacontenttype)) {
    return fail(`datacontenttype must be a JSON media type, not "${e.datacontenttype}"`);
  }
  if ('data_base64' in e) return fail('data_base64 is not expected: the payload is JSON');
  const typed = issueOf(EVENT_SCHEMAS[e.type as EventType], e);
  if (typed) return fail(describeIssue(typed));
  return { ok: true, event: body as AnyWebhookEvent };
}

/** A valid envelope of the given type with plausible data and fresh ids, stamped with the current time. */
export function sampleEvent<T extends EventType>(type: T, opts: SampleEventOptions): WebhookEvent<T> {
  const now = opts.now?.() ?? new Date();
  const data = sampleData(type, opts, now, opts.newId ?? (() => nodeCrypto().randomUUID()));
  return buildEnvelope(type, data, { baseUrl: opts.baseUrl, time: now.toISOString() });
}
