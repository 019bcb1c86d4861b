// The OpenAPI document in detail: parameters, headers, sandbox choices and the webhook CloudEvents.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  dereferencedDocument,
  findOperation,
  operationsOf,
  parameterOf,
  readDocument,
  type DocumentOperation,
  type Json,
} from './document-fixture.js';

const WEBHOOK_CONFIG = '/v1/organizations/{organizationId}/webhook-config';
// Endpoints whose shape the spec leaves not shown (beyond its tables, or "exists as a path").
const SANDBOX_ENDPOINTS = [
  'GET /v1/events/{eventId}/media',
  'GET /v1/fleets',
  'GET /v1/fleets/{id}',
  'GET /v1/organizations',
  'GET /v1/organizations/{organizationId}',
  'GET /v1/organizations/{organizationId}/descendants',
  'GET /v1/vehicles',
  'GET /v1/vehicles/{id}',
  'GET /v1/journeys',
  // Webhook writes whose answer the spec does not show: they return the configuration (PUT: 201 on creation).
  `PUT ${WEBHOOK_CONFIG}`,
  `PATCH ${WEBHOOK_CONFIG}`,
  `PUT ${WEBHOOK_CONFIG}/topics/{topicType}`,
  `DELETE ${WEBHOOK_CONFIG}/topics/{topicType}`,
];
// Records the spec lists as "fields not shown".
const SANDBOX_SCHEMAS = [
  'Device', 'DeviceLastReported', 'DeviceLastPosition', 'DeviceEventSummary', 'EventListItem', 'Event', 'DeviceMedia',
  'Driver', 'CreateDriverCommand', 'UpdateDriverCommand', 'AssignDeviceCommand', 'DeviceCommandResponse', 'Fleet',
  'Vehicle', 'Journey', 'Organization', 'WebhookConfig', 'WebhookTopicUpsert', 'Problem', 'JourneyClosedData',
];
const EVENT_DATA: Record<string, string> = {
  'live.gps': 'LiveGpsData',
  'journey.closed': 'JourneyClosedData',
  'alarm.triggered': 'AlarmTriggeredData',
  'event.generic': 'EventGenericData',
  'media.ready': 'MediaReadyData',
};

const raw = readDocument();
const schemas = raw.components.schemas;
let operations: DocumentOperation[];
beforeAll(async () => {
  operations = operationsOf(await dereferencedDocument());
});
const find = (method: string, path: string) => findOperation(operations, method, path);
const successes = (op: Json) => Object.entries<Json>(op.responses).filter(([status]) => /^2/.test(status));

describe('OpenAPI parameters and headers', () => {
  it('pages exactly the operations answering an envelope, with cursor and limit (int32, 1..500, default 50)', () => {
    const enveloped = operations.filter(({ op }) => op.responses['200']?.content?.['application/json'].schema.properties?.has_more);
    const paged = operations.filter(({ op }) => parameterOf(op, 'limit'));
    expect(paged).toEqual(enveloped);
    expect(paged.length).toBeGreaterThanOrEqual(11);
    for (const { op } of paged) {
      expect(parameterOf(op, 'cursor').schema).toEqual({ type: 'string' });
      expect(parameterOf(op, 'limit').schema).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 500, default: 50 });
    }
  });

  it('types ids as uuids, windows as date-times and arrays as form-exploded', () => {
    for (const { op } of operations) {
      for (const p of op.parameters ?? []) {
        if (['id', 'organizationId', 'organization_id', 'fleet_id', 'vehicle_id'].includes(p.name)) expect(p.schema.format).toBe('uuid');
        if (['date_from', 'date_to'].includes(p.name)) expect(p.schema.format).toBe('date-time');
        if (p.schema.type === 'array') expect(p).toMatchObject({ in: 'query', style: 'form', explode: true });
      }
    }
    const search = find('GET', '/v1/events');
    expect(parameterOf(search, 'fleet_ids').schema.items.format).toBe('uuid');
    expect(parameterOf(search, 'vehicle_ids').schema.items.format).toBe('uuid');
    expect(parameterOf(search, 'event_types').schema.type).toBe('array');
  });

  it.each(['reboot', 'wake-up'])('requires an Idempotency-Key of at most 200 characters on %s', (verb) => {
    const op = find('POST', `/v1/devices/{hardwareId}/commands/${verb}`);
    expect(parameterOf(op, 'Idempotency-Key')).toMatchObject({ in: 'header', required: true, schema: { maxLength: 200 } });
    expect(Object.keys(op.responses)).toContain('202');
  });

  it('takes If-Match on every webhook-config mutation and answers ETag on reads and writes', () => {
    const mutations = operations.filter(({ method, path }) => path.startsWith(WEBHOOK_CONFIG) && method !== 'GET');
    expect(mutations).toHaveLength(6);
    for (const { op } of mutations) expect(parameterOf(op, 'If-Match')).toMatchObject({ in: 'header' });
    for (const [method, path] of [
      ['GET', WEBHOOK_CONFIG],
      ['PUT', WEBHOOK_CONFIG],
      ['PATCH', WEBHOOK_CONFIG],
      ['PUT', `${WEBHOOK_CONFIG}/topics/{topicType}`],
      ['DELETE', `${WEBHOOK_CONFIG}/topics/{topicType}`],
    ]) {
      for (const [status, response] of successes(find(method!, path!))) {
        expect(response.headers?.ETag?.required, `${method} ${path} ${status}`).toBe(true);
      }
    }
  });

  it('answers 201 with a Location header when creating a driver', () => {
    const created = find('POST', '/v1/drivers').responses['201'];
    expect(created.headers.Location.required).toBe(true);
    expect(created.content['application/json'].schema.properties.id.format).toBe('uuid');
  });

  it('sends WWW-Authenticate with 401', () => {
    for (const { op } of operations) expect(op.responses['401'].headers['WWW-Authenticate']).toBeDefined();
  });
});

