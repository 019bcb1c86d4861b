// drivers, events, fleets, vehicles, organizations and journeys end to end: the built CLI against a real
// sandbox, success and each documented error of each endpoint with its exit code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { startHarness, type CliResult, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let h: SandboxHarness;
let rootOrg: string;
let childOrg: string;
let rootFleet: string;
let childFleet: string;
let eventId: string;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown> & Record<string, unknown>[];
const lines = (r: CliResult) => r.stdout.trim().split('\n');
/** No API request was made: a --debug trace would show one; the sandbox log is not needed. */
// the service's OpenAPI document may be read (its rules are the checks); no request of the command itself is sent
const noRequest = (r: CliResult) => expect(r.stderr).not.toMatch(/\[debug\] > (GET|POST|PUT) (?!\S*\/openapi\/v1\.json)/);

beforeAll(async () => {
  h = await startHarness();
  rootOrg = h.envFor('sandbox-admin').FLEETCTL_ORGANIZATION_ID!;
  childOrg = h.envFor('sandbox-child').FLEETCTL_ORGANIZATION_ID!;
  rootFleet = lines(await h.cli(['fleets', 'list', '--organization-id', rootOrg, '--limit', '1', '--columns', 'id', '-o', 'csv']))[1]!;
  childFleet = lines(await h.cli(['fleets', 'list', '--organization-id', childOrg, '--limit', '1', '--columns', 'id', '-o', 'csv']))[1]!;
  const events = await h.cli(['events', 'search', '--fleet-id', rootFleet, '--since', '30d', '--limit', '1', '--json']);
  eventId = (json(events)[0] as { event_id: string }).event_id;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** A raw call with a token of the given client and scope, for what the CLI never sends (a token of another scope). */
async function raw(client: string, scope: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const env = h.envFor(client);
  const token = await request(`${env.FLEETCTL_AUTH_URL}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.FLEETCTL_CLIENT_ID!, client_secret: env.FLEETCTL_CLIENT_SECRET!, scope }).toString(),
  });
  const { access_token } = (await token.body.json()) as { access_token: string };
  const answer = await request(`${env.FLEETCTL_BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
}

function expectError(r: CliResult, code: number, text: string | RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);
}

describe('drivers end to end', { timeout: 60_000 }, () => {
  it('create: 201, prints the driver, the Location on stderr; get and list find it', async () => {
    const r = await h.cli(['drivers', 'create', '--fleet-id', rootFleet, '--first-name', 'Ada', '--last-name', 'Lovelace', '--email', 'ada@example.com', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const driver = json(r) as unknown as { id: string; organization_id: string; status: string };
    expect(driver).toMatchObject({ organization_id: rootOrg, fleet_id: rootFleet, first_name: 'Ada', email: 'ada@example.com', status: 'active' });
    expect(r.stderr).toBe(`Location: ${h.sandbox.baseUrl}/v1/drivers/${driver.id}\n`);

    const got = await h.cli(['drivers', 'get', driver.id, '-o', 'json']);
    expect(json(got)).toMatchObject({ id: driver.id, last_name: 'Lovelace' });
    const listed = await h.cli(['drivers', 'list', '--fleet-id', rootFleet, '--all', '--columns', 'id', '-o', 'csv']);
    expect(lines(listed)).toContain(driver.id);

    const updated = await h.cli(['drivers', 'update', driver.id, '--status', 'inactive', '--email', '', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(json(updated)).toMatchObject({ status: 'inactive', email: null, first_name: 'Ada' });
  });

  it('create from a JSON file on stdin, flags overriding', async () => {
    const input = JSON.stringify({ organization_id: rootOrg, fleet_id: rootFleet, first_name: 'X', last_name: 'Hopper' });
    const r = await h.cli(['drivers', 'create', '--from-file', '-', '--first-name', 'Grace', '-o', 'json'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });
  });

  it('create without the required fields and no terminal: exit 2 naming them, no request', async () => {
    const r = await h.cli(['drivers', 'create', '--first-name', 'Ada', '--debug']);
    expectError(r, 2, 'Error: missing required fields: --fleet-id, --last-name');
    noRequest(r);
  });

  it('create with values the document refuses (a 270-character email, a 100-character phone): exit 2 with its message, no request', async () => {
    const email = await h.cli(['drivers', 'create', '--fleet-id', rootFleet, '--first-name', 'A', '--last-name', 'B', '--email', `${'a'.repeat(258)}@example.com`, '--debug']);
    expectError(email, 2, 'Error: --email: must be null or an email address of at most 254 characters');
    noRequest(email);
    const phone = await h.cli(['drivers', 'update', UNKNOWN, '--phone', '5'.repeat(100), '--debug']);
    expectError(phone, 2, 'Error: --phone: must be null or a string of 1 to 64 characters, not all blank');
    noRequest(phone);
  });

  it('create with a member given by --field', async () => {
    const r = await h.cli(['drivers', 'create', '--fleet-id', rootFleet, '--first-name', 'A', '--last-name', 'B', '--field', 'employee_id=1815', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ employee_id: '1815' });
  });

  it('create with a fleet of another organization: 400 request.invalid_body, exit 2', async () => {
    const r = await h.cli(['drivers', 'create', '--organization-id', rootOrg, '--fleet-id', childFleet, '--first-name', 'A', '--last-name', 'B']);
    expectError(r, 2, '(request.invalid_body, HTTP 400)');
  });

  it('create as sandbox-reader: refused at the token endpoint (exit 3); the API itself answers 403 auth.scope_missing', async () => {
    // The CLI asks for a token of the operation's scope, so the token endpoint refuses first (invalid_scope,
    // exit 3 per the contract) and the API is never called; the API's own 403 is shown with a raw request
    // carrying a token the reader can get.
    const r = await h.cli(['drivers', 'create', '--fleet-id', rootFleet, '--first-name', 'A', '--last-name', 'B'], { client: 'sandbox-reader' });
    expectError(r, 3, 'scope thirdparty.api.drivers_write');
    expect(r.stderr).toContain('invalid_scope');
    const denied = await raw('sandbox-reader', 'thirdparty.api.drivers_read', 'POST', '/v1/drivers', { organization_id: rootOrg, fleet_id: rootFleet, first_name: 'A', last_name: 'B' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'auth.scope_missing', required_scope: 'thirdparty.api.drivers_write' });
  });

  it('create in an organization outside the tenant (sandbox-child): 403 tenant.forbidden, exit 4', async () => {
    const r = await h.cli(['drivers', 'create', '--organization-id', rootOrg, '--fleet-id', rootFleet, '--first-name', 'A', '--last-name', 'B'], { client: 'sandbox-child' });
    expectError(r, 4, '(tenant.forbidden, HTTP 403)');
  });

  it('with a wrong client secret: 401 from the token endpoint, exit 3', async () => {
    // a config folder of its own, so no token cached by an earlier test stands in for the secret
    const configDir = tempDir('fleetctl-e2e-secret-');
    const r = await h.cli(['drivers', 'list'], { env: { FLEETCTL_CLIENT_SECRET: 'not-the-secret', FLEETCTL_CONFIG_DIR: configDir } });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: .*invalid_client/m);
    expect(r.stderr).not.toContain('not-the-secret');
  });

  it('get, update of an unknown driver: 404, exit 5', async () => {
    expectError(await h.cli(['drivers', 'get', UNKNOWN]), 5, '(resource.not_found, HTTP 404)');
    expectError(await h.cli(['drivers', 'update', UNKNOWN, '--status', 'active']), 5, '(resource.not_found, HTTP 404)');
  });

  it('update with a fleet of another organization: 400, exit 2', async () => {
    const id = lines(await h.cli(['drivers', 'list', '--fleet-id', rootFleet, '--limit', '1', '--columns', 'id', '-o', 'csv']))[1]!;
    expectError(await h.cli(['drivers', 'update', id, '--fleet-id', childFleet]), 2, '(request.invalid_body, HTTP 400)');
  });

  it('list: a tampered cursor is 400 cursor.invalid, exit 2; bad flags exit 2 before any request', async () => {
    expectError(await h.cli(['drivers', 'list', '--cursor', 'tampered']), 2, '(cursor.invalid, HTTP 400)');
    const bad = await h.cli(['drivers', 'list', '--fleet-id', 'nope', '--debug']);
    expectError(bad, 2, 'Error: --fleet-id must be a UUID');
    noRequest(bad);
    expectError(await h.cli(['drivers', 'update', UNKNOWN]), 2, 'Error: nothing to update: give at least one field');
  });

  it('list of an organization outside the tenant: 403 tenant.forbidden, exit 4', async () => {
    expectError(await h.cli(['drivers', 'list', '--organization-id', rootOrg], { client: 'sandbox-child' }), 4, '(tenant.forbidden, HTTP 403)');
  });
});

describe('events end to end', { timeout: 60_000 }, () => {
  it('search: every page as NDJSON, newest first, within the window and filter', async () => {
    const r = await h.cli(['events', 'search', '--fleet-id', rootFleet, '--since', '30d', '--all', '--limit', '3', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const items = lines(r).map((line) => JSON.parse(line) as { fleet_id: string; triggered_at: string });
    expect(items.length).toBeGreaterThan(3);
    expect(items.every((e) => e.fleet_id === rootFleet)).toBe(true);
    const times = items.map((e) => e.triggered_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('search without a filter or a window: exit 2 before any request, naming what is missing', async () => {
    const none = await h.cli(['events', 'search', '--debug']);
    expectError(none, 2, 'Error: events search needs a narrowing filter (--hardware-id, --fleet-id or --vehicle-id) and a date window (--since, or --from and --to)');
    noRequest(none);
    expectError(await h.cli(['events', 'search', '--hardware-id', 'HW-000001']), 2, 'Error: events search needs a date window (--since, or --from and --to)');
    expectError(await h.cli(['events', 'search', '--since', '1d']), 2, 'Error: events search needs a narrowing filter (--hardware-id, --fleet-id or --vehicle-id)\n');
  });

  it('the server refuses the same search too: 400 events.filter_required, exit 2 (through `api`)', async () => {
    const r = await h.cli(['api', 'GET', '/v1/events', '-f', 'hardware_id=HW-000001']);
    expectError(r, 2, '(events.filter_required, HTTP 400)');
    expect(r.stderr).toContain('date_from');
    const machine = await h.cli(['api', 'GET', '/v1/events', '-o', 'json']);
    expect(machine.code).toBe(2);
    expect(JSON.parse(machine.stderr)).toMatchObject({ status: 400, code: 'events.filter_required' });
  });

  it('get: the full record by its opaque id; media lists that event\'s media', async () => {
    const r = await h.cli(['events', 'get', eventId, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const event = json(r) as unknown as { event_id: string; media_ids: string[]; locations: unknown[] };
    expect(event.event_id).toBe(eventId);
    expect(Array.isArray(event.locations)).toBe(true);
    const media = await h.cli(['events', 'media', eventId, '-o', 'json']);
    expect(media.code, media.stderr).toBe(0);
    expect((json(media) as unknown as { id: string }[]).map((m) => m.id).sort()).toEqual([...event.media_ids].sort());
  });

  it('get and media of an unknown event: 404, exit 5', async () => {
    const unknown = Buffer.from(`HW-000001~${randomUUID()}`).toString('base64url');
    expectError(await h.cli(['events', 'get', unknown]), 5, '(resource.not_found, HTTP 404)');
    expectError(await h.cli(['events', 'media', unknown]), 5, '(resource.not_found, HTTP 404)');
    expectError(await h.cli(['events', 'get', 'not/an id']), 5, 'HTTP 404');
  });

  it('search without events_read (sandbox-reboot-only): refused at the token endpoint, exit 3; the API answers 403', async () => {
    const r = await h.cli(['events', 'search', '--hardware-id', 'HW-000001', '--since', '1d'], { client: 'sandbox-reboot-only' });
    expectError(r, 3, 'scope thirdparty.api.events_read');
    const denied = await raw('sandbox-reboot-only', 'thirdparty.api.devices_read', 'GET', `/v1/events/${eventId}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'auth.scope_missing', required_scope: 'thirdparty.api.events_read' });
  });

  it('search a fleet outside the tenant returns nothing of it (sandbox-child)', async () => {
    const r = await h.cli(['events', 'search', '--fleet-id', rootFleet, '--since', '30d', '-o', 'json'], { client: 'sandbox-child' });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual([]);
  });
});

describe('fleets, vehicles, organizations, journeys end to end', { timeout: 60_000 }, () => {
  it('fleets: list of an organization, get; 404 unknown; 403 outside the tenant', async () => {
    const list = await h.cli(['fleets', 'list', '--organization-id', childOrg, '--all', '-o', 'json']);
    expect((json(list) as unknown as { organization_id: string }[]).every((f) => f.organization_id === childOrg)).toBe(true);
    expect(json(await h.cli(['fleets', 'get', rootFleet, '--json']))).toMatchObject({ id: rootFleet, organization_id: rootOrg });
    expectError(await h.cli(['fleets', 'get', UNKNOWN]), 5, '(resource.not_found, HTTP 404)');
    expectError(await h.cli(['fleets', 'list', '--cursor', 'x']), 2, '(cursor.invalid, HTTP 400)');
    expectError(await h.cli(['fleets', 'list', '--organization-id', rootOrg], { client: 'sandbox-child' }), 4, '(tenant.forbidden, HTTP 403)');
  });

  it('vehicles: list of a fleet, get; 404 unknown; 400 bad cursor', async () => {
    const list = await h.cli(['vehicles', 'list', '--fleet-id', rootFleet, '--all', '-o', 'json']);
    const vehicles = json(list) as unknown as { id: string; fleet_id: string }[];
    expect(vehicles.length).toBeGreaterThan(0);
    expect(vehicles.every((v) => v.fleet_id === rootFleet)).toBe(true);
    expect(json(await h.cli(['vehicles', 'get', vehicles[0]!.id, '--json']))).toMatchObject({ id: vehicles[0]!.id });
    expectError(await h.cli(['vehicles', 'get', UNKNOWN]), 5, '(resource.not_found, HTTP 404)');
    expectError(await h.cli(['vehicles', 'list', '--cursor', 'x']), 2, '(cursor.invalid, HTTP 400)');
  });

  it('organizations: list, get, descendants; 403 outside the tenant; 404 unknown', async () => {
    const all = json(await h.cli(['organizations', 'list', '--all', '-o', 'json'])) as unknown as { id: string }[];
    expect(all.map((o) => o.id)).toContain(childOrg);
    expect(json(await h.cli(['organizations', 'get', childOrg, '--json']))).toMatchObject({ id: childOrg, parent_id: rootOrg });
    const below = json(await h.cli(['organizations', 'descendants', rootOrg, '--all', '-o', 'json'])) as unknown as { id: string }[];
    expect(below.map((o) => o.id)).toContain(childOrg);
    expect(below.map((o) => o.id)).not.toContain(rootOrg);
    expectError(await h.cli(['organizations', 'get', rootOrg], { client: 'sandbox-child' }), 4, '(tenant.forbidden, HTTP 403)');
    expectError(await h.cli(['organizations', 'descendants', rootOrg], { client: 'sandbox-child' }), 4, '(tenant.forbidden, HTTP 403)');
    expectError(await h.cli(['organizations', 'get', UNKNOWN]), 5, 'HTTP 404');
    expectError(await h.cli(['organizations', 'list', '--cursor', 'x']), 2, '(cursor.invalid, HTTP 400)');
  });

  it('journeys: list of a device in a window; client and server refuse a missing window', async () => {
    const r = await h.cli(['journeys', 'list', '--hardware-id', 'HW-000001', '--since', '30d', '--all', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((json(r) as unknown as { hardware_id: string }[]).every((j) => j.hardware_id === 'HW-000001')).toBe(true);
    expectError(await h.cli(['journeys', 'list', '--hardware-id', 'HW-000001']), 2, 'Error: journeys list needs a date window');
    expectError(await h.cli(['api', 'GET', '/v1/journeys', '-f', 'hardware_id=HW-000001']), 2, 'HTTP 400');
    expectError(await h.cli(['journeys', 'list', '--fleet-id', rootFleet, '--since', '1d'], { client: 'sandbox-reboot-only' }), 3, 'scope thirdparty.api.journeys_read');
  });
});
