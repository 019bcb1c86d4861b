// Device endpoints of the spec's Devices table, with the second service's own record shapes, its own command
// response, and the Idempotency-Key rules (replay, conflict) and device.capability_missing from internal data.
import { createHash, randomUUID } from 'node:crypto';
import { listParam, optionalBoolean, optionalDate, page, problem, requireUuid, jsonObject } from './http.js';
import type { Command, Device } from './records.js';
import { inTenant, type Answer, type Route, type RouteContext } from './routing.js';

/** Answers kept per Idempotency-Key: what was sent (to spot a conflict) and what was answered. */
export type IdempotencyStore = Map<string, { fingerprint: string; answer: Answer }>;

function visibleDevices(ctx: RouteContext): Device[] {
  return ctx.state.devices.filter((d) => inTenant(ctx.state, ctx.caller, d.tenant_ref));
}

function deviceById(ctx: RouteContext): Device {
  const id = requireUuid(ctx.params.id, '/path/id');
  const device = visibleDevices(ctx).find((d) => d.id === id);
  if (!device) throw problem(404, 'device.not_found', `no device ${id}`);
  return device;
}

function deviceByHardwareId(ctx: RouteContext): Device {
  const device = visibleDevices(ctx).find((d) => d.hardware_id === ctx.params.hardwareId);
  if (!device) throw problem(404, 'device.not_found', `no device with hardware id ${ctx.params.hardwareId}`);
  return device;
}

function checkOrganization(ctx: RouteContext, organizationId: string): void {
  if (!inTenant(ctx.state, ctx.caller, organizationId)) {
    throw problem(403, 'tenant.outside', `organization ${organizationId} is outside your tenant`, { extra: { organization: organizationId } });
  }
}

function listDevices(ctx: RouteContext): Answer {
  const { query } = ctx;
  const org = query.has('organization_id') ? requireUuid(query.get('organization_id'), '/query/organization_id') : undefined;
  const fleet = query.has('fleet_id') ? requireUuid(query.get('fleet_id'), '/query/fleet_id') : undefined;
  const hw = query.get('hardware_id');
  if (org) checkOrganization(ctx, org);
  const items = visibleDevices(ctx).filter(
    (d) => (!org || d.tenant_ref === org) && (!fleet || d.fleet_ref === fleet) && (hw === null || d.hardware_id === hw),
  );
  return { status: 200, body: page(items, query, `devices:${org ?? ''}:${fleet ?? ''}:${hw ?? ''}`) };
}

/** PUT .../assignment, whose one member is named `member`. */
const assign = (member: string) => (ctx: RouteContext): Answer => {
  const device = deviceById(ctx);
  const body = jsonObject(ctx.body);
  // the spec shows no member of the assign command: this service spells it vehicleId (as the spec's webhook
  // payloads do) unless its document names it otherwise, and refuses any other (the bundled document's vehicle_id included)
  const unknown = Object.keys(body).filter((k) => k !== member);
  if (unknown.length > 0) throw problem(400, 'request.unknown_member', `unknown member ${unknown[0]}`, { errors: unknown.map((k) => ({ pointer: `/${k}`, reason: 'not a member of the assign command' })) });
  const vehicle = requireUuid(typeof body[member] === 'string' ? body[member] : undefined, `/${member}`);
  if (!ctx.state.vehicles.includes(vehicle)) throw problem(404, 'vehicle.not_found', `no vehicle ${vehicle} in your tenant`);
  device.vehicle_ref = vehicle;
  return { status: 200, body: device };
};

function unassign(ctx: RouteContext): Answer {
  deviceById(ctx).vehicle_ref = null;
  return { status: 204 };
}

/** Told of each command executed (not replayed): the service's model of the device coming back. */
export type CommandExecuted = (hardwareId: string, command: Command) => void;

