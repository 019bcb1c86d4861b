// Events search, event lookup by its opaque id, and an event's media (spec: Events).
// Sandbox choice: an event id that does not decode to "<hardware id>~<uuid>" is 404 resource.not_found,
// like a well-formed id of an unknown (or another tenant's) event: the document lists no 400 for it.
import { dateWindow, listParam, optionalString, uuidList } from '../common/params.js';
import { notFound, problem } from '../common/problems.js';
import { mergedTimeOrderedPage, timeOrderedPage } from '../paging.js';
import { decodeEventId } from '../seed/telemetry.js';
import { eventListItemView, eventRecordView, mediaView } from './views.js';
import type { ApiContext } from '../common/context.js';
import type { ApiRoute, SandboxApp } from '../app.js';
import type { DeviceRecord, EventRecord } from '../common/records.js';

export const eventRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/events',
    operationId: 'searchEvents',
    handler(ctx, app) {
      const hardwareId = optionalString(ctx.query, 'hardware_id');
      const fleetIds = uuidList(ctx.query, 'fleet_ids');
      const vehicleIds = uuidList(ctx.query, 'vehicle_ids');
      const window = dateWindow(ctx.query);
      const types = listParam(ctx.query, 'event_types');
      // spec: at least one narrowing filter plus a date window, otherwise 400
      const missing: string[] = [];
      if (hardwareId === undefined && !fleetIds && !vehicleIds) missing.push('a narrowing filter (hardware_id, fleet_ids or vehicle_ids)');
      if (window.from === undefined) missing.push('date_from');
      if (window.to === undefined) missing.push('date_to');
      if (missing.length > 0) {
        throw problem(400, 'events.filter_required', `An events search needs a narrowing filter and a date window; missing: ${missing.join(', ')}.`);
      }
      const { tenant } = ctx.auth;
      const asked = (e: EventRecord) =>
        e.triggeredMs >= window.from! && e.triggeredMs < window.to! &&
        tenant.includes(e.organization_id) &&
        (!fleetIds || fleetIds.includes(e.fleet_id)) &&
        (!vehicleIds || (e.vehicle_id !== null && vehicleIds.includes(e.vehicle_id))) &&
        (!types || e.event_types.some((t) => types.includes(t)));
      // every device's events are newest first already: the page is merged from them, not sorted whole
      const devices = new Map(candidateDevices(app, hardwareId, fleetIds, vehicleIds).map((device) => [device.seq, device]));
      const lists = [...devices.values()].map((device) => app.world.telemetry.get(device).events);
      return mergedTimeOrderedPage(ctx, app.cursors, lists, (e) => [e.triggeredMs, e.event_id], asked, eventListItemView);
    },
  },
  {
    method: 'GET',
    path: '/v1/events/{eventId}',
    operationId: 'getEvent',
    handler: (ctx, app) => ({ status: 200, json: eventRecordView(findEvent(ctx, app).event) }),
  },
  {
    method: 'GET',
    path: '/v1/events/{eventId}/media',
    operationId: 'listEventMedia',
    handler(ctx, app) {
      const { event, device } = findEvent(ctx, app);
      const media = app.world.telemetry.get(device).media.filter((m) => m.event_id === event.event_id);
      return timeOrderedPage(ctx, app.cursors, media, (m) => [m.recordedMs, m.id], (m) => mediaView(m, app));
    },
  },
];

/** The devices whose events (or journeys) can match: every given filter must hold (they combine with AND). */
export function candidateDevices(app: SandboxApp, hardwareId?: string, fleetIds?: string[], vehicleIds?: string[]): DeviceRecord[] {
  const { world } = app;
  let devices: DeviceRecord[] | undefined;
  const narrow = (next: DeviceRecord[]) => {
    devices = devices === undefined ? next : devices.filter((d) => next.some((n) => n.seq === d.seq));
  };
  if (hardwareId !== undefined) {
    const device = world.deviceByHardwareId(hardwareId);
    narrow(device ? [device] : []);
  }
  if (vehicleIds) narrow(vehicleIds.flatMap((v) => world.deviceBySeedVehicle(v) ?? []));
  if (fleetIds && devices === undefined) {
    narrow([...new Set(fleetIds)].flatMap((f) => world.devices.seqs('seedFleet', f).map((seq) => world.devices.at(seq))));
  }
  return devices ?? [];
}

function findEvent(ctx: ApiContext, app: SandboxApp): { event: EventRecord; device: DeviceRecord } {
  const eventId = ctx.params.eventId!;
  const decoded = decodeEventId(eventId);
  if (!decoded) throw problem(404, 'resource.not_found', `Event ${eventId} was not found: it is not an event id (base64url of "<hardware id>~<event uuid>").`);
  const device = app.world.deviceByHardwareId(decoded.hardwareId);
  const event = device ? app.world.telemetry.get(device).events.find((e) => e.event_uuid === decoded.eventUuid) : undefined;
  if (!device || !event || !ctx.auth.tenant.includes(event.organization_id)) throw notFound(`Event ${eventId}`);
  return { event, device };
}
