// Fleets and vehicles (sandbox design): lists filtered by organization (and fleet), and lookups by id.
import { uuidParam } from '../http/params.js';
import { fleetView, vehicleView } from './views.js';
import { pageOfTenantCollection } from './tenant-list.js';
import type { ApiContext, Reply } from '../http/context.js';
import type { ApiRoute } from '../app.js';
import type { SeqTable } from '../store/collection.js';

function getById<T extends { id: string; seq: number; organization_id: string }>(
  ctx: ApiContext, collection: SeqTable<T>, what: string, view: (item: T) => unknown,
): Reply {
  const id = uuidParam('id', ctx.params.id!);
  return { status: 200, json: view(ctx.auth.tenant.visible(collection.get(id), `${what} ${id}`)) };
}

export const fleetRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/fleets',
    operationId: 'listFleets',
    handler: (ctx, app) => pageOfTenantCollection(ctx, app, app.world.fleets, fleetView, { fleetFilter: false }),
  },
  {
    method: 'GET',
    path: '/v1/fleets/{id}',
    operationId: 'getFleet',
    handler: (ctx, app) => getById(ctx, app.world.fleets, 'Fleet', fleetView),
  },
  {
    method: 'GET',
    path: '/v1/vehicles',
    operationId: 'listVehicles',
    handler: (ctx, app) => pageOfTenantCollection(ctx, app, app.world.vehicles, vehicleView, { fleetFilter: true }),
  },
  {
    method: 'GET',
    path: '/v1/vehicles/{id}',
    operationId: 'getVehicle',
    handler: (ctx, app) => getById(ctx, app.world.vehicles, 'Vehicle', vehicleView),
  },
];
