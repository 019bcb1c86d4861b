// Drivers: list, create (201 + Location), get, update (spec: Drivers).
// Sandbox choices: an organization_id not in the tenant (even unknown) is 403 tenant.forbidden; a fleet_id that is not a
// fleet of that organization (or not visible) is 400 request.invalid_body; a driver keeps its organization.
import { randomUUID } from 'node:crypto';
import { uuidParam } from '../http/params.js';
import { invalidBody, problem } from '../http/problems.js';
import { enumField, rejectUnknownFields, requireObject, stringField, uuidField, type JsonObject } from '../http/body-schema.js';
import { requireOrganizationFilterInTenant } from './lookup.js';
import { pageOfTenantCollection } from './tenant-list.js';
import { driverView } from './views.js';
import type { ApiContext } from '../http/context.js';
import type { ApiRoute, SandboxApp } from '../app.js';
import type { DriverRecord, DriverStatus } from '../store/records.js';

const OPTIONAL_FIELDS = ['email', 'phone', 'license_number', 'employee_id'] as const;
const CREATE_FIELDS = ['organization_id', 'fleet_id', 'first_name', 'last_name', ...OPTIONAL_FIELDS];
const UPDATE_FIELDS = ['first_name', 'last_name', 'fleet_id', 'status', ...OPTIONAL_FIELDS];
const STATUSES: readonly DriverStatus[] = ['active', 'inactive'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
      const body = requireObject(await ctx.jsonBody());
      rejectUnknownFields(body, CREATE_FIELDS);
      const organizationId = uuidField(body, 'organization_id', true)!;
      const fleetId = uuidField(body, 'fleet_id', true)!;
      const names = { first_name: stringField(body, 'first_name', { required: true, min: 1, max: 100 })!, last_name: stringField(body, 'last_name', { required: true, min: 1, max: 100 })! };
      const optional = optionalFields(body);
      // spec: the driver is created in an organization and fleet within the caller's tenant
      requireOrganizationFilterInTenant(ctx, app, organizationId);
      requireFleetOf(app, organizationId, fleetId);
      const at = app.now().toISOString();
      const driver: DriverRecord = {
        seq: app.world.nextDriverSeq(),
        id: randomUUID(),
        organization_id: organizationId,
        fleet_id: fleetId,
        ...names,
        email: null,
        phone: null,
        license_number: null,
        employee_id: null,
        ...optional,
        status: 'active',
        created_at: at,
        updated_at: at,
      };
      app.world.addDriver(driver);
      app.changed();
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
    handler: (ctx, app) => ({ status: 200, json: driverView(visibleDriver(ctx, app)) }),
  },
  {
    method: 'PUT',
    path: '/v1/drivers/{id}',
    operationId: 'updateDriver',
    async handler(ctx, app) {
      const driver = visibleDriver(ctx, app);
      const body = requireObject(await ctx.jsonBody());
      rejectUnknownFields(body, UPDATE_FIELDS);
      if (Object.keys(body).length === 0) {
        throw problem(400, 'request.invalid_body', `Give at least one field to update: ${UPDATE_FIELDS.join(', ')}.`);
      }
      const patch: Partial<DriverRecord> = { ...optionalFields(body) };
      const first = stringField(body, 'first_name', { min: 1, max: 100 });
      const last = stringField(body, 'last_name', { min: 1, max: 100 });
      if (first) patch.first_name = first;
      if (last) patch.last_name = last;
      const status = enumField(body, 'status', STATUSES);
      if (status) patch.status = status;
      const fleetId = uuidField(body, 'fleet_id', false);
      if (fleetId) {
        requireFleetOf(app, driver.organization_id, fleetId);
        patch.fleet_id = fleetId;
      }
      app.world.updateDriver(driver, { ...patch, updated_at: app.now().toISOString() });
      app.changed();
      return { status: 200, json: driverView(driver) };
    },
  },
];

function visibleDriver(ctx: ApiContext, app: SandboxApp): DriverRecord {
  const id = uuidParam('id', ctx.params.id!);
  return ctx.auth.tenant.visible(app.world.drivers.get(id), `Driver ${id}`);
}

function requireFleetOf(app: SandboxApp, organizationId: string, fleetId: string): void {
  const fleet = app.world.fleets.get(fleetId);
  if (!fleet || fleet.organization_id !== organizationId) {
    throw invalidBody('fleet_id', `does not name a fleet of organization ${organizationId}`);
  }
}

function optionalFields(body: JsonObject): Partial<Pick<DriverRecord, (typeof OPTIONAL_FIELDS)[number]>> {
  const out: Partial<Record<(typeof OPTIONAL_FIELDS)[number], string | null>> = {};
  for (const name of OPTIONAL_FIELDS) {
    const value = stringField(body, name, { nullable: true, min: 1, max: name === 'email' ? 254 : 64 });
    if (value === undefined) continue;
    if (name === 'email' && value !== null && !EMAIL.test(value)) throw invalidBody('email', 'must be an email address');
    out[name] = value;
  }
  return out;
}
