// Scenarios: the world they describe (on top of the seed or instead of it), loaded at start or into a running
// sandbox (POST /_sandbox/scenario), kept in the state file, and the mistakes they are refused for.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, S, type Harness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

const FLEET = '0f1ee700-0000-4000-8000-000000000001';
const VAN = '0f1ee700-0000-4000-8000-0000000000a1';
const world = {
  name: 'depot',
  base: 'empty',
  organizations: [{ key: 'depot', name: 'Depot Ltd' }, { key: 'depot-east', name: 'Depot East', parent: 'depot' }],
  fleets: [{ key: 'vans', organization: 'depot', name: 'Vans', id: FLEET }, { key: 'east', organization: 'depot-east', name: 'East' }],
  vehicles: [{ key: 'spare-van', fleet: 'vans', name: 'Spare van', id: VAN }, { fleet: 'east', count: 3 }],
  devices: [
    { fleet: 'vans', count: 10 },
    { fleet: 'vans', hardware_id: 'QUIET-1', capabilities: ['reboot'], last_seen_at: null, vehicle: null },
    { fleet: 'vans', hardware_id: 'PARKED-1', vehicle: 'spare-van', last_seen_at: '15m', live_position: { latitude: 51.5, longitude: -0.12 } },
    { fleet: 'east', hardware_id: 'BLIND-1', live_position: false, last_seen_at: '2020-01-01T00:00:00Z' },
  ],
  drivers: [{ fleet: 'vans', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }],
  clients: [
    { client_id: 'depot-admin', organization: 'depot', scopes: ['all'] },
    { client_id: 'east-reader', organization: 'depot-east', scopes: ['devices_read', 'thirdparty.api.fleets_read'] },
  ],
};

const harnesses: Harness[] = [];
const start = async (opts: Parameters<typeof startHarness>[0]) => {
  const h = await startHarness(opts);
  harnesses.push(h);
  return h;
};
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
});

describe('a scenario instead of the seeded world (base empty)', () => {
  it('has its organizations, fleets, vehicles, devices, drivers and clients, as described', async () => {
    const h = await start({ scenario: world, devices: 500 });
    expect(h.sb.clients.map((c) => c.client_id)).toEqual(['depot-admin', 'east-reader']);
    expect(h.client('east-reader').scopes).toEqual([S('devices_read'), S('fleets_read')]);
    expect(h.sb.organizations.map((o) => o.name)).toEqual(['Depot Ltd', 'Depot East']);
    const admin = h.as('depot-admin');
    const devices = (await admin('GET', '/v1/devices?limit=500')).body.data;
    expect(devices).toHaveLength(13);
    const byHw = Object.fromEntries(devices.map((d: { hardware_id: string }) => [d.hardware_id, d]));
    expect(devices.slice(0, 10).map((d: { hardware_id: string }) => d.hardware_id)).toEqual(Array.from({ length: 10 }, (_, i) => `HW-${String(i + 1).padStart(6, '0')}`));
    expect(byHw['QUIET-1']).toMatchObject({ capabilities: ['reboot'], last_seen_at: null, vehicle_id: null, fleet_id: FLEET });
    expect(byHw['PARKED-1']).toMatchObject({ vehicle_id: VAN, name: 'Spare van unit' });
    expect(Date.now() - Date.parse(byHw['PARKED-1'].last_seen_at)).toBeGreaterThan(14 * 60_000);
    expect(byHw['BLIND-1'].last_seen_at).toBe('2020-01-01T00:00:00.000Z');
    expectProblem(await admin('GET', '/v1/devices/QUIET-1/last-reported'), 404, 'device.never_reported');
    expectProblem(await admin('GET', '/v1/devices/BLIND-1/last-position'), 404, 'device.no_live_position');
    expect((await admin('GET', '/v1/devices/PARKED-1/last-position')).body).toMatchObject({ latitude: 51.5, longitude: -0.12 });
    expect((await admin('GET', `/v1/vehicles?fleet_id=${FLEET}`)).body.data.map((v: { name: string }) => v.name)).toContain('Spare van');
    expect((await admin('GET', `/v1/fleets/${FLEET}`)).body.vehicle_count).toBe(11); // 10 new ones and the spare van
    expect((await admin('GET', '/v1/drivers')).body.data).toEqual([expect.objectContaining({ first_name: 'Ada', email: 'ada@example.com', fleet_id: FLEET })]);
    // the child tenant sees its own tree only; a scope it lacks is refused at the token endpoint
    const east = h.as('east-reader');
    expect((await east('GET', '/v1/devices')).body.data.map((d: { hardware_id: string }) => d.hardware_id)).toEqual(['BLIND-1']);
    const reader = h.client('east-reader');
    const refused = await h.tokenRequest({ grant_type: 'client_credentials', client_id: reader.client_id, client_secret: reader.client_secret, scope: S('drivers_read') });
    expect(refused.body.error).toBe('invalid_scope');
    // a command on the device that lacks the capability
    expectProblem(await admin('POST', '/v1/devices/QUIET-1/commands/wake-up', { headers: { 'idempotency-key': 'w' } }), 422, 'device.capability_missing');
  });

  it('is the same world every time for the same seed (ids drawn from the seed)', async () => {
    const [a, b] = await Promise.all([start({ scenario: world, seed: 4 }), start({ scenario: world, seed: 4 })]);
    const ids = async (h: Harness) => (await h.as('depot-admin')('GET', '/v1/devices?limit=500')).body.data.map((d: { id: string }) => d.id);
    expect(await ids(a)).toEqual(await ids(b));
    expect(a.sb.organizations).toEqual(b.sb.organizations);
  });
});

