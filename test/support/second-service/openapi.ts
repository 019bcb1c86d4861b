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
  /** Every schema written inline where it is used: no #/components/schemas reference left. */
  inlineSchemas?: boolean;
  /** Record members named otherwise (the spec leaves them unshown), per schema: the records are served so too. */
  renames?: MemberRenames;
  /** Members the client has never heard of, declared and served on every Device, Driver and media item. */
  extraMembers?: boolean;
  /** A media item's link as a plain URL string beside its expiry (valid_until), not an object {href, valid_until}. */
  flatMediaLink?: boolean;
  /**
   * The records' times written with UTC offsets (+05:30, -08:00, +00:00 in turn) and 0, 3 or 9 fraction digits: the
   * same instants, as RFC 3339 allows them (issue 33, must-show 3).
   */
  offsetTimes?: boolean;
}

/**
 * Per schema (Device, Driver, Telemetry, MediaItem; AssignTarget, the assign command's vehicleId), a member's
 * name → the name it has in this document.
 */
export type MemberRenames = Partial<Record<'Device' | 'Driver' | 'Telemetry' | 'MediaItem' | 'AssignTarget', Record<string, string>>>;

/** The member of the assign command that names the vehicle, as a document in `written` forms names it. */
export function assignMember(written: DocumentForms | undefined): string {
  return written?.renames?.AssignTarget?.vehicleId ?? 'vehicleId';
}

/** The extra members of extraMembers: a text, a number, a list and an object, none of them a time or an id. */
const EXTRA_MEMBERS: Record<string, { schema: unknown; value: unknown }> = {
  x_note: { schema: { type: 'string' }, value: 'kept by the service' },
  rank: { schema: { type: 'integer' }, value: 7 },
  labels: { schema: { type: 'array', items: { type: 'string' } }, value: ['north', 'spare'] },
  meta: { schema: { type: 'object', properties: { origin: { type: 'string' } } }, value: { origin: 'import' } },
};
const EXTENDED = ['Device', 'Driver', 'MediaItem'];

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
/** A record schema's members as this document names them, with the extra members when they are on. */
function members(schema: string, properties: Record<string, unknown>): Record<string, unknown> {
  const renames = forms.renames?.[schema as keyof MemberRenames] ?? {};
  const named = Object.fromEntries(Object.entries(properties).map(([k, v]) => [renames[k] ?? k, v]));
  if (!forms.extraMembers || !EXTENDED.includes(schema)) return named;
  return { ...named, ...Object.fromEntries(Object.entries(EXTRA_MEMBERS).map(([k, v]) => [k, v.schema])) };
}

/**
 * A record this service holds, as the document in `written` forms names it: what the double answers with.
 * `schema` is the answer's schema; a page's items are written as its item schema.
 */
