import { readFileSync } from 'node:fs';
import { CloudEvent, HTTP } from 'cloudevents';
import validateCloudEventSchema from 'cloudevents/dist/schema/v1.js';
import { describe, expect, it } from 'vitest';
import { TOPIC_TYPES } from '../../src/webhooks/callback-url.js';
import apiDocument from '../../src/openapi/v1.json' with { type: 'json' };
import {
  CLOUDEVENTS_CONTENT_TYPE,
  DATA_SCHEMA_NAMES,
  EVENT_TYPES,
  TOPIC_OF_EVENT_TYPE,
  buildEnvelope,
  dataSchemaUri,
  isEventType,
  sampleEvent,
  validateEnvelope,
} from '../../src/webhooks/cloudevents.js';
import type { EventType, LiveGpsData, MediaReadyData } from '../../src/webhooks/cloudevents.js';

const BASE = 'http://127.0.0.1:4010';
const NOW = new Date('2025-03-04T05:06:07.890Z');
let n = 0;
const newId = (): string => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const sample = <T extends EventType>(type: T) => sampleEvent(type, { baseUrl: BASE, now: () => NOW, newId });

describe('event types and topics', () => {
  it('maps each type to the topic its webhook in the document is delivered under (spec "Types and payloads")', () => {
    const webhooks = Object.entries(apiDocument.webhooks) as [EventType, { post: { 'x-topic': string; description: string; requestBody: unknown } }][];
    expect(TOPIC_OF_EVENT_TYPE).toEqual(Object.fromEntries(webhooks.map(([type, item]) => [type, item.post['x-topic']])));
    // the machine-readable x-topic says what the webhook's prose says
    for (const [type, item] of webhooks) expect(item.post.description).toContain(`each enabled ${TOPIC_OF_EVENT_TYPE[type]} topic`);
    expect(new Set(Object.values(TOPIC_OF_EVENT_TYPE))).toEqual(new Set(TOPIC_TYPES));
    expect(isEventType('media.ready')).toBe(true);
    expect(isEventType('media')).toBe(false);
  });

});

describe.each(EVENT_TYPES)('sampleEvent(%s)', (type) => {
  const event = sample(type);

  it('is a valid CloudEvents 1.0 envelope for the SDK and its JSON schema', () => {
    expect(validateCloudEventSchema(JSON.parse(JSON.stringify(event)))).toBe(true);
    const ce = new CloudEvent(event as never, true);
    expect(ce.validate()).toBe(true);
    const parsed = HTTP.toEvent({
      headers: { 'content-type': CLOUDEVENTS_CONTENT_TYPE },
      body: JSON.stringify(event),
    }) as CloudEvent<unknown>;
    expect(parsed.id).toBe(event.id);
    expect(parsed.type).toBe(type);
    expect(parsed.data).toEqual(event.data);
  });

  it('passes validateEnvelope', () => {
    const result = validateEnvelope(JSON.parse(JSON.stringify(event)));
    expect(result).toEqual({ ok: true, event });
  });

  it('carries the attributes the spec lists', () => {
    expect(event).toMatchObject({
      type, specversion: '1.0', datacontenttype: 'application/json', subject: 'HW-000001',
      source: `${BASE}/v1/devices/HW-000001`,
      dataschema: dataSchemaUri(BASE, type),
    });
    expect(event.data.hardwareId).toBe('HW-000001');
  });

  it('uses fresh ids per call, except for a GPS fix, whose id is its hardware id and time', () => {
    const [a, b] = [sample(type), sample(type)];
    if (type === 'live.gps') expect(a.id).toBe(b.id);
    else expect(a.id).not.toBe(b.id);
  });
});