describe('a scenario on top of the seeded world (base seed)', () => {
  it('keeps the seeded world and its clients, and adds to it under seeded organizations', async () => {
    const h = await start({
      devices: 40,
      scenario: {
        organizations: [{ key: 'west', name: 'Acme West', parent: 'root' }],
        fleets: [{ key: 'w', organization: 'west', name: 'West' }],
        devices: [{ fleet: 'w', count: 2 }],
        webhooks: [{ organization: 'west', is_enabled: true, topics: [{ type: 'alarms', url: 'https://hooks.example.com/west' }], auth_key: 'west-key-0123456789' }],
        clients: [{ client_id: 'bot', organization: 'north', scopes: ['device_commands_reboot'] }],
      },
    });
    expect(h.sb.clients.map((c) => c.client_id)).toEqual(['sandbox-admin', 'sandbox-reader', 'sandbox-child', 'sandbox-reboot-only', 'bot']);
    expect(h.client('bot').organization_id).toBe(h.org('Acme Logistics North').id);
    const west = h.org('Acme West');
    expect(west.parent_id).toBe(h.org('Acme Logistics').id);
    const all = await h.all('/v1/devices?limit=500');
    expect(all.filter((d) => d.organization_id === west.id).map((d) => d.hardware_id)).toEqual(['HW-000041', 'HW-000042']);
    const config = await h.call('GET', `/v1/organizations/${west.id}/webhook-config`);
    expect(config.body).toMatchObject({ is_enabled: true, auth_key_hint: '…6789', topics: [{ type: 'alarms', is_enabled: true, delivery: { url: 'https://hooks.example.com/west' } }] });
    expect((await fetch(`${h.sb.baseUrl}/_sandbox/health`).then((r) => r.json())).devices).toBe(42);
  });
});

describe('POST /_sandbox/scenario', () => {
  it('replaces the world, clients and tokens; reset returns to it; a bad scenario changes nothing', async () => {
    const h = await start({ devices: 20 });
    const oldToken = await h.token();
    const post = (body: unknown) => fetch(`${h.sb.baseUrl}/_sandbox/scenario`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(async (res) => ({ status: res.status, headers: res.headers, text: '', body: await res.json() }));
    const bad = await post({ ...world, devices: [{ fleet: 'trucks' }] });
    expect(expectProblem(bad as never, 400, 'request.invalid_body').invalid_params).toEqual([{ name: 'devices[0].fleet', reason: 'no fleet trucks (define it under fleets)' }]);
    expect((await h.call('GET', '/v1/devices?limit=1')).status).toBe(200); // still the seeded world, still the token

    const loaded = await post(world);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ scenario: 'depot', devices: 13, clients: [expect.objectContaining({ client_id: 'depot-admin' }), expect.objectContaining({ client_id: 'east-reader' })] });
    expectProblem(await h.call('GET', '/v1/devices', { token: oldToken }), 401, 'auth.token_invalid');
    const secret = loaded.body.clients[0].client_secret;
    const issued = await h.tokenRequest({ grant_type: 'client_credentials', client_id: 'depot-admin', client_secret: secret });
    const token = issued.body.access_token;
    const device = (await h.call('GET', '/v1/devices?hardware_id=PARKED-1', { token })).body.data[0];
    await h.call('DELETE', `/v1/devices/${device.id}/assignment`, { token });
    expect((await h.call('GET', `/v1/devices/${device.id}`, { token })).body.vehicle_id).toBeNull();
    expect((await fetch(`${h.sb.baseUrl}/_sandbox/reset`, { method: 'POST' })).status).toBe(204);
    expect((await h.call('GET', `/v1/devices/${device.id}`, { token })).body.vehicle_id).toBe(VAN);
    expect(await fetch(`${h.sb.baseUrl}/_sandbox/health`).then((r) => r.json())).toMatchObject({ scenario: 'depot', devices: 13 });
  });
});

