// The second service's own OpenAPI 3.1.1 document, served at {base_url}/openapi/v1.json: the spec's paths,
// scopes, envelopes and parameters, with this service's record schemas (its own field names). It is written in
// the forms OpenAPI generators write (DocumentForms: nullable three ways, allOf wrappers around referenced bases,
// $ref chains, referenced parameters, bodies, responses and path items), each form switched on its own so that a
// test can serve the same API written another way.
import type { Route } from './routing.js';
import { SCOPE_PREFIX } from './routing.js';
import { TOPIC_TYPES } from './webhook-config.js';

/** How the document is written; every form describes the same API. */
export interface DocumentForms {
  /** How "T or null" is written: an anyOf or a oneOf with {type: null}, 3.0's nullable: true, 3.1's type list, or the first three in turn. */
  nullable: 'anyOf' | 'oneOf' | 'nullable-true' | 'type-list' | 'mixed';
  /** Device, Driver and the assign command as an allOf of a referenced base and their own members. */
  allOfWrappers: boolean;
  /** Ids reached through a chain of $refs; parameters, request bodies, answers and path items by $ref. */
  references: boolean;
}

/** As generators write a document: every form on. */
export const GENERATED_FORMS: DocumentForms = { nullable: 'mixed', allOfWrappers: true, references: true };
/** Plain: every schema inline in its operation's place, nullable as a oneOf. */
export const PLAIN_FORMS: DocumentForms = { nullable: 'oneOf', allOfWrappers: false, references: false };

const str = { type: 'string' };
const uuid = { type: 'string', format: 'uuid' };
const time = { type: 'string', format: 'date-time' };
const MIXED = ['anyOf', 'nullable-true', 'type-list'] as const;
let nullableTurn = 0;
let forms: DocumentForms = GENERATED_FORMS;
/** "schema, or null", in the form the document is written in. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const form = forms.nullable === 'mixed' ? MIXED[nullableTurn++ % MIXED.length]! : forms.nullable;
  if (form === 'anyOf' || form === 'oneOf' || schema.type === undefined) return { [form === 'anyOf' ? 'anyOf' : 'oneOf']: [schema, { type: 'null' }] };
  return form === 'nullable-true' ? { ...schema, nullable: true } : { ...schema, type: [schema.type, 'null'] };
}
/** An id: through a chain of two $refs (VehicleRef → Id → Uuid) when references are on. */
const idRef = (name: string) => (forms.references ? ref(name) : uuid);
/** A record as an allOf of a referenced base (its first `split` members) and its own members, when wrappers are on. */
function wrapped(name: string, properties: Record<string, unknown>, split: number, schemas: Record<string, unknown>): unknown {
  if (!forms.allOfWrappers) return obj(properties);
  const names = Object.keys(properties);
  const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, properties[k]]));
  schemas[`${name}Base`] = { type: 'object', properties: pick(names.slice(0, split)), required: names.slice(0, split) };
  return { allOf: [ref(`${name}Base`), { type: 'object', properties: pick(names.slice(split)), required: names.slice(split) }] };
}
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const envelope = (item: string) => obj({ data: { type: 'array', items: ref(item) }, next_cursor: nullable(str), has_more: { type: 'boolean' } });

