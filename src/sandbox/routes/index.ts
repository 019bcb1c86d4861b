// Every route the sandbox serves, with the scope of each API operation.
import { Router } from '../http/router.js';
import { OPERATIONS, scopeFor } from '../../openapi/operations.js';
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

/**
 * Routes every operation of the OpenAPI document to its handler (by operationId), with the scope the
 * document's security requirement names (spec: every endpoint requires exactly one scope). Fails when a
 * handler is missing, or a handler is not in the document, or their method or path disagree.
 */
export function buildRouter(): Router<RouteEntry> {
  const handlers = new Map(apiRoutes.map((r) => [r.operationId as string, r]));
  const router = new Router<RouteEntry>();
  for (const op of OPERATIONS) {
    const route = handlers.get(op.operationId);
    if (!route) throw new Error(`sandbox: no handler for operation ${op.operationId}`);
    if (route.method !== op.method || route.path !== op.path) {
      throw new Error(`sandbox: ${op.operationId} is ${op.method} ${op.path} in the document, ${route.method} ${route.path} here`);
    }
    handlers.delete(op.operationId);
    router.add({ method: op.method, path: op.path, handler: { kind: 'api', route, scope: scopeFor(op.operationId) } });
  }
  if (handlers.size > 0) throw new Error(`sandbox: operations not in the document: ${[...handlers.keys()].join(', ')}`);
  for (const route of publicRoutes) router.add({ method: route.method, path: route.path, handler: { kind: 'public', route } });
  return router;
}