function deviceCommand(command: Command, store: IdempotencyStore, executed: CommandExecuted) {
  return (ctx: RouteContext): Answer => {
    const key = ctx.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '') throw problem(400, 'idempotency.key_missing', 'the Idempotency-Key header is required', { errors: [{ pointer: '/header/Idempotency-Key', reason: 'missing' }] });
    if (key.length > 200) throw problem(400, 'idempotency.key_too_long', 'Idempotency-Key is at most 200 characters', { errors: [{ pointer: '/header/Idempotency-Key', reason: `${key.length} characters` }] });
    const fingerprint = createHash('sha256').update(`${ctx.caller.clientId}\n${command}\n${ctx.params.hardwareId}\n${ctx.body}`).digest('hex');
    const storeKey = `${ctx.caller.clientId}\n${key}`;
    const earlier = store.get(storeKey);
    if (earlier) {
      // spec rule 2: same body → the original result; a different body → 422 idempotency.conflict
      if (earlier.fingerprint === fingerprint) return earlier.answer;
      throw problem(422, 'idempotency.conflict', 'this Idempotency-Key was used for a different request', { extra: { idempotency_key: key } });
    }
    const device = deviceByHardwareId(ctx);
    if (!ctx.state.abilities.get(device.hardware_id)?.has(command)) {
      throw problem(422, 'device.capability_missing', `device ${device.hardware_id} cannot ${command.replace('_', ' ')}`, { extra: { hw: device.hardware_id, action: command } });
    }
    const answer: Answer = {
      status: 202,
      body: { command_ref: randomUUID(), hw: device.hardware_id, action: command, state: 'queued', queued_at: new Date().toISOString(), replay_key: key },
    };
    store.set(storeKey, { fingerprint, answer });
    executed(device.hardware_id, command);
    return answer;
  };
}

function deviceEvents(ctx: RouteContext): Answer {
  const device = deviceByHardwareId(ctx);
  const from = optionalDate(ctx.query, 'date_from');
  const to = optionalDate(ctx.query, 'date_to');
  const types = listParam(ctx.query, 'event_types');
  const accident = optionalBoolean(ctx.query, 'is_accident');
  const important = optionalBoolean(ctx.query, 'is_important');
  const items = ctx.state.events
    .filter((e) => e.device_hw === device.hardware_id)
    .filter((e) => inWindow(e.occurred_at, from, to) && (types.length === 0 || e.kinds.some((k) => types.includes(k))))
    .filter((e) => (accident === undefined || e.crash === accident) && (important === undefined || e.flagged === important))
    .map(({ ref, id, kinds, occurred_at, crash, flagged }) => ({ ref, id, kinds, occurred_at, crash, flagged }));
  return { status: 200, body: page(items, ctx.query, `dev-events:${device.hardware_id}`) };
}

export function inWindow(time: string, from: number | undefined, to: number | undefined): boolean {
  const t = Date.parse(time);
  return (from === undefined || t >= from) && (to === undefined || t <= to);
}

function deviceMedia(ctx: RouteContext): Answer {
  const device = deviceByHardwareId(ctx);
  const from = optionalDate(ctx.query, 'date_from');
  const to = optionalDate(ctx.query, 'date_to');
  const items = ctx.state.media.filter((m) => m.hw === device.hardware_id && inWindow(m.captured_at, from, to));
  return { status: 200, body: page(items, ctx.query, `media:${device.hardware_id}`) };
}

function lastOf(map: 'lastReported' | 'lastPosition', code: string, what: string) {
  return (ctx: RouteContext): Answer => {
    const device = deviceByHardwareId(ctx);
    const found = ctx.state[map].get(device.hardware_id);
    if (!found) throw problem(404, code, `device ${device.hardware_id} has ${what}`);
    return { status: 200, body: found };
  };
}

export function deviceRoutes(store: IdempotencyStore, executed: CommandExecuted = () => undefined, assignMember = 'vehicleId'): Route[] {
  return [
    { method: 'GET', template: '/v1/devices', scope: 'devices_read', handle: listDevices },
    { method: 'GET', template: '/v1/devices/{id}', scope: 'devices_read', handle: (ctx) => ({ status: 200, body: deviceById(ctx) }) },
    { method: 'PUT', template: '/v1/devices/{id}/assignment', scope: 'devices_write', handle: assign(assignMember) },
    { method: 'DELETE', template: '/v1/devices/{id}/assignment', scope: 'devices_write', handle: unassign },
    { method: 'POST', template: '/v1/devices/{hardwareId}/commands/reboot', scope: 'device_commands_reboot', handle: deviceCommand('reboot', store, executed) },
    { method: 'POST', template: '/v1/devices/{hardwareId}/commands/wake-up', scope: 'device_commands_wake_up', handle: deviceCommand('wake_up', store, executed) },
    { method: 'GET', template: '/v1/devices/{hardwareId}/events', scope: 'devices_read', handle: deviceEvents },
    { method: 'GET', template: '/v1/devices/{hardwareId}/last-reported', scope: 'devices_read', handle: lastOf('lastReported', 'device.never_reported', 'never reported') },
    { method: 'GET', template: '/v1/devices/{hardwareId}/media', scope: 'devices_read', handle: deviceMedia },
    { method: 'GET', template: '/v1/devices/{hardwareId}/last-position', scope: 'live_positions_read', handle: lastOf('lastPosition', 'position.unavailable', 'no live position') },
  ];
}