export function recordAsWritten(written: DocumentForms, schema: string, record: unknown): unknown {
  if (schema.endsWith('Page') && typeof record === 'object' && record !== null && Array.isArray((record as { data?: unknown }).data)) {
    const page = record as { data: unknown[] };
    return { ...page, data: page.data.map((item) => recordAsWritten(written, schema.slice(0, -'Page'.length), item)) };
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  const renames = written.renames?.[schema as keyof MemberRenames] ?? {};
  const named = Object.fromEntries(Object.entries(flattened(written, schema, record)).map(([k, v]) => [renames[k] ?? k, written.offsetTimes ? withOffset(v) : v]));
  if (!written.extraMembers || !EXTENDED.includes(schema)) return named;
  return { ...named, ...Object.fromEntries(Object.entries(EXTRA_MEMBERS).map(([k, v]) => [k, v.value])) };
}

const UTC_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const OFFSETS = [330, -480, 0];
const FRACTIONS = [0, 3, 9];

/** A UTC date-time written at another offset, with another number of fraction digits (the same instant); else `value`. */
function withOffset(value: unknown): unknown {
  if (typeof value !== 'string' || !UTC_TIME.test(value)) return value;
  const ms = Date.parse(value);
  // by the minute, so that records a minute or more apart are written differently
  const turn = Math.floor(ms / 60_000) % 3;
  const offset = OFFSETS[turn]!;
  const local = new Date(ms + offset * 60_000).toISOString();
  // never fewer digits than the instant needs: the same instant, only written otherwise
  const digits = ms % 1000 === 0 ? FRACTIONS[(turn + 1) % 3]! : Math.max(3, FRACTIONS[(turn + 1) % 3]!);
  const fraction = digits === 0 ? '' : `.${local.slice(20, 23).padEnd(digits, '0')}`;
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
  return `${local.slice(0, 19)}${fraction}${zone}`;
}

/** A media item with its link flattened when flatMediaLink is on: signed_url the URL itself, valid_until beside it. */
function flattened(written: DocumentForms, schema: string, record: object): object {
  if (!written.flatMediaLink || schema !== 'MediaItem') return record;
  const { signed_url: link, ...rest } = record as { signed_url: { href: string; valid_until: string } };
  return { ...rest, signed_url: link.href, valid_until: link.valid_until };
}

/** The schema of the success answer of a route ('GET /v1/devices' → 'DevicePage'), if it has one. */
export function answerSchema(method: string, template: string): string | undefined {
  return SHAPES[`${method} ${template}`]?.answer;
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
      ? { allOf: [ref('AssignTarget'), { type: 'object', required: [assignMember(forms)], description: 'the vehicle to put the device on' }] }
      : obj({ [assignMember(forms)]: uuid }),
    AssignTarget: { type: 'object', properties: { [assignMember(forms)]: idRef('VehicleRef') } },
    CommandReceipt: obj({ command_ref: uuid, hw: str, action: { enum: ['reboot', 'wake_up'] }, state: str, queued_at: time, replay_key: str }),
    DeviceEventBrief: obj({ ref: str, id: { type: 'integer' }, kinds: { type: 'array', items: str }, occurred_at: time, crash: { type: 'boolean' }, flagged: { type: 'boolean' } }),
    EventHit: obj({ ref: str, id: { type: 'integer' }, device_hw: str, kinds: { type: 'array', items: str }, groups: { type: 'array', items: str }, occurred_at: time, crash: { type: 'boolean' }, flagged: { type: 'boolean' }, fleet_ref: uuid, vehicle_ref: nullable(uuid) }),
    EventDetail: obj({
      ref: str, id: { type: 'integer' }, device_hw: str, kinds: { type: 'array', items: str }, groups: { type: 'array', items: str }, occurred_at: time, crash: { type: 'boolean' }, flagged: { type: 'boolean' },
      fleet_ref: uuid, vehicle_ref: nullable(uuid), place: obj({ line: str, city: str }), track: { type: 'array', items: obj({ lat: { type: 'number' }, lon: { type: 'number' }, at: time }) },
      velocity_kmh: { type: 'number' }, attachments: { type: 'array', items: str },
    }),
    MediaItem: obj(members('MediaItem', { media_ref: str, hw: str, kind: str, camera: str, bytes: { type: 'integer' }, captured_at: time, ...(forms.flatMediaLink ? { signed_url: { type: 'string', format: 'uri' }, valid_until: time } : { signed_url: obj({ href: { type: 'string', format: 'uri' }, valid_until: time }) }) })),
    Telemetry: obj(members('Telemetry', { hw: str, observed_at: time, ignition: { enum: ['on', 'off'] }, odo_m: { type: 'integer' }, battery_mv: { type: 'integer' }, speed: obj({ value: { type: 'number' }, unit: str }), coords: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } })),
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
  SCHEMAS.Device = wrapped('Device', members('Device', {
    id: uuid, hardware_id: str, serial: str, label: str, firmware: obj({ version: str, channel: str }), vehicle_ref: nullable(uuid),
    fleet_ref: uuid, tenant_ref: uuid, reported_at: nullable(time), enrolled_on: { type: 'string', format: 'date' }, power_source: str,
  }), 2, SCHEMAS);
  SCHEMAS.Driver = wrapped('Driver', members('Driver', {
    id: uuid, given_name: str, family_name: str, contact: obj({ mail: nullable({ type: 'string', format: 'email', maxLength: 320 }), tel: nullable({ type: 'string', maxLength: 40 }) }),
    org: uuid, fleet_ref: uuid, badge: nullable(str), employee_id: nullable(str), active: { type: 'boolean' }, registered_at: nullable(time), revised_at: time,
  }), 4, SCHEMAS);
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
  const schemas = documentSchemas();
  const document = {
    openapi: forms.nullable === 'nullable-true' ? '3.0.3' : '3.1.1',
    info: { title: 'Fleet and Telematics Developer API (second service)', version: '1.0.0' },
    paths,
    components: {
      ...components,
      ...(forms.inlineSchemas ? {} : { schemas }),
      securitySchemes: { clientCredentials: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${authUrl}/connect/token`, scopes } } } },
    },
  };
  return forms.inlineSchemas ? (inlined(document, schemas) as Record<string, unknown>) : document;
}

/** `value` with every #/components/schemas reference replaced by a copy of what it names (its siblings kept). */
function inlined(value: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlined(item, schemas));
  if (typeof value !== 'object' || value === null) return value;
  const { $ref, ...rest } = value as Record<string, unknown>;
  const siblings = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inlined(v, schemas)]));
  const name = typeof $ref === 'string' && $ref.startsWith('#/components/schemas/') ? $ref.slice('#/components/schemas/'.length) : undefined;
  if (name === undefined) return $ref === undefined ? siblings : { $ref, ...siblings };
  return { ...(inlined(schemas[name], schemas) as Record<string, unknown>), ...siblings };
}
