import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let child: Awaited<ReturnType<Harness['as']>>;
let tenantOrgs: Set<string>;
beforeAll(async () => {
  h = await startHarness();
  child = h.as('sandbox-child');
  tenantOrgs = new Set([h.org('Acme Logistics North').id, h.org('Acme North Depot').id]);
});
afterAll(() => h.close());

describe('tenancy: an organization and its descendants', () => {
  it('seeds a root with two children, a grandchild below one child, and an unrelated root', () => {
    const root = h.org('Acme Logistics');
    expect(root.parent_id).toBeNull();
    expect(h.org('Acme Logistics North').parent_id).toBe(root.id);
    expect(h.org('Acme Logistics South').parent_id).toBe(root.id);
    expect(h.org('Acme North Depot').parent_id).toBe(h.org('Acme Logistics North').id);
    expect(h.org('Globex Haulage').parent_id).toBeNull();
    expect(h.client('sandbox-child').organization_id).toBe(h.org('Acme Logistics North').id);
  });

  it('lists only the tenant in every collection', async () => {
    const token = await h.token('sandbox-child');
    for (const path of ['/v1/devices?limit=500', '/v1/drivers?limit=500', '/v1/fleets?limit=500', '/v1/vehicles?limit=500']) {
      const items = await h.all(path, token);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(tenantOrgs.has(item.organization_id)).toBe(true);
    }
    const orgs = await h.all('/v1/organizations', token);
    expect(new Set(orgs.map((o) => o.id))).toEqual(tenantOrgs);
  });

  it('never shows the unrelated organization to the root admin', async () => {
    const unrelated = h.org('Globex Haulage').id;
    for (const path of ['/v1/devices?limit=500', '/v1/drivers?limit=500', '/v1/fleets', '/v1/vehicles?limit=500', '/v1/organizations']) {
      const items = await h.all(path);
      expect(items.some((i) => i.organization_id === unrelated || i.id === unrelated)).toBe(false);
    }
  });

  it('403 tenant.forbidden for an organization outside the tenant', async () => {
    const south = h.org('Acme Logistics South').id;
    expectProblem(await child('GET', `/v1/devices?organization_id=${south}`), 403, 'tenant.forbidden');
    expectProblem(await child('GET', `/v1/organizations/${south}`), 403, 'tenant.forbidden');
    expectProblem(await child('GET', `/v1/organizations/${south}/webhook-config`), 403, 'tenant.forbidden');
    expectProblem(await h.call('GET', `/v1/drivers?organization_id=${h.org('Globex Haulage').id}`), 403, 'tenant.forbidden');
  });

  it('404 for an unknown organization', async () => {
    expectProblem(await h.call('GET', '/v1/organizations/00000000-0000-4000-8000-000000000000'), 404, 'resource.not_found');
  });

  it("404 (not 403) for another tenant's resources asked for by id", async () => {
    const admin = await h.all('/v1/devices?limit=500');
    const outside = admin.find((d) => !tenantOrgs.has(d.organization_id))!;
    expectProblem(await child('GET', `/v1/devices/${outside.id}`), 404, 'resource.not_found');
    expectProblem(await child('GET', `/v1/devices/${outside.hardware_id}/last-reported`), 404, 'resource.not_found');
    expectProblem(await child('PUT', `/v1/devices/${outside.id}/assignment`, { body: { vehicle_id: outside.vehicle_id ?? outside.id } }), 404, 'resource.not_found');
    const fleet = (await h.all('/v1/fleets')).find((f) => !tenantOrgs.has(f.organization_id))!;
    expectProblem(await child('GET', `/v1/fleets/${fleet.id}`), 404, 'resource.not_found');
    const driver = (await h.all('/v1/drivers?limit=500')).find((d) => !tenantOrgs.has(d.organization_id))!;
    expectProblem(await child('GET', `/v1/drivers/${driver.id}`), 404, 'resource.not_found');
    // a foreign filter value just finds nothing
    const res = await child('GET', `/v1/devices?fleet_id=${fleet.id}`);
    expect(res.body.data).toEqual([]);
  });

  it('lists descendants of an organization', async () => {
    const res = await h.call('GET', `/v1/organizations/${h.org('Acme Logistics').id}/descendants`);
    expect(res.body.data.map((o: any) => o.name).sort()).toEqual(['Acme Logistics North', 'Acme Logistics South', 'Acme North Depot']);
  });
});
