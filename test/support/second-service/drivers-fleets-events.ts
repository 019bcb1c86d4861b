// Drivers, fleets and events of the second service. The driver commands carry the spec's identifier names
// (organization_id, fleet_id) and this service's own attribute names (given_name, family_name, contact.mail).
import { randomUUID } from 'node:crypto';
import { inWindow } from './devices.js';
import { jsonObject, listParam, optionalDate, page, problem, requireUuid } from './http.js';
import type { Driver } from './records.js';
import { inTenant, type Answer, type Route, type RouteContext } from './routing.js';

function checkOrganization(ctx: RouteContext, organizationId: string): void {
  if (!inTenant(ctx.state, ctx.caller, organizationId)) throw problem(403, 'tenant.outside', `organization ${organizationId} is outside your tenant`, { extra: { organization: organizationId } });
}

function listFleets(ctx: RouteContext): Answer {
  const org = ctx.query.has('organization_id') ? requireUuid(ctx.query.get('organization_id'), '/query/organization_id') : undefined;
  if (org) checkOrganization(ctx, org);
  const items = ctx.state.fleets.filter((f) => inTenant(ctx.state, ctx.caller, f.org) && (!org || f.org === org));
  return { status: 200, body: page(items, ctx.query, `fleets:${org ?? ''}`) };
}

function getFleet(ctx: RouteContext): Answer {
  const id = requireUuid(ctx.params.id, '/path/id');
  const fleet = ctx.state.fleets.find((f) => f.id === id && inTenant(ctx.state, ctx.caller, f.org));
  if (!fleet) throw problem(404, 'fleet.not_found', `no fleet ${id}`);
  return { status: 200, body: fleet };
}

function visibleDrivers(ctx: RouteContext): Driver[] {
  return ctx.state.drivers.filter((d) => inTenant(ctx.state, ctx.caller, d.org));
}

function listDrivers(ctx: RouteContext): Answer {
  const org = ctx.query.has('organization_id') ? requireUuid(ctx.query.get('organization_id'), '/query/organization_id') : undefined;
  const fleet = ctx.query.has('fleet_id') ? requireUuid(ctx.query.get('fleet_id'), '/query/fleet_id') : undefined;
  if (org) checkOrganization(ctx, org);
  const items = visibleDrivers(ctx).filter((d) => (!org || d.org === org) && (!fleet || d.fleet_ref === fleet));
  return { status: 200, body: page(items, ctx.query, `drivers:${org ?? ''}:${fleet ?? ''}`) };
}

function driverById(ctx: RouteContext): Driver {
  const id = requireUuid(ctx.params.id, '/path/id');
  const driver = visibleDrivers(ctx).find((d) => d.id === id);
  if (!driver) throw problem(404, 'driver.not_found', `no driver ${id}`);
  return driver;
}

const MUTABLE = ['given_name', 'family_name', 'contact', 'badge', 'employee_id', 'active'] as const;
const CREATE_MEMBERS = new Set(['organization_id', 'fleet_id', 'given_name', 'family_name', 'contact', 'badge', 'employee_id']);
const UPDATE_MEMBERS = new Set([...MUTABLE, 'fleet_id']);

/** The members of a driver command, checked as this service's own document states them (400 with errors[]). */
function driverFields(body: Record<string, unknown>, allowed: Set<string>, required: string[]): Partial<Driver> & { fleet_id?: string; organization_id?: string } {
  const errors: { pointer: string; reason: string }[] = [];
  for (const key of Object.keys(body)) if (!allowed.has(key)) errors.push({ pointer: `/${key}`, reason: 'not a member of this command' });
  for (const key of required) if (body[key] === undefined) errors.push({ pointer: `/${key}`, reason: 'required' });
  for (const key of ['given_name', 'family_name', 'badge']) {
    const v = body[key];
    if (v !== undefined && (typeof v !== 'string' || v.length < 1 || v.length > 200)) errors.push({ pointer: `/${key}`, reason: 'a string of 1 to 200 characters' });
  }
  const employee = body.employee_id;
  if (employee !== undefined && employee !== null && typeof employee !== 'string') errors.push({ pointer: '/employee_id', reason: 'a string or null' });
  if (body.active !== undefined && typeof body.active !== 'boolean') errors.push({ pointer: '/active', reason: 'true or false' });
  const contact = body.contact;
  if (contact !== undefined) {
    if (typeof contact !== 'object' || contact === null || Array.isArray(contact)) errors.push({ pointer: '/contact', reason: 'an object with mail and tel' });
    else for (const [k, v] of Object.entries(contact)) if (!['mail', 'tel'].includes(k) || (v !== null && typeof v !== 'string')) errors.push({ pointer: `/contact/${k}`, reason: 'mail or tel, a string or null' });
  }
  if (errors.length > 0) throw problem(400, 'request.invalid_body', `the driver command has ${errors.length} problem(s)`, { errors });
  return body as Partial<Driver>;
}