describe('buildEnvelope', () => {
  const gps: LiveGpsData = {
    hardwareId: 'HW 7/8', latitude: 1, longitude: 2, heading: 3, speed: 4, utc: '2025-01-01T00:00:00Z', invalidGps: true,
  };
  it('derives id, time, source and dataschema as documented', () => {
    expect(buildEnvelope('live.gps', gps, { baseUrl: 'https://api.example.com/' })).toEqual({
      id: 'HW 7/8~2025-01-01T00:00:00Z',
      source: 'https://api.example.com/v1/devices/HW%207%2F8',
      type: 'live.gps',
      specversion: '1.0',
      time: '2025-01-01T00:00:00Z',
      datacontenttype: 'application/json',
      subject: 'HW 7/8',
      dataschema: 'https://api.example.com/openapi/v1.json#/components/schemas/LiveGpsData',
      data: gps,
    });
  });
  it('uses the payload id and device time of each type', () => {
    const alarm = sample('alarm.triggered');
    expect([alarm.id, alarm.time]).toEqual([alarm.data.id, alarm.data.triggerOn]);
    const ev = sample('event.generic');
    expect([ev.id, ev.time]).toEqual([ev.data.eventId, ev.data.triggerUtc]);
    expect(Buffer.from(ev.id, 'base64url').toString()).toMatch(/^HW-000001~[0-9a-f-]{36}$/);
    const journey = sample('journey.closed');
    expect([journey.id, journey.time]).toEqual([journey.data.journeyId, journey.data.endUtc]);
  });
  it('takes the given time for media.ready, whose payload has none', () => {
    const data: MediaReadyData = {
      mediaId: 'm1', hardwareId: 'h', fileName: 'a.jpg', mimeType: 'image/jpeg', channel: 0,
      downloadUrl: 'https://x.example/a',
    };
    expect(buildEnvelope('media.ready', data, { baseUrl: BASE, time: '2025-02-02T02:02:02Z' }).time).toBe('2025-02-02T02:02:02Z');
    expect(buildEnvelope('media.ready', data, { baseUrl: BASE, now: () => NOW }).time).toBe(NOW.toISOString());
    expect(buildEnvelope('media.ready', data, { baseUrl: BASE }).id).toBe('m1');
  });
});

