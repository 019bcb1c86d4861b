// Fleets and vehicles (sandbox design): lists filtered by organization (and fleet), and lookups by id.
import { fleetView, vehicleView } from './views.js';
import { byPathId } from './lookup.js';
import { pageOfTenantCollection } from './tenant-list.js';
import type { ApiRoute } from '../app.js';

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
    handler: (ctx, app) => ({ status: 200, json: fleetView(byPathId(ctx, app.world.fleets, 'Fleet')) }),
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
    handler: (ctx, app) => ({ status: 200, json: vehicleView(byPathId(ctx, app.world.vehicles, 'Vehicle')) }),
  },
];
