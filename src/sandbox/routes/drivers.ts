// Drivers: list, create (201 + Location), get, update (spec: Drivers).
// Sandbox choices: an organization_id not in the tenant (even unknown) is 403 tenant.forbidden; a fleet_id that is not a
// fleet of that organization (or not visible) is 400 request.invalid_body; a driver keeps its organization.
import { randomUUID } from 'node:crypto';
import { invalidBody } from '../common/problems.js';
import { requireShape } from '../http/body-schema.js';
import { API_DOCUMENT } from '../../openapi/schema-check.js';
import { byPathId, requireOrganizationFilterInTenant } from './lookup.js';
import { pageOfTenantCollection } from './tenant-list.js';
import { driverView } from './views.js';
import type { ApiRoute, SandboxApp } from '../app.js';
import type { DriverRecord } from '../common/records.js';

type OptionalFields = Partial<Pick<DriverRecord, 'email' | 'phone' | 'license_number' | 'employee_id'>>;
type CreateDriverCommand = Pick<DriverRecord, 'organization_id' | 'fleet_id' | 'first_name' | 'last_name'> & OptionalFields;
type UpdateDriverCommand = Partial<Pick<DriverRecord, 'first_name' | 'last_name' | 'fleet_id' | 'status'>> & OptionalFields;

export const driverRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/drivers',
    operationId: 'listDrivers',
    handler: (ctx, app) => pageOfTenantCollection(ctx, app, app.world.drivers, driverView, { fleetFilter: true }),
  },
  {
    method: 'POST',
    path: '/v1/drivers',
    operationId: 'createDriver',
    async handler(ctx, app) {
      const { organization_id, fleet_id, ...named } = await requireShape<CreateDriverCommand>(API_DOCUMENT, 'CreateDriverCommand', await ctx.jsonBody());
      const organizationId = organization_id.toLowerCase();
      const fleetId = fleet_id.toLowerCase();
      // spec: the driver is created in an organization and fleet within the caller's tenant
      requireOrganizationFilterInTenant(ctx, app, organizationId);
      requireFleetOf(app, organizationId, fleetId);
      const at = app.now().toISOString();
      const driver: DriverRecord = {
        seq: app.world.drivers.size,
        id: randomUUID(),
        organization_id: organizationId,
        fleet_id: fleetId,
        email: null,
        phone: null,
        license_number: null,
        employee_id: null,
        ...named,
        status: 'active',
        created_at: at,
        updated_at: at,
      };
      app.world.addDriver(driver);
      return {
        status: 201,
        headers: { location: `${app.baseUrl()}/v1/drivers/${driver.id}` },
        json: driverView(driver),
      };
    },
  },
  {
    method: 'GET',
    path: '/v1/drivers/{id}',
    operationId: 'getDriver',
    handler: (ctx, app) => ({ status: 200, json: driverView(byPathId(ctx, app.world.drivers, 'Driver')) }),
  },
  {
    method: 'PUT',
    path: '/v1/drivers/{id}',
    operationId: 'updateDriver',
    async handler(ctx, app) {
      const driver = byPathId(ctx, app.world.drivers, 'Driver');
      const patch = await requireShape<UpdateDriverCommand>(API_DOCUMENT, 'UpdateDriverCommand', await ctx.jsonBody());
      if (patch.fleet_id !== undefined) {
        patch.fleet_id = patch.fleet_id.toLowerCase();
        requireFleetOf(app, driver.organization_id, patch.fleet_id);
      }
      app.world.updateDriver(driver, { ...patch, updated_at: app.now().toISOString() });
      return { status: 200, json: driverView(driver) };
    },
  },
];

function requireFleetOf(app: SandboxApp, organizationId: string, fleetId: string): void {
  const fleet = app.world.fleets.get(fleetId);
  if (!fleet || fleet.organization_id !== organizationId) {
    throw invalidBody('fleet_id', `does not name a fleet of organization ${organizationId}`);
  }
}