describe('validateEnvelope refuses', () => {
  const good = (): Record<string, unknown> => JSON.parse(JSON.stringify(sample('alarm.triggered')));
  const cases: [string, (e: Record<string, unknown>) => unknown, RegExp][] = [
    ['a non-object', () => [1], /not a JSON object/],
    ['null', () => null, /not a JSON object/],
    ['a missing specversion', (e) => { delete e.specversion; return e; }, /specversion/],
    ['specversion 0.3', (e) => ({ ...e, specversion: '0.3' }), /specversion/],
    ['a missing id', (e) => { delete e.id; return e; }, /^id: /],
    ['an empty id', (e) => ({ ...e, id: '' }), /^id: /],
    ['a numeric id', (e) => ({ ...e, id: 5 }), /^id: /],
    ['a missing source', (e) => { delete e.source; return e; }, /^source: /],
    ['a source with spaces', (e) => ({ ...e, source: 'not a uri' }), /source: must be a valid uri-reference/],
    ['a missing type', (e) => { delete e.type; return e; }, /^type: /],
    ['an unknown type', (e) => ({ ...e, type: 'com.example.other' }), /type: must be one of live.gps/],
    ['an upper-case attribute', (e) => ({ ...e, Extra: 'x' }), /invalid attribute name "Extra"/],
    ['an object extension', (e) => ({ ...e, extra: {} }), /extension attribute extra/],
    ['a bad time', (e) => ({ ...e, time: 'yesterday' }), /time: must be a valid date-time/],
    ['a time without offset', (e) => ({ ...e, time: '2025-01-01T00:00:00' }), /time: must be a valid date-time/],
    ['a day the calendar lacks', (e) => ({ ...e, time: '2026-02-30T00:00:00Z' }), /time: must be a valid date-time/],
    ['an empty subject', (e) => ({ ...e, subject: '' }), /subject: must have at least 1 character/],
    ['a relative dataschema', (e) => ({ ...e, dataschema: '/openapi/v1.json' }), /dataschema: must be a valid uri/],
    ['a non-JSON datacontenttype', (e) => ({ ...e, datacontenttype: 'text/xml' }), /JSON media type/],
    ['data_base64', (e) => ({ ...e, data_base64: 'Zm9v' }), /data_base64/],
    ['missing data', (e) => { delete e.data; return e; }, /^data: /],
    ['string data', (e) => ({ ...e, data: 'x' }), /^data: /],
    ['a missing payload property', (e) => { delete (e.data as Record<string, unknown>).alarmKey; return e; }, /data.alarmKey: is required/],
    ['a snake_case payload', (e) => {
      const d = e.data as Record<string, unknown>;
      d.hardware_id = d.hardwareId; delete d.hardwareId; return e;
    }, /data.hardwareId: is required/],
    ['a bad nested point', (e) => { (e.data as { locations: unknown[] }).locations[1] = { latitude: 95, longitude: 0, utc: '2025-01-01T00:00:00Z' }; return e; }, /data.locations\[1\].latitude: must be <= 90/],
    ['a non-array list', (e) => { (e.data as Record<string, unknown>).speedPoints = {}; return e; }, /data.speedPoints: must be an array/],
  ];
  it.each(cases)('%s', (_name, mutate, reason) => {
    const result = validateEnvelope(mutate(good()));
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });

  it('accepts extension attributes, extra payload properties, and omitted optional attributes', () => {
    const e = good();
    e.traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    e.partitionkey = 7;
    (e.data as Record<string, unknown>).extraProperty = true;
    delete e.time; delete e.subject; delete e.dataschema; delete e.datacontenttype;
    expect(validateEnvelope(e).ok).toBe(true);
    expect(validateEnvelope({ ...good(), datacontenttype: 'application/vnd.fleet+json; charset=utf-8' }).ok).toBe(true);
  });

  it('accepts every RFC 3339 time, a leap second included', () => {
    expect(validateEnvelope({ ...good(), time: '2016-12-31T23:59:60Z' }).ok).toBe(true);
    expect(validateEnvelope({ ...good(), time: '2025-01-01t05:30:00.1234567891+05:30' }).ok).toBe(true);
  });

  it('checks integers and nullable fields of the payload', () => {
    const media = JSON.parse(JSON.stringify(sample('media.ready')));
    media.data.channel = 1.5;
    expect(validateEnvelope(media)).toEqual({ ok: false, reason: 'data.channel: must be an integer' });
    const ev = JSON.parse(JSON.stringify(sample('event.generic')));
    ev.data.vehicleId = null;
    ev.data.address = null;
    expect(validateEnvelope(ev).ok).toBe(true);
    ev.data.eventTypes = ['a', 1];
    expect(validateEnvelope(ev)).toEqual({ ok: false, reason: 'data.eventTypes[1]: must be a string' });
  });
});

describe('agreement with the OpenAPI document (src/openapi/v1.json)', () => {
  type Schema = { required?: string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string; enum?: string[] };
  const doc = JSON.parse(readFileSync(new URL('../../src/openapi/v1.json', import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, Schema> };
  };
  const deref = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!]! : s);

  it('requires the payload properties the spec lists, in camelCase', () => {
    const required = (type: EventType) => doc.components.schemas[DATA_SCHEMA_NAMES[type]]!.required;
    expect(required('live.gps')).toEqual(['hardwareId', 'latitude', 'longitude', 'heading', 'speed', 'utc', 'invalidGps']);
    expect(required('journey.closed')).toEqual(['journeyId', 'hardwareId', 'startUtc', 'endUtc',
      'startLatitude', 'startLongitude', 'endLatitude', 'endLongitude', 'distanceMeters', 'durationSeconds']);
    expect(required('alarm.triggered')).toEqual(['id', 'hardwareId', 'triggerOn', 'alarmKey', 'locations', 'speedPoints', 'headingPoints']);
    expect(required('event.generic')).toEqual(['eventId', 'hardwareId', 'triggerUtc', 'eventTypes',
      'eventCategories', 'isAccident', 'locations', 'address', 'vehicleId']);
    expect(required('media.ready')).toEqual(['mediaId', 'hardwareId', 'fileName', 'mimeType', 'channel', 'downloadUrl']);
  });

  it('lists the same event types and topic types', () => {
    expect(doc.components.schemas.CloudEvent!.properties!.type!.enum).toEqual([...EVENT_TYPES]);
    expect(doc.components.schemas.WebhookTopicType!.enum).toEqual([...TOPIC_TYPES]);
  });
});