describe('OpenAPI sandbox choices', () => {
  it.each(SANDBOX_ENDPOINTS)('marks %s as a sandbox choice', (endpoint) => {
    const [method, path] = endpoint.split(' ');
    const op = find(method!, path!);
    expect(op['x-sandbox-choice']).toBe(true);
    expect(op.description).toContain('Sandbox choice');
  });

  it.each(SANDBOX_SCHEMAS)('marks the schema %s as a sandbox choice', (name) => {
    expect(schemas[name]['x-sandbox-choice']).toBe(true);
  });

  it('says so in the description of everything it marks', () => {
    const marked = [...Object.values<Json>(schemas), ...operations.map(({ op }) => op)].filter((x) => x['x-sandbox-choice']);
    for (const item of marked) expect(item.description).toContain('Sandbox choice');
  });
});

describe('OpenAPI webhooks', () => {
  it('describes the CloudEvents envelope', () => {
    expect(schemas.CloudEvent.required).toEqual(['id', 'source', 'type', 'specversion']);
    expect(schemas.CloudEvent.properties.specversion.const).toBe('1.0');
    expect(schemas.CloudEvent.properties.type.enum).toEqual(Object.keys(EVENT_DATA));
  });

  it.each(Object.entries(EVENT_DATA))('delivers %s with the %s payload', (type, dataSchema) => {
    const delivery = raw.webhooks[type].post;
    const envelope = delivery.requestBody.content['application/cloudevents+json'].schema.$ref.split('/').pop();
    const [base, specific] = schemas[envelope].allOf;
    expect(base.$ref).toBe('#/components/schemas/CloudEvent');
    expect(specific.properties.type.const).toBe(type);
    expect(specific.properties.data.$ref).toBe(`#/components/schemas/${dataSchema}`);
    expect(delivery.parameters.map((p: Json) => p.name)).toEqual(expect.arrayContaining(['X-Delivery-Attempt', 'Idempotency-Key']));
    // spec: deliveries are authenticated by the shared key in X-Webhook-Key: a security scheme, not a parameter
    expect(delivery.security).toEqual([{ webhookKey: [] }]);
  });

  it('declares the shared webhook key as an apiKey scheme in the X-Webhook-Key header', () => {
    expect(raw.components.securitySchemes.webhookKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Webhook-Key' });
  });

  it('uses camelCase payload properties, with the journey coordinates the contract names', () => {
    for (const name of Object.values(EVENT_DATA)) {
      for (const property of Object.keys(schemas[name].properties)) expect(property).toMatch(/^[a-z][a-zA-Z]*$/);
    }
    expect(Object.keys(schemas.JourneyClosedData.properties)).toEqual(
      expect.arrayContaining(['startLatitude', 'startLongitude', 'endLatitude', 'endLongitude']),
    );
  });
});