describe('scenario mistakes are refused naming the member', () => {
  const with_ = (patch: object) => ({ ...world, ...patch });
  it.each([
    [with_({ base: 'none' }), 'base: must be one of seed, empty'],
    [with_({ devices: [{ fleet: 'vans', capabilities: ['reboot', 'wakeup'] }] }), 'devices[0].capabilities[1]: must be one of reboot, wake_up'],
    [with_({ devices: [{ fleet: 'vans', last_seen_at: 'yesterday' }] }), 'devices[0].last_seen_at: must be an RFC 3339 date-time, a time before start-up such as 90s'],
    [with_({ devices: [{ fleet: 'vans', capabilites: [] }] }), 'devices[0].capabilites: is not a known member'],
    [with_({ clients: [{ client_id: 'x', organization: 'depot', scopes: ['devices_reed'] }] }), 'clients[0].scopes[0]: must be a scope of the API such as devices_read'],
    [with_({ devices: [{ fleet: 'vans', count: 2, hardware_id: 'A' }] }), 'devices[0].hardware_id: names a single device'],
    [with_({ devices: [{ fleet: 'vans', hardware_id: 'A' }, { fleet: 'vans', hardware_id: 'A' }] }), 'devices[1].hardware_id: duplicate hardware id A'],
    [with_({ devices: [{ fleet: 'vans', vehicle: 'nope' }] }), 'devices[0].vehicle: no vehicle nope'],
    [with_({ devices: [{ fleet: 'east', vehicle: 'spare-van' }] }), 'devices[0].vehicle: spare-van is a vehicle of another fleet'],
    [with_({ devices: [{ fleet: 'vans', vehicle: 'spare-van' }, { fleet: 'vans', vehicle: 'spare-van' }] }), 'devices[1].vehicle: spare-van already holds HW-000001'],
    [with_({ devices: [{ fleet: 'vans', last_seen_at: '2999-01-01T00:00:00Z' }] }), 'devices[0].last_seen_at: 2999-01-01T00:00:00Z is in the future'],
    [with_({ organizations: [{ key: 'a', name: 'A', parent: 'b' }, { key: 'b', name: 'B' }] }), 'organizations[0].parent: no organization b'],
    [with_({ fleets: [{ key: 'vans', organization: 'depot', name: 'x' }, { key: 'vans', organization: 'depot', name: 'y' }] }), 'fleets[1].key: vans names another fleet already'],
    [with_({ clients: [] }), 'clients: a scenario with base empty needs at least one client'],
    [with_({ webhooks: [{ organization: 'depot', topics: [{ type: 'events', url: 'http://hooks.example.com/x' }] }] }), 'webhooks[0].topics[0].url: '],
    [with_({ organizations: [{ key: 'root', name: 'Root' }], base: 'seed' }), 'organizations[0].key: root names another organization already'],
  ])('%#: %s', async (scenario, message) => {
    await expect(startHarness({ scenario })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining(`scenario: ${message}`) });
  });

  it('a scenario file: YAML or JSON, its name in the message', async () => {
    const dir = tempDir('fleetctl-scenario-');
    const yaml = path.join(dir, 'world.yaml');
    writeFileSync(yaml, 'base: empty\norganizations:\n  - {key: o, name: O}\nclients:\n  - {client_id: c, organization: o, scopes: [all]}\nfleets:\n  - {key: f, organization: o, name: F}\ndevices:\n  - {fleet: f, count: 3}\n');
    const h = await start({ scenarioFile: yaml });
    expect((await h.as('c')('GET', '/v1/devices')).body.data).toHaveLength(3);
    const json = path.join(dir, 'bad.json');
    writeFileSync(json, JSON.stringify({ base: 'empty', fleets: [{ key: 'f', organization: 'nowhere', name: 'F' }] }));
    await expect(startHarness({ scenarioFile: json })).rejects.toThrow(`${json}: fleets[0].organization: no organization nowhere`);
  });
});

describe('a scenario in the state file', () => {
  it('is rebuilt at restart with the same ids, and the changes made through the API on top', async () => {
    const statePath = path.join(tempDir('fleetctl-scenario-state-'), 'state.json');
    // a sandbox saves its state file again when it closes, and would make the directory anew after the test
    // removed it: both are closed before the test ends (closing twice is harmless)
    const started: Harness[] = [];
    try {
      const first = await startHarness({ scenario: world, statePath });
      started.push(first);
      const device = (await first.as('depot-admin')('GET', '/v1/devices?hardware_id=PARKED-1')).body.data[0];
      await first.as('depot-admin')('DELETE', `/v1/devices/${device.id}/assignment`);
      await first.close();
      const again = await start({ statePath });
      started.push(again);
      const after = (await again.as('depot-admin')('GET', `/v1/devices/${device.id}`)).body;
      expect(after).toMatchObject({ hardware_id: 'PARKED-1', vehicle_id: null });
      expect(again.sb.clients.map((c) => c.client_id)).toEqual(['depot-admin', 'east-reader']);
    } finally {
      await Promise.all(started.map((h) => h.close()));
    }
  });
});
