// Issue 33, must-show 2 and 7: the second service describes itself as OpenAPI generators write a document (allOf
// wrappers around referenced bases, nullable written three ways, $ref chains, referenced parameters, bodies,
// answers and path items: test/support/second-service/openapi.ts), and fleetctl reads it as the same API: status
// counts by the nullable report time, devices assign sends the member the allOf body names, a nullable string
// member keeps digits a string, and --sort takes a nullable date-time. Then every nullable spelling alone.
import { describe, expect, it } from 'vitest';
import { BIG_FLEET_SIZE, GENERATED_FORMS, seedUuid, type DocumentForms, type SecondService } from '../support/second-service.js';
import { report, startSecondHarness, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

let h: SecondHarness;
useSecondHarness((started) => (h = started));
const svc = (): SecondService => h.svc;

const ADMIN_DEVICES = BIG_FLEET_SIZE + 4;
const FLEET_1 = seedUuid(0xf1, 1);
const VEHICLE_2 = seedUuid(0x7e, 2);
// seeded: device n reported n minutes ago (1, 2, 3, 100..219, 900); one hour makes three fresh
const FRESH = { total: ADMIN_DEVICES, reporting: 3, stale: ADMIN_DEVICES - 3, never_reported: 0, unknown: 0, report_time_field: 'reported_at', report_time_source: 'document', note: null };

describe('a served document in generated forms', { timeout: 120_000 }, () => {
  it('the document really is written in those forms', async () => {
    const doc = (await (await fetch(`${svc().baseUrl}/openapi/v1.json`)).json()) as { paths: Record<string, { $ref?: string }>; components: { schemas: Record<string, unknown> } };
    expect(doc.paths['/v1/devices']?.$ref).toMatch(/^#\/components\/pathItems\//);
    expect(doc.components.schemas.AssignCommand).toMatchObject({ allOf: [{ $ref: '#/components/schemas/AssignTarget' }, { required: ['vehicleId'] }] });
    const text = JSON.stringify(doc);
    for (const form of ['"anyOf":[', '"nullable":true', '"type":["string","null"]']) expect(text).toContain(form);
  });

  it('status counts freshness by reported_at, a nullable date-time inside an allOf', async () => {
    const args = ['status', '-o', 'json', '--stale-after', '1h'];
    // the built CLI: the libraries that compose the document run as bundled
    const r = await h.cli(args, { process: true });
    expect(r.code, report(args, r)).toBe(0);
    expect(JSON.parse(r.stdout).devices, report(args, r)).toEqual(FRESH);
  });

  it('devices assign sends the vehicle in the member the allOf body names (vehicleId, through a $ref chain)', async () => {
    const from = svc().requests.length;
    const args = ['devices', 'assign', 'TLM-00003', '--vehicle-id', VEHICLE_2, '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    const put = svc().requests.slice(from).find((q) => q.method === 'PUT' && q.path.endsWith('/assignment'))!;
    expect(JSON.parse(String(put.body))).toEqual({ vehicleId: VEHICLE_2 });
    expect(put.status).toBe(200);
  });

  it('drivers create --employee-id 1815 sends the text 1815: the member is a nullable string', async () => {
    const from = svc().requests.length;
    const args = ['drivers', 'create', '--fleet-id', FLEET_1, '--field', 'given_name=Ada', '--field', 'family_name=Lovelace', '--employee-id', '1815', '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    const post = svc().requests.slice(from).find((q) => q.method === 'POST' && q.path === '/v1/drivers')!;
    expect(JSON.parse(String(post.body)).employee_id).toBe('1815');
    expect(JSON.parse(r.stdout).employee_id).toBe('1815');
  });

  it('a list parameter is written as the document says: fleet_ids as one comma-separated value (form, not exploded)', async () => {
    const from = svc().requests.length;
    const fleet2 = seedUuid(0xf1, 2);
    const args = ['events', 'search', '--fleet-id', FLEET_1, '--fleet-id', fleet2, '--since', '1d', '--limit', '5', '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    const search = svc().requests.slice(from).find((q) => q.path === '/v1/events')!;
    expect(search.query.getAll('fleet_ids')).toEqual([`${FLEET_1},${fleet2}`]);
  });

  it('--sort on a nullable date-time: accepted, and the records come in that order', async () => {
    const args = ['devices', 'list', '--limit', '10', '--sort', '-reported_at', '--columns', 'hardware_id,reported_at', '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    const times = (JSON.parse(r.stdout) as { reported_at: string }[]).map((d) => Date.parse(d.reported_at));
    expect(times.length).toBe(10);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('each nullable spelling alone, and the plain document', { timeout: 120_000 }, () => {
  const variants: [string, DocumentForms][] = [
    ['anyOf with null', { ...GENERATED_FORMS, nullable: 'anyOf' }],
    ['oneOf with null', { ...GENERATED_FORMS, nullable: 'oneOf' }],
    ["3.0's nullable: true", { ...GENERATED_FORMS, nullable: 'nullable-true' }],
    ['a type list', { ...GENERATED_FORMS, nullable: 'type-list' }],
    ['no wrappers, no references', { nullable: 'anyOf', allOfWrappers: false, references: false }],
  ];
  it.each(variants)('%s: status counts the same, and --employee-id stays a string', async (_name, documentForms) => {
    const harness = await startSecondHarness({ documentForms });
    try {
      const status = await harness.cli(['status', '-o', 'json', '--stale-after', '1h']);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).devices).toEqual(FRESH);
      const args = ['drivers', 'create', '--fleet-id', FLEET_1, '--field', 'given_name=Ada', '--field', 'family_name=Byron', '--employee-id', '42', '-o', 'json'];
      const created = await harness.cli(args);
      expect(created.code, report(args, created)).toBe(0);
      expect(JSON.parse(created.stdout).employee_id).toBe('42');
    } finally {
      await harness.close();
    }
  });
});
