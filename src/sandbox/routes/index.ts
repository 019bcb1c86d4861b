// Every route the sandbox serves, with the scope of each API operation.
import { Router } from '../http/router.js';
import { SCOPE_PREFIX } from '../auth/clients.js';
import { deviceRoutes } from './devices.js';
import { commandRoutes } from './commands.js';
import { deviceTelemetryRoutes } from './device-telemetry.js';
import { driverRoutes } from './drivers.js';
import { eventRoutes } from './events.js';
import { fleetRoutes } from './fleets.js';
import { organizationRoutes } from './organizations.js';
import { journeyRoutes } from './journeys.js';
import { webhookConfigRoutes } from './webhook-config.js';
import { publicRoutes } from './control.js';
import type { ApiRoute } from '../app.js';
import type { RouteEntry } from '../http/server.js';

export const apiRoutes: ApiRoute[] = [
  ...deviceRoutes, ...commandRoutes, ...deviceTelemetryRoutes, ...driverRoutes, ...eventRoutes, ...fleetRoutes,
  ...organizationRoutes, ...journeyRoutes, ...webhookConfigRoutes,
];

// spec: every endpoint requires exactly one scope. Temporary table until src/openapi/operations.gen.ts
// (generated from the OpenAPI document's security requirements) is available.
const SCOPES: Record<string, string> = {
  listDevices: 'devices_read', getDevice: 'devices_read', assignDevice: 'devices_write', unassignDevice: 'devices_write',
  rebootDevice: 'device_commands_reboot', wakeUpDevice: 'device_commands_wake_up',
  listDeviceEvents: 'devices_read', getDeviceLastReported: 'devices_read', listDeviceMedia: 'devices_read',
  getDeviceLastPosition: 'live_positions_read',
  listDrivers: 'drivers_read', createDriver: 'drivers_write', getDriver: 'drivers_read', updateDriver: 'drivers_write',
  searchEvents: 'events_read', getEvent: 'events_read', listEventMedia: 'events_read',
  listFleets: 'fleets_read', getFleet: 'fleets_read', listVehicles: 'vehicles_read', getVehicle: 'vehicles_read',
  listOrganizations: 'organizations_read', getOrganization: 'organizations_read', listOrganizationDescendants: 'organizations_read',
  listJourneys: 'journeys_read',
  getWebhookConfig: 'webhooks_read', putWebhookConfig: 'webhooks_write', patchWebhookConfig: 'webhooks_write',
  deleteWebhookConfig: 'webhooks_write', regenerateWebhookAuthKey: 'webhooks_write', putWebhookTopic: 'webhooks_write',
  deleteWebhookTopic: 'webhooks_write',
};

export function scopeOf(route: ApiRoute): string {
  const scope = SCOPES[route.operationId];
  if (!scope) throw new Error(`no scope for operation ${route.operationId}`);
  return SCOPE_PREFIX + scope;
}

export function buildRouter(): Router<RouteEntry> {
  const router = new Router<RouteEntry>();
  for (const route of apiRoutes) {
    router.add({ method: route.method, path: route.path, handler: { kind: 'api', route, scope: scopeOf(route) } });
  }
  for (const route of publicRoutes) router.add({ method: route.method, path: route.path, handler: { kind: 'public', route } });
  return router;
}
