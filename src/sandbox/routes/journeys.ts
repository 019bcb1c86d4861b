// Journeys (sandbox design): completed journeys of one device, vehicle or fleet within a date window.
// Exactly one of hardware_id, vehicle_id, fleet_id and both date_from and date_to are required
// (400 request.invalid_parameter naming what is missing). A journey matches when it starts in the window.
import { dateWindow, optionalString, optionalUuid } from '../common/params.js';
import { problem } from '../common/problems.js';
import { timeOrderedPage } from '../paging.js';
import { candidateDevices } from './events.js';
import { journeyView } from './views.js';
import type { ApiRoute } from '../app.js';
import type { JourneyRecord } from '../common/records.js';

export const journeyRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/journeys',
    operationId: 'listJourneys',
    handler(ctx, app) {
      const hardwareId = optionalString(ctx.query, 'hardware_id');
      const vehicleId = optionalUuid(ctx.query, 'vehicle_id');
      const fleetId = optionalUuid(ctx.query, 'fleet_id');
      const window = dateWindow(ctx.query);
      const given = [hardwareId, vehicleId, fleetId].filter((v) => v !== undefined).length;
      const missing: { name: string; reason: string }[] = [];
      if (given !== 1) missing.push({ name: 'hardware_id', reason: 'give exactly one of hardware_id, vehicle_id, fleet_id' });
      if (window.from === undefined) missing.push({ name: 'date_from', reason: 'is required' });
      if (window.to === undefined) missing.push({ name: 'date_to', reason: 'is required' });
      if (missing.length > 0) {
        throw problem(400, 'request.invalid_parameter', `Journeys need exactly one of hardware_id, vehicle_id, fleet_id and a date window (date_from, date_to).`, {
          invalid_params: missing,
        });
      }
      const journeys: JourneyRecord[] = [];
      const only = (id: string | undefined) => (id === undefined ? undefined : [id]);
      for (const device of candidateDevices(app, hardwareId, only(fleetId), only(vehicleId))) {
        for (const j of app.world.telemetry.get(device).journeys) {
          if (j.startMs >= window.from! && j.startMs < window.to! && ctx.auth.tenant.includes(j.organization_id)) journeys.push(j);
        }
      }
      journeys.sort((a, b) => b.startMs - a.startMs || (a.id < b.id ? -1 : 1));
      return timeOrderedPage(ctx, app.cursors, journeys, (j) => [j.startMs, j.id], journeyView);
    },
  },
];
