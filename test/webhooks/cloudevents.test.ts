import { readFileSync } from 'node:fs';
import { CloudEvent, HTTP } from 'cloudevents';
import validateCloudEventSchema from 'cloudevents/dist/schema/v1.js';
import { describe, expect, it } from 'vitest';
import { TOPIC_TYPES } from '../../src/webhooks/callback-url.js';
import {
  CLOUDEVENTS_CONTENT_TYPE,
  DATA_FIELDS,
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
  it('maps each of the five types to its topic (spec "Types and payloads")', () => {
    expect(TOPIC_OF_EVENT_TYPE).toEqual({
      'live.gps': 'live_gps', 'journey.closed': 'journeys', 'alarm.triggered': 'alarms',
      'event.generic': 'events', 'media.ready': 'media',
    });
    expect(new Set(Object.values(TOPIC_OF_EVENT_TYPE))).toEqual(new Set(TOPIC_TYPES));
    expect(isEventType('media.ready')).toBe(true);
    expect(isEventType('media')).toBe(false);
  });

  it('declares the payload properties the spec lists, in camelCase', () => {
    expect(Object.keys(DATA_FIELDS['live.gps'])).toEqual(
      ['hardwareId', 'latitude', 'longitude', 'heading', 'speed', 'utc', 'invalidGps']);
    expect(Object.keys(DATA_FIELDS['journey.closed'])).toEqual(['journeyId', 'hardwareId', 'startUtc', 'endUtc',
      'startLatitude', 'startLongitude', 'endLatitude', 'endLongitude', 'distanceMeters', 'durationSeconds']);
    expect(Object.keys(DATA_FIELDS['alarm.triggered'])).toEqual(
      ['id', 'hardwareId', 'triggerOn', 'alarmKey', 'locations', 'speedPoints', 'headingPoints']);
    expect(Object.keys(DATA_FIELDS['event.generic'])).toEqual(['eventId', 'hardwareId', 'triggerUtc', 'eventTypes',
      'eventCategories', 'isAccident', 'locations', 'address', 'vehicleId']);
    expect(Object.keys(DATA_FIELDS['media.ready'])).toEqual(
      ['mediaId', 'hardwareId', 'fileName', 'mimeType', 'channel', 'downloadUrl']);
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
    ['a missing id', (e) => { delete e.id; return e; }, /id must be/],
    ['an empty id', (e) => ({ ...e, id: '' }), /id must be/],
    ['a numeric id', (e) => ({ ...e, id: 5 }), /id must be/],
    ['a missing source', (e) => { delete e.source; return e; }, /source must be/],
    ['a source with spaces', (e) => ({ ...e, source: 'not a uri' }), /URI-reference/],
    ['a missing type', (e) => { delete e.type; return e; }, /type must be/],
    ['an unknown type', (e) => ({ ...e, type: 'com.example.other' }), /unknown event type/],
    ['an upper-case attribute', (e) => ({ ...e, Extra: 'x' }), /invalid attribute name "Extra"/],
    ['an object extension', (e) => ({ ...e, extra: {} }), /extension attribute extra/],
    ['a bad time', (e) => ({ ...e, time: 'yesterday' }), /time must be an RFC 3339/],
    ['a time without offset', (e) => ({ ...e, time: '2025-01-01T00:00:00' }), /time must be an RFC 3339/],
    ['a day the calendar lacks', (e) => ({ ...e, time: '2026-02-30T00:00:00Z' }), /time must be an RFC 3339/],
    ['an empty subject', (e) => ({ ...e, subject: '' }), /subject must be a non-empty string/],
    ['a relative dataschema', (e) => ({ ...e, dataschema: '/openapi/v1.json' }), /dataschema must be an absolute URI/],
    ['a non-JSON datacontenttype', (e) => ({ ...e, datacontenttype: 'text/xml' }), /JSON media type/],
    ['data_base64', (e) => ({ ...e, data_base64: 'Zm9v' }), /data_base64/],
    ['missing data', (e) => { delete e.data; return e; }, /data must be a JSON object/],
    ['string data', (e) => ({ ...e, data: 'x' }), /data must be a JSON object/],
    ['a missing payload property', (e) => { delete (e.data as Record<string, unknown>).alarmKey; return e; }, /data.alarmKey is missing/],
    ['a snake_case payload', (e) => {
      const d = e.data as Record<string, unknown>;
      d.hardware_id = d.hardwareId; delete d.hardwareId; return e;
    }, /data.hardwareId is missing/],
    ['a bad nested point', (e) => { (e.data as { locations: unknown[] }).locations[1] = { latitude: 95, longitude: 0, utc: '2025-01-01T00:00:00Z' }; return e; }, /data.locations\[1\].latitude must be a latitude/],
    ['a non-array list', (e) => { (e.data as Record<string, unknown>).speedPoints = {}; return e; }, /data.speedPoints must be an array/],
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
    expect(validateEnvelope(media)).toEqual({ ok: false, reason: 'data.channel must be an integer ≥ 0' });
    const ev = JSON.parse(JSON.stringify(sample('event.generic')));
    ev.data.vehicleId = null;
    ev.data.address = null;
    expect(validateEnvelope(ev).ok).toBe(true);
    ev.data.eventTypes = ['a', 1];
    expect(validateEnvelope(ev)).toEqual({ ok: false, reason: 'data.eventTypes must be an array of strings' });
  });
});

describe('agreement with the OpenAPI document (src/openapi/v1.json)', () => {
  type Schema = { required?: string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string; enum?: string[] };
  const doc = JSON.parse(readFileSync(new URL('../../src/openapi/v1.json', import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, Schema> };
  };
  const deref = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!]! : s);

  it.each(EVENT_TYPES)('%s: the payload schema names the same required properties', (type) => {
    const schema = doc.components.schemas[DATA_SCHEMA_NAMES[type]];
    expect(schema, `schema ${DATA_SCHEMA_NAMES[type]}`).toBeDefined();
    expect(new Set(schema!.required)).toEqual(new Set(Object.keys(DATA_FIELDS[type])));
    for (const [name, kind] of Object.entries(DATA_FIELDS[type])) {
      if (typeof kind === 'string') continue;
      const items = deref(deref(schema!.properties![name]!).items!);
      expect(new Set(items.required), `${type} ${name}[]`).toEqual(new Set(Object.keys(kind.arrayOf)));
    }
  });

  it('lists the same event types and topic types', () => {
    expect(doc.components.schemas.CloudEvent!.properties!.type!.enum).toEqual([...EVENT_TYPES]);
    expect(doc.components.schemas.WebhookTopicType!.enum).toEqual([...TOPIC_TYPES]);
  });
});