function createDriver(ctx: RouteContext): Answer {
  const body = driverFields(jsonObject(ctx.body), CREATE_MEMBERS, ['organization_id', 'fleet_id', 'given_name', 'family_name']);
  const org = requireUuid(body.organization_id, '/organization_id');
  checkOrganization(ctx, org);
  const fleetId = requireUuid(body.fleet_id, '/fleet_id');
  if (!ctx.state.fleets.some((f) => f.id === fleetId && f.org === org)) throw problem(400, 'fleet.not_in_organization', `fleet ${fleetId} is not a fleet of organization ${org}`, { errors: [{ pointer: '/fleet_id', reason: 'not in that organization' }] });
  const now = new Date().toISOString();
  const contact = (body.contact ?? {}) as Partial<Driver['contact']>;
  const driver: Driver = {
    id: randomUUID(),
    given_name: body.given_name!,
    family_name: body.family_name!,
    contact: { mail: contact.mail ?? null, tel: contact.tel ?? null },
    org,
    fleet_ref: fleetId,
    badge: body.badge ?? null,
    employee_id: body.employee_id ?? null,
    active: true,
    registered_at: now,
    revised_at: now,
  };
  ctx.state.drivers.push(driver);
  return { status: 201, body: driver, headers: { location: `/v1/drivers/${driver.id}` } };
}

function updateDriver(ctx: RouteContext): Answer {
  const driver = driverById(ctx);
  const body = driverFields(jsonObject(ctx.body), UPDATE_MEMBERS, []);
  if (body.fleet_id !== undefined) {
    const fleetId = requireUuid(body.fleet_id, '/fleet_id');
    if (!ctx.state.fleets.some((f) => f.id === fleetId && f.org === driver.org)) throw problem(400, 'fleet.not_in_organization', `fleet ${fleetId} is not in the driver's organization`);
    driver.fleet_ref = fleetId;
  }
  for (const key of MUTABLE) if (body[key] !== undefined) Object.assign(driver, { [key]: key === 'contact' ? { ...driver.contact, ...body.contact } : body[key] });
  driver.revised_at = new Date().toISOString();
  return { status: 200, body: driver };
}

function searchEvents(ctx: RouteContext): Answer {
  const { query } = ctx;
  const hw = query.get('hardware_id');
  const fleets = listParam(query, 'fleet_ids');
  const vehicles = listParam(query, 'vehicle_ids');
  const from = optionalDate(query, 'date_from');
  const to = optionalDate(query, 'date_to');
  // spec: at least one narrowing filter plus a date window, otherwise 400
  if ((hw === null && fleets.length === 0 && vehicles.length === 0) || from === undefined || to === undefined) {
    throw problem(400, 'events.search_too_wide', 'name hardware_id, fleet_ids or vehicle_ids, and both date_from and date_to', {
      errors: [{ pointer: '/query', reason: 'a narrowing filter and a date window are required' }],
    });
  }
  for (const [i, id] of [...fleets, ...vehicles].entries()) requireUuid(id, `/query/ids/${i}`);
  const types = listParam(query, 'event_types');
  const visibleFleets = new Set(ctx.state.fleets.filter((f) => inTenant(ctx.state, ctx.caller, f.org)).map((f) => f.id));
  const items = ctx.state.events
    .filter((e) => visibleFleets.has(e.fleet_ref))
    .filter((e) => (hw === null || e.device_hw === hw) && (fleets.length === 0 || fleets.includes(e.fleet_ref)))
    .filter((e) => (vehicles.length === 0 || (e.vehicle_ref !== null && vehicles.includes(e.vehicle_ref))) && inWindow(e.occurred_at, from, to))
    .filter((e) => types.length === 0 || e.kinds.some((k) => types.includes(k)))
    .map(({ ref, id, device_hw, kinds, groups, occurred_at, crash, flagged, fleet_ref, vehicle_ref }) => ({ ref, id, device_hw, kinds, groups, occurred_at, crash, flagged, fleet_ref, vehicle_ref }));
  return { status: 200, body: page(items, query, `events:${query.toString().replace(/&?(cursor|limit)=[^&]*/g, '')}`) };
}

function getEvent(ctx: RouteContext): Answer {
  const visibleFleets = new Set(ctx.state.fleets.filter((f) => inTenant(ctx.state, ctx.caller, f.org)).map((f) => f.id));
  const event = ctx.state.events.find((e) => e.ref === ctx.params.eventId && visibleFleets.has(e.fleet_ref));
  if (!event) throw problem(404, 'event.not_found', `no event ${ctx.params.eventId}`);
  return { status: 200, body: event };
}

function eventMedia(ctx: RouteContext): Answer {
  const event = getEvent(ctx).body as { ref: string; attachments: string[] };
  const items = ctx.state.media.filter((m) => event.attachments.includes(m.media_ref));
  return { status: 200, body: page(items, ctx.query, `event-media:${event.ref}`) };
}

export function driverFleetEventRoutes(): Route[] {
  return [
    { method: 'GET', template: '/v1/fleets', scope: 'fleets_read', handle: listFleets },
    // not in the spec's tables ("the rest of fleets: not shown"): this service has it, and its document says so
    { method: 'GET', template: '/v1/fleets/{id}', scope: 'fleets_read', handle: getFleet },
    { method: 'GET', template: '/v1/drivers', scope: 'drivers_read', handle: listDrivers },
    { method: 'POST', template: '/v1/drivers', scope: 'drivers_write', handle: createDriver },
    { method: 'GET', template: '/v1/drivers/{id}', scope: 'drivers_read', handle: (ctx) => ({ status: 200, body: driverById(ctx) }) },
    { method: 'PUT', template: '/v1/drivers/{id}', scope: 'drivers_write', handle: updateDriver },
    { method: 'GET', template: '/v1/events', scope: 'events_read', handle: searchEvents },
    { method: 'GET', template: '/v1/events/{eventId}', scope: 'events_read', handle: getEvent },
    // spec: the path exists, its details are not shown; this service reads it with the search's scope
    { method: 'GET', template: '/v1/events/{eventId}/media', scope: 'events_read', handle: eventMedia },
  ];
}
