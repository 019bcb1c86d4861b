import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let devices: any[];
beforeAll(async () => {
  h = await startHarness();
  devices = await h.all('/v1/devices?limit=500');
});
afterAll(() => h.close());

describe('devices', () => {
  it('has the contract fields and seeded variety', () => {
    expect(Object.keys(devices[0]).sort()).toEqual([
      'capabilities', 'created_at', 'firmware_version', 'fleet_id', 'hardware_id', 'id', 'last_seen_at', 'model', 'name',
      'organization_id', 'vehicle_id',
    ]);
    expect(devices.some((d) => d.vehicle_id === null)).toBe(true);
    expect(devices.some((d) => !d.capabilities.includes('reboot'))).toBe(true);
    expect(devices.some((d) => !d.capabilities.includes('wake_up'))).toBe(true);
    expect(devices.some((d) => d.last_seen_at === null)).toBe(true);
  });

  it('filters by organization_id, fleet_id and hardware_id', async () => {
    const d = devices[3];
    const byOrg = await h.all(`/v1/devices?organization_id=${d.organization_id}`);
    expect(byOrg.every((x) => x.organization_id === d.organization_id)).toBe(true);
    expect(byOrg.length).toBe(devices.filter((x) => x.organization_id === d.organization_id).length);
    const byFleet = await h.all(`/v1/devices?fleet_id=${d.fleet_id}`);
    expect(byFleet.length).toBe(devices.filter((x) => x.fleet_id === d.fleet_id).length);
    const byHw = await h.call('GET', `/v1/devices?hardware_id=${d.hardware_id}`);
    expect(byHw.body.data).toEqual([d]);
  });

  it('gets one device by id; 404 unknown; 400 for a malformed uuid', async () => {
    expect((await h.call('GET', `/v1/devices/${devices[0].id}`)).body).toEqual(devices[0]);
    expectProblem(await h.call('GET', '/v1/devices/7c9e6679-7425-40de-944b-e07fc1f90ae7'), 404, 'resource.not_found');
    const p = expectProblem(await h.call('GET', '/v1/devices/not-a-uuid'), 400, 'request.invalid_parameter');
    expect(p.invalid_params[0].name).toBe('id');
    expectProblem(await h.call('GET', '/v1/devices?fleet_id=nope'), 400, 'request.invalid_parameter');
  });

  it('last-reported: 200 with state, 404 device.never_reported', async () => {
    const reported = devices.find((d) => d.last_seen_at !== null);
    const res = await h.call('GET', `/v1/devices/${reported.hardware_id}/last-reported`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hardware_id: reported.hardware_id, reported_at: reported.last_seen_at });
    const never = devices.find((d) => d.last_seen_at === null);
    expectProblem(await h.call('GET', `/v1/devices/${never.hardware_id}/last-reported`), 404, 'device.never_reported');
    expectProblem(await h.call('GET', '/v1/devices/NO-SUCH-HW/last-reported'), 404, 'resource.not_found');
  });

  it('last-position: 200 with a position, 404 device.no_live_position', async () => {
    let found = { ok: 0, none: 0 };
    for (const d of devices.slice(0, 30)) {
      const res = await h.call('GET', `/v1/devices/${d.hardware_id}/last-position`);
      if (res.status === 200) {
        expect(Object.keys(res.body).sort()).toEqual(['hardware_id', 'heading', 'is_valid_gps', 'latitude', 'longitude', 'recorded_at', 'speed_kph']);
        found.ok++;
      } else {
        expectProblem(res, 404, 'device.no_live_position');
        found.none++;
      }
    }
    expect(found.ok).toBeGreaterThan(0);
    expect(found.none).toBeGreaterThan(0);
  });
});

describe('device assignment state machine', () => {
  it('PUT assigns to a vehicle in the tenant and answers 200 with the device', async () => {
    const device = devices.find((d) => d.vehicle_id === null);
    const vehicle = (await h.all(`/v1/vehicles?organization_id=${device.organization_id}&limit=500`))[0];
    const res = await h.call('PUT', `/v1/devices/${device.id}/assignment`, { body: { vehicle_id: vehicle.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: device.id, vehicle_id: vehicle.id, fleet_id: vehicle.fleet_id });
    expect((await h.call('GET', `/v1/devices/${device.id}`)).body.vehicle_id).toBe(vehicle.id);
    // the device now lists under the vehicle's fleet
    const byFleet = await h.all(`/v1/devices?fleet_id=${vehicle.fleet_id}`);
    expect(byFleet.some((d) => d.id === device.id)).toBe(true);
  });

  it('DELETE unassigns with 204, and is idempotent', async () => {
    const device = devices.find((d) => d.vehicle_id !== null);
    const first = await h.call('DELETE', `/v1/devices/${device.id}/assignment`);
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    expect((await h.call('GET', `/v1/devices/${device.id}`)).body.vehicle_id).toBeNull();
    expect((await h.call('DELETE', `/v1/devices/${device.id}/assignment`)).status).toBe(204);
  });

  it('404 for an unknown device on PUT and DELETE', async () => {
    const unknown = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    expectProblem(await h.call('DELETE', `/v1/devices/${unknown}/assignment`), 404, 'resource.not_found');
    expectProblem(await h.call('PUT', `/v1/devices/${unknown}/assignment`, { body: { vehicle_id: unknown } }), 404, 'resource.not_found');
  });

  it('400 request.invalid_body for a vehicle that is unknown or of another tenant, or a bad body', async () => {
    const device = devices[0];
    const unknown = await h.call('PUT', `/v1/devices/${device.id}/assignment`, { body: { vehicle_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } });
    expect(expectProblem(unknown, 400, 'request.invalid_body').invalid_params[0].name).toBe('vehicle_id');
    const childToken = await h.token('sandbox-child');
    const mine = (await h.all('/v1/devices?limit=500', childToken))[0];
    const tenant = new Set([h.org('Acme Logistics North').id, h.org('Acme North Depot').id]);
    const foreign = (await h.all('/v1/vehicles?limit=500')).find((v) => !tenant.has(v.organization_id));
    const res = await h.call('PUT', `/v1/devices/${mine.id}/assignment`, { token: childToken, body: { vehicle_id: foreign.id } });
    expectProblem(res, 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', `/v1/devices/${device.id}/assignment`, { body: {} }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', `/v1/devices/${device.id}/assignment`, { body: { vehicle_id: 'x' } }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', `/v1/devices/${device.id}/assignment`, { rawBody: '{nope', headers: { 'content-type': 'application/json' } }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', `/v1/devices/${device.id}/assignment`, { rawBody: 'vehicle_id=x', headers: { 'content-type': 'text/plain' } }), 415, 'request.unsupported_media_type');
  });
});
