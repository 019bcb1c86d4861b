// Issue 23, must-show 7, continued: what the CLI does to the second service double (test/support/second-service.ts)
// and how it meets the service's rules: a bulk reboot of a fleet whose records say nothing of capabilities,
// Idempotency-Key replay and conflict, assignment, token refresh after a 401 (no expires_in), Retry-After as an
// HTTP-date, 503, problem documents with members of their own, weak ETags sent back verbatim, and the served
// document deciding `api --list`. Exit codes as README's "Exit codes" says.
import { describe, expect, it } from 'vitest';
import { seedUuid, type SecondService } from '../support/second-service.js';
import { expectFailure, expectOk, report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

let h: SecondHarness;
let svc: SecondService;
const FLEET_1 = seedUuid(0xf1, 1);
const VEHICLE_3 = seedUuid(0x7e, 3);

useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

/** The requests made since `from`, without token requests, as "METHOD path". */
function calls(from: number, prefix = '/v1/'): string[] {
  return svc.requests.slice(from).filter((q) => q.path.startsWith(prefix)).map((q) => `${q.method} ${q.path} ${q.status}`);
}

describe('device commands against the second service', { timeout: 180_000 }, () => {
  it('a bulk reboot of a fleet sends to every device (records say nothing of capabilities); the one the service refuses makes it exit 10', async () => {
    const from = svc.requests.length;
    const args = ['devices', 'reboot', '--fleet-id', FLEET_1, '--yes', '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(10);
    const results = JSON.parse(r.stdout) as { hardware_id: string; status: string; http_status: number; code: string | null }[];
    expect(results.map((x) => [x.hardware_id, x.http_status, x.code])).toEqual([
      ['TLM-00001', 202, null],
      ['TLM-00002', 202, null],
      ['TLM-00003', 422, 'device.capability_missing'],
    ]);
    const posts = calls(from).filter((c) => c.startsWith('POST'));
    expect(posts.sort()).toEqual([
      'POST /v1/devices/TLM-00001/commands/reboot 202',
      'POST /v1/devices/TLM-00002/commands/reboot 202',
      'POST /v1/devices/TLM-00003/commands/reboot 422',
    ]);
    expect(r.stderr).toContain('capability missing: TLM-00003');
  });

  it('a bulk wake-up of a list from stdin that the service accepts for all: exit 0, each with its own key', async () => {
    const from = svc.requests.length;
    const args = ['devices', 'wake-up', '--from-file', '-', '--idempotency-key', 'ci-77', '--yes', '-o', 'json'];
    const r = await h.cli(args, { input: 'TLM-00001\nTLM-00003\n' });
    expectOk(args, r);
    const keys = svc.requests.slice(from).filter((q) => q.method === 'POST' && q.path.startsWith('/v1/')).map((q) => q.headers['idempotency-key']);
    expect(keys.sort()).toEqual(['ci-77:TLM-00001', 'ci-77:TLM-00003']);
  });

  it('one reboot prints the service\'s command response unchanged; the same key again replays it', async () => {
    const args = ['devices', 'reboot', 'TLM-00001', '--idempotency-key', 'replay-1', '--yes', '-o', 'json'];
    const first = await h.cli(args);
    expectOk(args, first);
    const receipt = JSON.parse(first.stdout);
    expect(Object.keys(receipt)).toEqual(['command_ref', 'hw', 'action', 'state', 'queued_at', 'replay_key']);
    const again = await h.cli(args);
    expectOk(args, again);
    expect(JSON.parse(again.stdout)).toEqual(receipt);
  });

  it('the same key for another request: 422 idempotency.conflict, exit 7', async () => {
    const args = ['devices', 'wake-up', 'TLM-00001', '--idempotency-key', 'replay-1', '--yes'];
    const r = await h.cli(args);
    expectFailure(args, r, 7);
    expect(r.stderr).toContain('(idempotency.conflict, HTTP 422)');
  });

  it('a device the service says cannot wake up: 422 device.capability_missing, exit 7', async () => {
    const args = ['devices', 'wake-up', 'TLM-00002', '--yes'];
    const r = await h.cli(args);
    expectFailure(args, r, 7);
    expect(r.stderr).toContain('(device.capability_missing, HTTP 422)');
  });

  it('assign by hardware id prints the updated record; unassign is 204 whether or not it was assigned', async () => {
    const args = ['devices', 'assign', 'TLM-00002', '--vehicle-id', VEHICLE_3, '-o', 'json'];
    const r = await h.cli(args);
    expectOk(args, r);
    const record = JSON.parse(r.stdout);
    expect(record.vehicle_ref).toBe(VEHICLE_3);
    // --vehicle-id filled the member this service's document names (vehicleId), not the bundled document's vehicle_id
    const put = svc.requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/assignment')).at(-1)!;
    expect(JSON.parse(String(put.body))).toEqual({ vehicleId: VEHICLE_3 });
    expect(r.stderr).toContain(`assigned to vehicle ${VEHICLE_3}`);
    expect(record).toEqual(JSON.parse(JSON.stringify(svc.state.devices.find((d) => d.hardware_id === 'TLM-00002'))));
    for (let i = 0; i < 2; i++) {
      const un = ['devices', 'unassign', 'TLM-00002', '--yes'];
      expectOk(un, await h.cli(un));
    }
    expect(svc.state.devices.find((d) => d.hardware_id === 'TLM-00002')!.vehicle_ref).toBeNull();
  });
});

describe('auth, retries and problems against the second service', { timeout: 180_000 }, () => {
  it('the token answer has no expires_in: the token is cached until a 401, then fetched again once', async () => {
    const token = await fetch(`${svc.authUrl}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: svc.clients.admin.client_id, client_secret: svc.clients.admin.client_secret }),
    });
    expect(Object.keys(await token.json()).sort()).toEqual(['access_token', 'token_type']);
    expectOk(['fleets', 'list'], await h.cli(['fleets', 'list']));
    const cached = svc.requests.length;
    expectOk(['fleets', 'list'], await h.cli(['fleets', 'list']));
    expect(calls(cached, '/issuer/')).toEqual([]);
    svc.expireTokens();
    const from = svc.requests.length;
    const args = ['fleets', 'list', '-o', 'json'];
    const r = await h.cli(args);
    expectOk(args, r);
    expect(svc.requests.slice(from).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
      'GET /v1/fleets 401',
      'POST /issuer/connect/token 200',
      'GET /v1/fleets 200',
    ]);
  });

  it('429 with Retry-After as an HTTP-date: waited for, then the answer (exit 0)', async () => {
    svc.inject({ status: 429, retryAfter: new Date(Date.now() + 2_000), pathPrefix: '/v1/fleets' });
    const from = svc.requests.length;
    const started = Date.now();
    const args = ['fleets', 'list', '-o', 'json'];
    const r = await h.cli(args);
    expectOk(args, r);
    expect(calls(from)).toEqual(['GET /v1/fleets 429', 'GET /v1/fleets 200']);
    // an HTTP-date has whole seconds: at least the part of the 2 s that was left when the 429 was answered
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('429 that does not stop: exit 8 after the retries, one error line', async () => {
    svc.inject({ status: 429, retryAfter: new Date(Date.now() + 1_000), times: 2, pathPrefix: '/v1/drivers' });
    const args = ['drivers', 'list', '--max-retries', '1'];
    const r = await h.cli(args);
    expectFailure(args, r, 8);
    expect(r.stderr).toContain('(rate.limited, HTTP 429)');
  });

  it('503 from a downstream dependency: exit 9', async () => {
    svc.inject({ status: 503, times: 1, pathPrefix: '/v1/events' });
    const args = ['events', 'get', 'VExNLTAwMDAxfGV2MDA', '--max-retries', '0'];
    const r = await h.cli(args);
    expectFailure(args, r, 9);
    expect(r.stderr).toContain('(dependency.unavailable, HTTP 503)');
  });

  it('a problem with members of its own: one readable line, and with -o json the document whole on stderr', async () => {
    const missing = seedUuid(0xd7, 404);
    const args = ['drivers', 'get', missing];
    const r = await h.cli(args);
    expectFailure(args, r, 5);
    expect(r.stderr.split('\n')[0]).toBe(`Error: no driver ${missing} (driver.not_found, HTTP 404)`);
    const json = await h.cli([...args, '-o', 'json']);
    expect(json.code).toBe(5);
    const problem = JSON.parse(json.stderr.trim().split('\n').find((line) => line.startsWith('{'))!);
    expect(problem).toMatchObject({ code: 'driver.not_found', status: 404, instance: `/v1/drivers/${missing}`, errors: [] });
    expect(problem.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a 400 whose problem lists errors[]: exit 2, rendered without placeholders', async () => {
    // a rule no document states: the fleet must belong to the driver's organization (here, one of the child's)
    const body = { organization_id: svc.clients.admin.organization_id, fleet_id: seedUuid(0xf1, 3), given_name: 'Ada', family_name: 'Lovelace' };
    const args = ['drivers', 'create', '--from-file', '-'];
    const r = await h.cli(args, { input: JSON.stringify(body) });
    expectFailure(args, r, 2);
    expect(r.stderr).toContain('(fleet.not_in_organization, HTTP 400)');
    // the member the problem names, with its reason, on the error line
    expect(r.stderr).toMatch(/^Error: .*: \/fleet_id: not in that organization \(fleet\.not_in_organization, HTTP 400\)$/m);
    const json = await h.cli([...args, '-o', 'json'], { input: JSON.stringify(body) });
    expect(json.code).toBe(2);
    const problem = JSON.parse(json.stderr.trim().split('\n').find((line) => line.startsWith('{'))!);
    expect(problem.errors).toEqual([{ pointer: '/fleet_id', reason: 'not in that organization' }]);
  });

  it('a member the service\'s document does not have is refused before sending, with the members it names: exit 2', async () => {
    const from = svc.requests.length;
    const args = ['drivers', 'update', seedUuid(0xd7, 1), '--status', 'inactive'];
    const r = await h.cli(args);
    expectFailure(args, r, 2);
    expect(r.stderr).toMatch(/^Error: --status: is not a known member\nHint: the service's document names: .*given_name/);
    expect(calls(from)).toEqual([]);
  });

  it('an organization outside the tenant: 403, exit 4; a scope the issuer does not grant: exit 3', async () => {
    const foreign = ['devices', 'list', '--organization-id', svc.state.foreignOrg];
    expectFailure(foreign, await h.cli(foreign), 4);
    const unscoped = ['drivers', 'list'];
    const r = await h.cli(unscoped, { as: svc.clients.reader });
    expectFailure(unscoped, r, 3);
  });
});

describe('webhook-config against the second service', { timeout: 180_000 }, () => {
  const org = () => svc.clients.admin.organization_id;
  const URL_A = 'https://hooks.example.com/fleet';

  it('one configuration\'s life: created disabled, weak ETags sent back verbatim, the key printed once', async () => {
    expectFailure(['webhook-config', 'get'], await h.cli(['webhook-config', 'get']), 5);
    const create = ['webhook-config', 'create', '--url', URL_A, '--topics', 'events,alarms'];
    expectOk(create, await h.cli(create));
    const first = svc.requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/webhook-config')).at(-1)!;
    // spec: the first creation omits If-Match and must be disabled
    expect(first.headers['if-match']).toBeUndefined();
    expect(JSON.parse(first.body).is_enabled).toBe(false);

    for (const args of [['webhook-config', 'enable'], ['webhook-config', 'topics', 'set', 'journeys', '--url', `${URL_A}/j`], ['webhook-config', 'topics', 'remove', 'alarms', '--yes']]) {
      const from = svc.requests.length;
      expectOk(args, await h.cli(args));
      const seen = svc.requests.slice(from).filter((q) => q.path.startsWith('/v1/'));
      const writeAt = seen.findIndex((q) => q.method !== 'GET');
      const write = seen[writeAt]!;
      expect(write.status, args.join(' ')).toBeLessThan(300);
      // the If-Match is the ETag the read before it answered, byte for byte (weak, standard base64)
      const etag = seen.slice(0, writeAt).filter((q) => q.answered.etag).at(-1)?.answered.etag;
      expect(etag).toMatch(/^W\/"[A-Za-z0-9+/]+=*"$/);
      expect(write.headers['if-match']).toBe(etag);
    }
    const raw = await svc.call(svc.clients.admin, 'GET', `/v1/organizations/${org()}/webhook-config`);
    const args = ['webhook-config', 'get', '-o', 'json'];
    const got = await h.cli(args);
    expectOk(args, got);
    const printed = JSON.parse(got.stdout);
    // every member the service sent, unchanged (fleetctl may add the ETag beside them)
    for (const [member, value] of Object.entries(raw.body)) expect(printed[member], member).toEqual(value);
    expect(Object.values(printed)).toContain(raw.headers.etag);

    const rotate = ['webhook-config', 'regenerate-key', '--yes'];
    const rotated = await h.cli(rotate);
    expectOk(rotate, rotated);
    expect(rotated.stdout.trim()).toBe(svc.webhookKey(org()));
    expect(rotated.stderr).not.toContain(svc.webhookKey(org())!);
  });

  it('a stale ETag: 412, exit 6; removing the last topic: 409, exit 6', async () => {
    const stale = ['webhook-config', 'disable', '--if-match', 'W/"AAAAAAAAAA=="'];
    const r = await h.cli(stale);
    expectFailure(stale, r, 6);
    expect(r.stderr).toContain('(webhook.etag_stale, HTTP 412)');
    const last = ['webhook-config', 'topics', 'remove', 'journeys', '--yes'];
    expectOk(last, await h.cli(last));
    const refused = ['webhook-config', 'topics', 'remove', 'events', '--yes'];
    const conflict = await h.cli(refused);
    expectFailure(refused, conflict, 6);
    expect(conflict.stderr).toContain('(webhook.last_topic, HTTP 409)');
  });

  it('delete with the current ETag: 204, and the configuration is gone (exit 5 on get)', async () => {
    const args = ['webhook-config', 'delete', '--yes'];
    expectOk(args, await h.cli(args));
    expect(svc.webhookKey(org())).toBeUndefined();
    expectFailure(['webhook-config', 'get'], await h.cli(['webhook-config', 'get']), 5);
  });
});
