// Per-device telemetry: events, last reported state, media items and the live position.
import { dateWindow, listParam, optionalBoolean } from '../common/params.js';
import { problem } from '../common/problems.js';
import { timeOrderedPage } from '../paging.js';
import { deviceByHardwareId } from './lookup.js';
import { deviceEventSummaryView, mediaView } from './views.js';
import type { ApiRoute } from '../app.js';

const inWindow = (ms: number, w: { from?: number; to?: number }) =>
  (w.from === undefined || ms >= w.from) && (w.to === undefined || ms < w.to);

export const deviceTelemetryRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/devices/{hardwareId}/events',
    operationId: 'listDeviceEvents',
    handler(ctx, app) {
      const device = deviceByHardwareId(ctx, app);
      const window = dateWindow(ctx.query);
      const types = listParam(ctx.query, 'event_types');
      const isAccident = optionalBoolean(ctx.query, 'is_accident');
      const isImportant = optionalBoolean(ctx.query, 'is_important');
      const events = app.world.telemetry.get(device).events.filter(
        (e) =>
          inWindow(e.triggeredMs, window) &&
          (!types || e.event_types.some((t) => types.includes(t))) &&
          (isAccident === undefined || e.is_accident === isAccident) &&
          (isImportant === undefined || e.is_important === isImportant),
      );
      return timeOrderedPage(ctx, app.cursors, events, (e) => [e.triggeredMs, e.event_id], deviceEventSummaryView);
    },
  },
  {
    method: 'GET',
    path: '/v1/devices/{hardwareId}/last-reported',
    operationId: 'getDeviceLastReported',
    handler(ctx, app) {
      const device = deviceByHardwareId(ctx, app);
      const state = app.world.telemetry.get(device).lastReported;
      if (!state) throw problem(404, 'device.never_reported', `Device ${device.hardware_id} has never reported.`);
      return { status: 200, json: state };
    },
  },
  {
    method: 'GET',
    path: '/v1/devices/{hardwareId}/media',
    operationId: 'listDeviceMedia',
    handler(ctx, app) {
      const device = deviceByHardwareId(ctx, app);
      const window = dateWindow(ctx.query);
      const media = app.world.telemetry.get(device).media.filter((m) => inWindow(m.recordedMs, window));
      return timeOrderedPage(ctx, app.cursors, media, (m) => [m.recordedMs, m.id], (m) => mediaView(m, app));
    },
  },
  {
    method: 'GET',
    path: '/v1/devices/{hardwareId}/last-position',
    operationId: 'getDeviceLastPosition',
    handler(ctx, app) {
      const device = deviceByHardwareId(ctx, app);
      const position = app.world.telemetry.get(device).livePosition;
      if (!position) throw problem(404, 'device.no_live_position', `No live position is available for device ${device.hardware_id}.`);
      return { status: 200, json: position };
    },
  },
];
