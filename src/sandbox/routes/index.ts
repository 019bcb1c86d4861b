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
import { controlOperations } from '../common/control-document.js';
import { requireShape } from '../http/body-schema.js';
import { CONTROL_DOCUMENT, type ControlSchemaName } from '../common/control-document.js';
import type { ApiRoute, ControlRoute, PublicRoute, RouteEntry } from '../app.js';

export const apiRoutes: ApiRoute[] = [
  ...deviceRoutes, ...commandRoutes, ...deviceTelemetryRoutes, ...driverRoutes, ...eventRoutes, ...fleetRoutes,
  ...organizationRoutes, ...journeyRoutes, ...webhookConfigRoutes,
];

/**
 * Routes every operation of the OpenAPI document to its handler (by operationId), with the scope the
 * document's security requirement names (spec: every endpoint requires exactly one scope), and every
 * operation of the control document (common/control-openapi.json) to its control route. Fails when a handler is
 * missing, or a handler is not in its document, or their method or path disagree.
 */
export function buildRouter(controlRoutes: readonly ControlRoute[]): Router<RouteEntry> {
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
  for (const route of [...publicRoutes, ...checkedControlRoutes(controlRoutes)]) {
    router.add({ method: route.method, path: route.path, handler: { kind: 'public', route } });
  }
  return router;
}

/** The control routes, matched one to one with the control document, each checking its body against it. */
export function checkedControlRoutes(routes: readonly ControlRoute[]): PublicRoute[] {
  const handlers = new Map(routes.map((r) => [r.operationId, r]));
  if (handlers.size !== routes.length) throw new Error('sandbox: two control routes share an operationId');
  const checked: PublicRoute[] = [];
  for (const op of controlOperations()) {
    const route = handlers.get(op.operationId);
    if (!route) throw new Error(`sandbox: no handler for control operation ${op.operationId}`);
    if (route.method !== op.method || route.path !== op.path) {
      throw new Error(`sandbox: ${op.operationId} is ${op.method} ${op.path} in the control document, ${route.method} ${route.path} here`);
    }
    handlers.delete(op.operationId);
    const schema = op.bodySchema as ControlSchemaName | null;
    checked.push(schema === null ? route : {
      ...route,
      handler: async (ctx, app) => {
        await requireShape(CONTROL_DOCUMENT, schema, await ctx.jsonBody());
        return route.handler(ctx, app);
      },
    });
  }
  if (handlers.size > 0) throw new Error(`sandbox: control operations not in the control document: ${[...handlers.keys()].join(', ')}`);
  return checked;
}
