// `fleetctl api` end to end: the built CLI against a real sandbox, its served OpenAPI document and its errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/openapi/operations.js';
import { startHarness, type CliResult, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let h: SandboxHarness;
let rootOrg: string;
let rootFleet: string;

const lines = (r: CliResult) => r.stdout.trim().split('\n');
const requests = (stderr: string) => [...stderr.matchAll(/^\[debug\] > (\w+) \S+?(\/(?:v1|openapi)\/\S*)$/gm)].map((m) => `${m[1]} ${m[2]!.replace(/\?.*$/, '')}`);

beforeAll(async () => {
  h = await startHarness();
  rootOrg = h.envFor('sandbox-admin').FLEETCTL_ORGANIZATION_ID!;
  rootFleet = lines(await h.cli(['fleets', 'list', '--organization-id', rootOrg, '--limit', '1', '--columns', 'id', '-o', 'csv']))[1]!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('fleetctl api end to end', { timeout: 60_000 }, () => {
  it('--list: every operation of the served document with its scope', async () => {
    const r = await h.cli(['api', '--list', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r)).toHaveLength(OPERATIONS.length + 1);
    expect(lines(r)).toContain('GET,/v1/journeys,thirdparty.api.journeys_read,listJourneys');
  });

  it('GET: reads the served document (no token), then calls with the scope it names; prints the JSON', async () => {
    const configDir = tempDir('fleetctl-e2e-api-');
    const r = await h.cli(['api', 'GET', `/v1/fleets/${rootFleet}`, '--debug'], { env: { FLEETCTL_CONFIG_DIR: configDir } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: rootFleet, organization_id: rootOrg });
    expect(requests(r.stderr)).toEqual(['GET /openapi/v1.json', `GET /v1/fleets/${rootFleet}`]);
    expect(r.stderr).toContain('fetching a token for scope thirdparty.api.fleets_read');
  });

  it('POST with --input: 201 and the created driver; -f fields make the body of a PUT', async () => {
    const input = JSON.stringify({ organization_id: rootOrg, fleet_id: rootFleet, first_name: 'Api', last_name: 'Made' });
    const created = await h.cli(['api', 'POST', '/v1/drivers', '--input', '-'], { input });
    expect(created.code, created.stderr).toBe(0);
    const driver = JSON.parse(created.stdout) as { id: string };
    const updated = await h.cli(['api', 'PUT', `/v1/drivers/${driver.id}`, '-f', 'last_name=Changed', '-F', 'phone=null']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: driver.id, last_name: 'Changed', phone: null });
  });

  it('--paginate follows every page and emits the items', async () => {
    const paged = await h.cli(['api', 'GET', '/v1/organizations', '-f', 'limit=1', '--paginate', '-o', 'ndjson']);
    expect(paged.code, paged.stderr).toBe(0);
    const named = await h.cli(['organizations', 'list', '--all', '-o', 'ndjson']);
    expect(lines(paged)).toEqual(lines(named));
    expect(lines(paged).length).toBeGreaterThan(1);
  });

  it('an unknown path, or a method the path does not take: exit 2 before any API request', async () => {
    const unknown = await h.cli(['api', 'GET', '/v1/teleporters', '--debug']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Error: "/v1/teleporters" is not a path of the API document');
    expect(requests(unknown.stderr)).toEqual(['GET /openapi/v1.json']);
    const method = await h.cli(['api', 'DELETE', '/v1/drivers']);
    expect(method.code).toBe(2);
    expect(method.stderr).toContain('Error: DELETE "/v1/drivers" is not an operation of the API: that path takes GET, POST');
  });

  it('API errors keep their exit codes: 404 → 5, 400 → 2', async () => {
    const missing = await h.cli(['api', 'GET', '/v1/drivers/00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('(resource.not_found, HTTP 404)');
    const bad = await h.cli(['api', 'GET', '/v1/drivers/not-a-uuid']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('HTTP 400');
  });

  it('--idempotency-key: the same key replays; the same key with another body is 422 idempotency.conflict, exit 7', async () => {
    const first = await h.cli(['api', 'POST', '/v1/devices/HW-000001/commands/reboot', '--idempotency-key', 'api-e2e-1']);
    expect(first.code, first.stderr).toBe(0);
    const again = await h.cli(['api', 'POST', '/v1/devices/HW-000001/commands/reboot', '--idempotency-key', 'api-e2e-1']);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    const other = await h.cli(['api', 'POST', '/v1/devices/HW-000001/commands/reboot', '--idempotency-key', 'api-e2e-1', '-f', 'reason=other']);
    expect(other.code, other.stderr).toBe(7);
    expect(other.stderr).toContain('idempotency.conflict');
    const tooLong = await h.cli(['api', 'POST', '/v1/devices/HW-000001/commands/reboot', '--idempotency-key', 'k'.repeat(201)]);
    expect(tooLong.code).toBe(2);
  });

  it('a wrong client secret: exit 3; an organization outside the tenant: exit 4', async () => {
    const configDir = tempDir('fleetctl-e2e-api-');
    const wrong = await h.cli(['api', 'GET', '/v1/fleets'], { env: { FLEETCTL_CLIENT_SECRET: 'wrong', FLEETCTL_CONFIG_DIR: configDir } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('invalid_client');
    const outside = await h.cli(['api', 'GET', `/v1/organizations/${rootOrg}`], { client: 'sandbox-child' });
    expect(outside.code).toBe(4);
    expect(outside.stderr).toContain('tenant.forbidden');
  });
});