function documentSchemas(): Record<string, unknown> {
  const SCHEMAS: Record<string, unknown> = {
    Uuid: uuid,
    Id: { $ref: '#/components/schemas/Uuid' },
    VehicleRef: { $ref: '#/components/schemas/Id', description: 'the vehicle, by its id' },
    Problem: {
      type: 'object',
      required: ['code'],
      properties: { type: str, title: str, status: { type: 'integer' }, code: str, detail: str, instance: str, trace_id: str, errors: { type: 'array', items: obj({ pointer: str, reason: str }) } },
    },
    Fleet: obj({ id: uuid, title: str, org: uuid, unit_total: { type: 'integer' }, opened_on: { type: 'string', format: 'date' }, region: obj({ code: str, tz: str }) }),
    Device: undefined,
    AssignCommand: forms.allOfWrappers
      ? { allOf: [ref('AssignTarget'), { type: 'object', required: ['vehicleId'], description: 'the vehicle to put the device on' }] }
      : obj({ vehicleId: uuid }),
    AssignTarget: { type: 'object', properties: { vehicleId: idRef('VehicleRef') } },
    CommandReceipt: obj({ command_ref: uuid, hw: str, action: { enum: ['reboot', 'wake_up'] }, state: str, queued_at: time, replay_key: str }),
    DeviceEventBrief: obj({ ref: str, id: { type: 'integer' }, kinds: { type: 'array', items: str }, occurred_at: time, crash: { type: 'boolean' }, flagged: { type: 'boolean' } }),
    EventHit: obj({ ref: str, id: { type: 'integer' }, device_hw: str, kinds: { type: 'array', items: str }, groups: { type: 'array', items: str }, occurred_at: time, crash: { type: 'boolean' }, flagged: { type: 'boolean' }, fleet_ref: uuid, vehicle_ref: nullable(uuid) }),
    EventDetail: obj({
      ref: str, id: { type: 'integer' }, device_hw: str, kinds: { type: 'array', items: str }, groups: { type: 'array', items: str }, occurred_at: time, crash: { type: 'boolean' }, flagged: { type: 'boolean' },
      fleet_ref: uuid, vehicle_ref: nullable(uuid), place: obj({ line: str, city: str }), track: { type: 'array', items: obj({ lat: { type: 'number' }, lon: { type: 'number' }, at: time }) },
      velocity_kmh: { type: 'number' }, attachments: { type: 'array', items: str },
    }),
    MediaItem: obj({ media_ref: str, hw: str, kind: str, camera: str, bytes: { type: 'integer' }, captured_at: time, signed_url: obj({ href: { type: 'string', format: 'uri' }, valid_until: time }) }),
    Telemetry: obj({ hw: str, observed_at: time, ignition: { enum: ['on', 'off'] }, odo_m: { type: 'integer' }, battery_mv: { type: 'integer' }, speed: obj({ value: { type: 'number' }, unit: str }), coords: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } }),
    PositionFix: obj({ hw: str, fix: obj({ lat: { type: 'number' }, lon: { type: 'number' } }), bearing_deg: { type: 'number' }, kmh: { type: 'number' }, fixed_at: time, valid: { type: 'boolean' } }),
    Driver: undefined,
    NewDriver: obj(
      { organization_id: uuid, fleet_id: uuid, given_name: { type: 'string', minLength: 1, maxLength: 200 }, family_name: { type: 'string', minLength: 1, maxLength: 200 }, contact: obj({ mail: nullable(str), tel: nullable(str) }, []), badge: str, employee_id: nullable(str) },
      ['organization_id', 'fleet_id', 'given_name', 'family_name'],
    ),
    DriverChange: obj({ given_name: { type: 'string', minLength: 1, maxLength: 200 }, family_name: { type: 'string', minLength: 1, maxLength: 200 }, contact: obj({ mail: nullable(str), tel: nullable(str) }, []), badge: nullable(str), employee_id: nullable(str), active: { type: 'boolean' }, fleet_id: uuid }, []),
    HookTopic: obj({ type: { enum: [...TOPIC_TYPES] }, is_enabled: { type: 'boolean' }, delivery: obj({ url: { type: 'string', format: 'uri', maxLength: 2048 }, method: { const: 'POST' } }), added_at: time }),
    HookTopicInput: obj({ type: { enum: [...TOPIC_TYPES] }, is_enabled: { type: 'boolean' }, delivery: obj({ url: { type: 'string', format: 'uri', maxLength: 2048 } }) }, ['type', 'delivery']),
    HookConfig: obj({
      org: uuid, is_enabled: { type: 'boolean' }, transport: { const: 'HttpCallback' }, topics: { type: 'array', maxItems: 25, items: ref('HookTopic') },
      created_by: str, created_at: time, revision: { type: 'integer' }, auth_key_hint: str,
    }),
    HookConfigReplace: obj({ is_enabled: { type: 'boolean' }, topics: { type: 'array', maxItems: 25, items: ref('HookTopicInput') } }),
    HookSwitch: obj({ is_enabled: { type: 'boolean' } }),
    HookTopicUpsert: obj({ is_enabled: { type: 'boolean' }, delivery: obj({ url: { type: 'string', format: 'uri', maxLength: 2048 } }) }, ['delivery']),
    HookKey: obj({ auth_key: str, rotated_at: time, previous_key_valid_for_s: { type: 'integer' } }),
    JourneyClosedPayload: obj({ journeyId: str, hardwareId: str, startUtc: time, endUtc: time, startLat: { type: 'number' }, startLng: { type: 'number' }, endLat: { type: 'number' }, endLng: { type: 'number' }, distanceMeters: { type: 'number' }, durationSeconds: { type: 'number' } }, ['journeyId', 'hardwareId']),
  };
  SCHEMAS.Device = wrapped('Device', {
    id: uuid, hardware_id: str, serial: str, label: str, firmware: obj({ version: str, channel: str }), vehicle_ref: nullable(uuid),
    fleet_ref: uuid, tenant_ref: uuid, reported_at: nullable(time), enrolled_on: { type: 'string', format: 'date' }, power_source: str,
  }, 2, SCHEMAS);
  SCHEMAS.Driver = wrapped('Driver', {
    id: uuid, given_name: str, family_name: str, contact: obj({ mail: nullable({ type: 'string', format: 'email', maxLength: 320 }), tel: nullable({ type: 'string', maxLength: 40 }) }),
    org: uuid, fleet_ref: uuid, badge: nullable(str), employee_id: nullable(str), active: { type: 'boolean' }, registered_at: nullable(time), revised_at: time,
  }, 4, SCHEMAS);
  for (const item of ['Device', 'Fleet', 'Driver', 'DeviceEventBrief', 'EventHit', 'MediaItem']) SCHEMAS[`${item}Page`] = envelope(item);
  return SCHEMAS;
}

