import { describe, expect, it } from 'vitest';
import { newVehiclesListCommand, vehiclesListRun, type VehiclesListOptions } from '../../../src/commands/vehicles/list.js';
import { newVehiclesGetCommand, vehiclesGetRun } from '../../../src/commands/vehicles/get.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const ORG = '11111111-1111-4111-8111-111111111111';
const FLEET = '22222222-2222-4222-8222-222222222222';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const vehicle = { id: VEHICLE, organization_id: ORG, fleet_id: FLEET, name: 'Van 1', vin: 'V1', license_plate: 'AB-123', make: 'Ford', model: 'Transit', year: 2021 };

describe('vehicles', () => {
  it.each([
    { argv: ['--organization-id', ORG, '--fleet-id', FLEET], want: { organizationId: ORG, fleetId: FLEET } },
    { argv: ['--fleet-id', 'f'], error: '--fleet-id must be a UUID' },
    { argv: ['--limit', 'ten'], error: '--limit must be a whole number from 1 to 500, got "ten"' },
  ])('list parses $argv', async ({ argv, want, error }) => {
    const { run, calls } = recordRun<VehiclesListOptions>();
    const promise = parseVerb(newVehiclesListCommand(fakeDeps().deps, run), argv);
    if (error) return expect(promise).rejects.toThrow(error);
    await promise;
    expect(calls[0]).toMatchObject(want!);
  });

  it.each([true, false])('list renders (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, answers: [{ method: 'GET', path: `/v1/vehicles?organization_id=${ORG}&limit=50`, body: { data: [vehicle], has_more: false, next_cursor: null } }] });
    await vehiclesListRun(f.deps, { organizationId: ORG, paging: { limit: 50, all: false } });
    expect(f.sent[0]!.scope).toBe('thirdparty.api.vehicles_read');
    if (tty) expect(f.io.stdout()).toMatch(/LICENSE PLATE/);
    else expect(f.io.stdout()).toBe(`id\tname\tlicense_plate\tmake\tmodel\tyear\tfleet_id\n${VEHICLE}\tVan 1\tAB-123\tFord\tTransit\t2021\t${FLEET}\n`);
  });

  it('get checks the id and prints the vehicle', async () => {
    await expect(parseVerb(newVehiclesGetCommand(fakeDeps().deps), ['1'])).rejects.toThrow('vehicle id must be a UUID');
    const f = fakeDeps({ answers: [{ method: 'GET', path: `/v1/vehicles/${VEHICLE}`, body: vehicle }] });
    await vehiclesGetRun(f.deps, { id: VEHICLE });
    expect(f.io.stdout()).toContain('license_plate\tAB-123\n');
  });
});
