import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let fleets: any[];
beforeAll(async () => {
  h = await startHarness();
  fleets = await h.all('/v1/fleets');
});
afterAll(() => h.close());

const newDriver = (fleet: any, extra: Record<string, unknown> = {}) => ({
  organization_id: fleet.organization_id, fleet_id: fleet.id, first_name: 'Ada', last_name: 'Lovelace', ...extra,
});

describe('drivers', () => {
  it('creates a driver: 201, Location with the absolute URL, then gets it there', async () => {
    const res = await h.call('POST', '/v1/drivers', { body: newDriver(fleets[0], { email: 'ada@example.com' }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: null, status: 'active' });
    expect(res.headers.get('location')).toBe(`${h.sb.baseUrl}/v1/drivers/${res.body.id}`);
    const token = await h.token();
    const got = await fetch(res.headers.get('location')!, { headers: { authorization: `Bearer ${token}` } });
    expect(await got.json()).toEqual(res.body);
  });

  it('validates the create body (400 request.invalid_body) and the tenant (403)', async () => {
    expectProblem(await h.call('POST', '/v1/drivers', { body: { ...newDriver(fleets[0]), first_name: '' } }), 400, 'request.invalid_body');
    expectProblem(await h.call('POST', '/v1/drivers', { body: { ...newDriver(fleets[0]), nickname: 'x' } }), 400, 'request.invalid_body');
    expectProblem(await h.call('POST', '/v1/drivers', { body: { ...newDriver(fleets[0]), last_name: undefined } }), 400, 'request.invalid_body');
    expectProblem(await h.call('POST', '/v1/drivers', { body: { ...newDriver(fleets[0]), email: 'nope' } }), 400, 'request.invalid_body');
    // a fleet of another organization
    const other = fleets.find((f) => f.organization_id !== fleets[0].organization_id);
    expectProblem(await h.call('POST', '/v1/drivers', { body: { ...newDriver(fleets[0]), fleet_id: other.id } }), 400, 'request.invalid_body');
    const child = await h.token('sandbox-child');
    const south = fleets.find((f) => f.organization_id === h.org('Acme Logistics South').id);
    expectProblem(await h.call('POST', '/v1/drivers', { token: child, body: newDriver(south) }), 403, 'tenant.forbidden');
  });

  it('updates mutable attributes with PUT; at least one field; unknown fields are 400', async () => {
    const created = (await h.call('POST', '/v1/drivers', { body: newDriver(fleets[1]) })).body;
    const sameOrgFleet = fleets.find((f) => f.organization_id === fleets[1].organization_id && f.id !== fleets[1].id);
    const res = await h.call('PUT', `/v1/drivers/${created.id}`, { body: { status: 'inactive', phone: '+15550100', fleet_id: sameOrgFleet.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: 'inactive', phone: '+15550100', fleet_id: sameOrgFleet.id, first_name: 'Ada' });
    expect((await h.call('GET', `/v1/drivers/${created.id}`)).body).toEqual(res.body);
    expectProblem(await h.call('PUT', `/v1/drivers/${created.id}`, { body: {} }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', `/v1/drivers/${created.id}`, { body: { organization_id: created.organization_id } }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', `/v1/drivers/${created.id}`, { body: { status: 'retired' } }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', '/v1/drivers/7c9e6679-7425-40de-944b-e07fc1f90ae7', { body: { status: 'active' } }), 404, 'resource.not_found');
  });

  it('lists with organization_id and fleet_id filters', async () => {
    const all = await h.all('/v1/drivers?limit=500');
    expect(all.length).toBeGreaterThan(10);
    const org = fleets[2].organization_id;
    const byOrg = await h.all(`/v1/drivers?organization_id=${org}`);
    expect(byOrg.length).toBe(all.filter((d) => d.organization_id === org).length);
    const byFleet = await h.all(`/v1/drivers?fleet_id=${fleets[2].id}`);
    expect(byFleet.length).toBeGreaterThan(0);
    expect(byFleet.every((d) => d.fleet_id === fleets[2].id)).toBe(true);
    expectProblem(await h.call('GET', '/v1/drivers/not-a-uuid'), 400, 'request.invalid_parameter');
  });
});