/** Per operation: its id, the schema of its success answer, and of its request body. */
const SHAPES: Record<string, { id: string; answer?: string; request?: string }> = {
  'GET /v1/devices': { id: 'devicesIndex', answer: 'DevicePage' },
  'GET /v1/devices/{id}': { id: 'deviceShow', answer: 'Device' },
  'PUT /v1/devices/{id}/assignment': { id: 'deviceAttach', answer: 'Device', request: 'AssignCommand' },
  'DELETE /v1/devices/{id}/assignment': { id: 'deviceDetach' },
  'POST /v1/devices/{hardwareId}/commands/reboot': { id: 'deviceRebootIssue', answer: 'CommandReceipt' },
  'POST /v1/devices/{hardwareId}/commands/wake-up': { id: 'deviceWakeIssue', answer: 'CommandReceipt' },
  'GET /v1/devices/{hardwareId}/events': { id: 'deviceEventsIndex', answer: 'DeviceEventBriefPage' },
  'GET /v1/devices/{hardwareId}/last-reported': { id: 'deviceTelemetryShow', answer: 'Telemetry' },
  'GET /v1/devices/{hardwareId}/media': { id: 'deviceMediaIndex', answer: 'MediaItemPage' },
  'GET /v1/devices/{hardwareId}/last-position': { id: 'devicePositionShow', answer: 'PositionFix' },
  'GET /v1/fleets': { id: 'fleetsIndex', answer: 'FleetPage' },
  'GET /v1/fleets/{id}': { id: 'fleetShow', answer: 'Fleet' },
  'GET /v1/drivers': { id: 'driversIndex', answer: 'DriverPage' },
  'POST /v1/drivers': { id: 'driverRegister', answer: 'Driver', request: 'NewDriver' },
  'GET /v1/drivers/{id}': { id: 'driverShow', answer: 'Driver' },
  'PUT /v1/drivers/{id}': { id: 'driverRevise', answer: 'Driver', request: 'DriverChange' },
  'GET /v1/events': { id: 'eventsFind', answer: 'EventHitPage' },
  'GET /v1/events/{eventId}': { id: 'eventShow', answer: 'EventDetail' },
  'GET /v1/events/{eventId}/media': { id: 'eventMediaIndex', answer: 'MediaItemPage' },
};
const HOOK = '/v1/organizations/{organizationId}/webhook-config';
Object.assign(SHAPES, {
  [`GET ${HOOK}`]: { id: 'hookShow', answer: 'HookConfig' },
  [`PUT ${HOOK}`]: { id: 'hookReplace', answer: 'HookConfig', request: 'HookConfigReplace' },
  [`PATCH ${HOOK}`]: { id: 'hookSwitch', answer: 'HookConfig', request: 'HookSwitch' },
  [`DELETE ${HOOK}`]: { id: 'hookRemove' },
  [`POST ${HOOK}/regenerate-auth-key`]: { id: 'hookRotateKey', answer: 'HookKey' },
  [`PUT ${HOOK}/topics/{topicType}`]: { id: 'hookTopicPut', answer: 'HookConfig', request: 'HookTopicUpsert' },
  [`DELETE ${HOOK}/topics/{topicType}`]: { id: 'hookTopicRemove' },
});

