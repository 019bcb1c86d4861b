// Devices: list, get, and the assignment state machine (spec: Devices, States and transitions).
// Sandbox choice: assigning to a vehicle that is unknown or outside the caller's tenant is
// 400 request.invalid_body naming vehicle_id (a 404 would be indistinguishable from an unknown device).
import { optionalString } from '../common/params.js';
import { invalidBody } from '../common/problems.js';
import { requireShape } from '../http/body-schema.js';
import { API_DOCUMENT } from '../../openapi/schema-check.js';
import { byPathId } from './lookup.js';
import { pageOfTenantCollection } from './tenant-list.js';
import { deviceView } from './views.js';
import type { ApiRoute } from '../app.js';
import type { DeviceRecord } from '../common/records.js';

export const deviceRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/devices',
    operationId: 'listDevices',
    handler(ctx, app) {
      const hardwareId = optionalString(ctx.query, 'hardware_id');
      const device = hardwareId === undefined ? undefined : app.world.deviceByHardwareId(hardwareId);
      const narrow = hardwareId === undefined ? undefined : { seqs: device ? [device.seq] : [], accept: (d: DeviceRecord) => d.hardware_id === hardwareId };
      return pageOfTenantCollection(ctx, app, app.world.devices, deviceView, { fleetFilter: true, narrow });
    },
  },
  {
    method: 'GET',
    path: '/v1/devices/{id}',
    operationId: 'getDevice',
    handler: (ctx, app) => ({ status: 200, json: deviceView(byPathId(ctx, app.world.devices, 'Device')) }),
  },
  {
    method: 'PUT',
    path: '/v1/devices/{id}/assignment',
    operationId: 'assignDevice',
    async handler(ctx, app) {
      const device = byPathId(ctx, app.world.devices, 'Device');
      const body = await requireShape<{ vehicle_id: string }>(API_DOCUMENT, 'AssignDeviceCommand', await ctx.jsonBody());
      const vehicleId = body.vehicle_id.toLowerCase();
      const vehicle = app.world.vehicles.get(vehicleId);
      // spec: only to a vehicle within the caller's tenant
      if (!vehicle || !ctx.auth.tenant.includes(vehicle.organization_id)) {
        throw invalidBody('vehicle_id', 'does not name a vehicle in your tenant');
      }
      if (device.vehicle_id !== vehicle.id) {
        app.world.assignDevice(device, vehicle);
      }
      // records are snapshots of the device table: read the device again
      return { status: 200, json: deviceView(app.world.devices.at(device.seq)) };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/devices/{id}/assignment',
    operationId: 'unassignDevice',
    handler(ctx, app) {
      const device = byPathId(ctx, app.world.devices, 'Device');
      // spec: 204 whether or not it was assigned
      if (device.vehicle_id !== null) {
        app.world.assignDevice(device, null);
      }
      return { status: 204 };
    },
  },
];