const QUERY: Record<string, string[]> = {
  'GET /v1/devices': ['organization_id', 'fleet_id', 'hardware_id'],
  'GET /v1/devices/{hardwareId}/events': ['date_from', 'date_to', 'event_types', 'is_accident', 'is_important'],
  'GET /v1/devices/{hardwareId}/media': ['date_from', 'date_to'],
  'GET /v1/drivers': ['organization_id', 'fleet_id'],
  'GET /v1/fleets': ['organization_id'],
  'GET /v1/events': ['hardware_id', 'fleet_ids', 'vehicle_ids', 'date_from', 'date_to', 'event_types'],
};
const PARAM_SCHEMAS: Record<string, unknown> = {
  organization_id: uuid, fleet_id: uuid, hardware_id: str, date_from: time, date_to: time, event_types: str, is_accident: { type: 'boolean' }, is_important: { type: 'boolean' },
  fleet_ids: { type: 'array', items: uuid }, vehicle_ids: { type: 'array', items: uuid },
};

/** A component of kind `kind` named `name` when references are on (collected in `components`), else the thing itself. */
function component(components: Record<string, Record<string, unknown>>, kind: string, name: string, value: unknown): unknown {
  if (!forms.references) return value;
  (components[kind] ??= {})[name] = value;
  return { $ref: `#/components/${kind}/${name}` };
}

function operation(route: Route, components: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const key = `${route.method} ${route.template}`;
  const shape = SHAPES[key];
  if (!shape) throw new Error(`second service: no document entry for ${key}`);
  const pathParams = [...route.template.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: /^(id|organizationId)$/.test(m[1]!) ? uuid : str }));
  const query = (QUERY[key] ?? []).map((name) => {
    const list = key === 'GET /v1/events' && name === 'event_types' ? { type: 'array', items: str } : undefined;
    // this service takes its fleets as one comma-separated value (form, not exploded), and says so
    const style = name === 'fleet_ids' ? { style: 'form', explode: false } : {};
    return component(components, 'parameters', `${shape.id}_${name}`, { name, in: 'query', schema: list ?? PARAM_SCHEMAS[name], ...style });
  });
  const paging = key.startsWith('GET') && shape.answer?.endsWith('Page')
    ? [component(components, 'parameters', 'Cursor', { name: 'cursor', in: 'query', schema: str }), component(components, 'parameters', 'Limit', { name: 'limit', in: 'query', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 500, default: 50 } })]
    : [];
  const idempotency = route.template.includes('/commands/') ? [{ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', maxLength: 200 } }] : [];
  const ifMatch = route.template.startsWith(HOOK) && route.method !== 'GET' ? [{ name: 'If-Match', in: 'header', schema: str }] : [];
  const status = route.method === 'DELETE' ? '204' : route.template.includes('/commands/') ? '202' : key === 'POST /v1/drivers' ? '201' : '200';
  const success = shape.answer ? component(components, 'responses', shape.answer, { description: 'success', content: { 'application/json': { schema: ref(shape.answer) } } }) : { description: 'done' };
  const problemAnswer = { description: 'problem', content: { 'application/problem+json': { schema: ref('Problem') } } };
  const body = shape.request && component(components, 'requestBodies', shape.request, { required: true, content: { 'application/json': { schema: ref(shape.request) } } });
  return {
    operationId: shape.id,
    security: [{ clientCredentials: [`${SCOPE_PREFIX}${route.scope}`] }],
    parameters: [...pathParams, ...query, ...paging, ...idempotency, ...ifMatch],
    ...(body ? { requestBody: body } : {}),
    responses: { [status]: success, default: problemAnswer },
  };
}

/**
 * The whole document for these routes, with the scopes of the spec's table under the client-credentials flow,
 * written in `written` forms (the generators' by default).
 */
export function serviceDocument(routes: Route[], authUrl: string, written: DocumentForms = GENERATED_FORMS): Record<string, unknown> {
  forms = written;
  nullableTurn = 0;
  const components: Record<string, Record<string, unknown>> = {};
  const items: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (items[route.template] ??= {})[route.method.toLowerCase()] = operation(route, components);
  // each path item by $ref too (3.1 allows it), named after its path
  const paths = Object.fromEntries(Object.entries(items).map(([template, item]) => [template, component(components, 'pathItems', template.replace(/[^\w]+/g, '_'), item)]));
  const scopes = Object.fromEntries([...new Set(routes.map((r) => r.scope))].map((s) => [`${SCOPE_PREFIX}${s}`, s.replace(/_/g, ' ')]));
  return {
    openapi: forms.nullable === 'nullable-true' ? '3.0.3' : '3.1.1',
    info: { title: 'Fleet and Telematics Developer API (second service)', version: '1.0.0' },
    paths,
    components: {
      ...components,
      schemas: documentSchemas(),
      securitySchemes: { clientCredentials: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${authUrl}/connect/token`, scopes } } } },
    },
  };
}
