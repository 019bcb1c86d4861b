// The second service double keeps the spec's rules (so the e2e tests against it mean something) and shares no
// invented record name with src/openapi/v1.json (so they test what fleetctl learns, not what it guessed).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, startSecondService, type SecondService } from './second-service.js';
import { csvRows } from './second-service/harness.js';

let svc: SecondService;
let org: string;

beforeAll(async () => {
  svc = await startSecondService();
  org = svc.clients.admin.organization_id;
});

afterAll(async () => {
  await svc?.close();
});

async function tokenFor(scope?: string): Promise<Response> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: svc.clients.reader.client_id, client_secret: svc.clients.reader.client_secret });
  if (scope) form.set('scope', scope);
  return fetch(`${svc.authUrl}/connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
}

describe('the second service keeps the spec\'s rules', () => {
  it('token answers carry access_token and token_type only; an ungranted scope is invalid_scope', async () => {
    const ok = await tokenFor('thirdparty.api.devices_read');
    expect(Object.keys(await ok.json()).sort()).toEqual(['access_token', 'token_type']);
    const refused = await tokenFor('thirdparty.api.drivers_read');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('a token without the endpoint\'s one scope is 403; an expired one is 401; problems carry code and members of their own', async () => {
    const { access_token } = (await (await tokenFor('thirdparty.api.fleets_read')).json()) as { access_token: string };
    const devices = await fetch(`${svc.baseUrl}/v1/devices`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(devices.status).toBe(403);
    expect(devices.headers.get('content-type')).toBe('application/problem+json');
    expect(await devices.json()).toMatchObject({ code: 'auth.scope_missing', needed_scope: 'thirdparty.api.devices_read', errors: [], instance: '/v1/devices' });
    svc.expireTokens();
    const expired = await fetch(`${svc.baseUrl}/v1/fleets`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { code: string }).code).toBe('auth.token_expired');
  });

  it('pages hold 50 by default, cursors are standard base64 with "+", "/" and "=", and limit stays within 1..500', async () => {
    const first = await svc.call(svc.clients.admin, 'GET', '/v1/devices');
    expect(first.body.data).toHaveLength(50);
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_cursor).toMatch(/^\+\/\+\/[A-Za-z0-9+/]*=$/);
    const next = await svc.call(svc.clients.admin, 'GET', `/v1/devices?cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
    // a cursor whose "+" arrived as a space (not percent-encoded) is refused, not misread
    expect((await svc.call(svc.clients.admin, 'GET', `/v1/devices?cursor=${first.body.next_cursor}`)).status).toBe(400);
    for (const limit of ['0', '501', 'x']) expect((await svc.call(svc.clients.admin, 'GET', `/v1/devices?limit=${limit}`)).status).toBe(400);
    expect((await svc.call(svc.clients.admin, 'GET', '/v1/devices?limit=500')).body.data.length).toBeGreaterThan(100);
  });

  it('events search needs a narrowing filter and a date window', async () => {
    const window = `date_from=${new Date(Date.now() - 86_400_000).toISOString()}&date_to=${new Date().toISOString()}`;
    expect((await svc.call(svc.clients.admin, 'GET', `/v1/events?${window}`)).status).toBe(400);
    expect((await svc.call(svc.clients.admin, 'GET', '/v1/events?hardware_id=TLM-00001')).status).toBe(400);
    expect((await svc.call(svc.clients.admin, 'GET', `/v1/events?hardware_id=TLM-00001&${window}`)).status).toBe(200);
  });

  it('Idempotency-Key: required, at most 200 characters, replayed for the same body, 422 for another', async () => {
    const post = (hw: string, key?: string, body?: unknown) =>
      svc.call(svc.clients.admin, 'POST', `/v1/devices/${hw}/commands/reboot`, { body, headers: key === undefined ? {} : { 'idempotency-key': key } });
    expect((await post('TLM-00001')).status).toBe(400);
    expect((await post('TLM-00001', 'k'.repeat(201))).status).toBe(400);
    const first = await post('TLM-00001', 'same');
    expect(first.status).toBe(202);
    expect(await post('TLM-00001', 'same')).toEqual(expect.objectContaining({ status: 202, body: first.body }));
    expect((await post('TLM-00001', 'same', { force: true })).body.code).toBe('idempotency.conflict');
    expect((await post('TLM-00003', 'other')).body.code).toBe('device.capability_missing');
  });

  it('webhook-config: first PUT disabled and without If-Match, then weak ETags compared verbatim, 409 for the last topic', async () => {
    const base = `/v1/organizations/${org}/webhook-config`;
    const topics = [{ type: 'events', delivery: { url: 'https://hooks.example.com/x' } }];
    expect((await svc.call(svc.clients.admin, 'PUT', base, { body: { is_enabled: true, topics } })).body.code).toBe('webhook.initial_activation_forbidden');
    expect((await svc.call(svc.clients.admin, 'PUT', base, { body: { is_enabled: false, topics: [{ type: 'events', delivery: { url: 'https://10.1.2.3/x' } }] } })).body.code).toBe('webhook.ssrf_blocked');
    const created = await svc.call(svc.clients.admin, 'PUT', base, { body: { is_enabled: false, topics } });
    expect(created.status).toBe(201);
    const got = await svc.call(svc.clients.admin, 'GET', base);
    expect(got.headers.etag).toMatch(/^W\/"[A-Za-z0-9+/]+=*"$/);
    // the mutation's answer carries an ETag of its own, which If-Match does not accept: only the re-read's is current
    expect(created.headers.etag).toMatch(/^"answer-\d+"$/);
    expect((await svc.call(svc.clients.admin, 'PATCH', base, { body: { is_enabled: true }, headers: { 'if-match': created.headers.etag as string } })).status).toBe(412);
    expect(got.body).toMatchObject({ transport: 'HttpCallback', created_by: 'second-admin', auth_key_hint: expect.any(String) });
    expect(got.body).not.toHaveProperty('auth_key');
    const etag = got.headers.etag as string;
    expect((await svc.call(svc.clients.admin, 'PATCH', base, { body: { is_enabled: true } })).status).toBe(412);
    expect((await svc.call(svc.clients.admin, 'PATCH', base, { body: { is_enabled: true }, headers: { 'if-match': etag.slice(2) } })).status).toBe(412);
    expect((await svc.call(svc.clients.admin, 'PATCH', base, { body: { is_enabled: true }, headers: { 'if-match': etag } })).status).toBe(200);
    const current = (await svc.call(svc.clients.admin, 'GET', base)).headers.etag as string;
    expect(current).not.toBe(etag);
    expect((await svc.call(svc.clients.admin, 'DELETE', `${base}/topics/events`, { headers: { 'if-match': current } })).status).toBe(409);
    const rotated = await svc.call(svc.clients.admin, 'POST', `${base}/regenerate-auth-key`);
    expect(rotated.body.auth_key).toBe(svc.webhookKey(org));
  });

  it('faults: 429 with Retry-After as an HTTP-date, 503', async () => {
    const when = new Date(Date.now() + 5_000);
    svc.inject({ status: 429, retryAfter: when });
    const limited = await fetch(`${svc.baseUrl}/v1/fleets`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(when.toUTCString());
    svc.inject({ status: 503 });
    expect((await fetch(`${svc.baseUrl}/v1/fleets`)).status).toBe(503);
  });
});

describe('the second service is not our sandbox under other names', () => {
  const ours = JSON.parse(readFileSync(new URL('../../src/openapi/v1.json', import.meta.url), 'utf8')) as { components: { schemas: Record<string, { properties?: object }> } };
  // the names the spec itself gives (identifiers, envelope, webhook configuration table) may be shared
  // the names the spec itself gives (identifiers, envelope, webhook configuration table) may be shared; and the
  // driver's employee_id, shared on purpose: `drivers create --employee-id` is a flag of ours named after it, and
  // the double declares it a nullable string so that digits given to that flag are shown to stay text
  const SPEC_NAMES = new Set(['id', 'hardware_id', 'organization_id', 'fleet_id', 'vehicle_id', 'data', 'next_cursor', 'has_more', 'is_enabled', 'topics', 'type', 'delivery', 'url', 'auth_key_hint', 'auth_key', 'code', 'employee_id']);

  it.each([
    ['Device', '/v1/devices?limit=1', 'data'],
    ['Fleet', '/v1/fleets?limit=1', 'data'],
    ['Driver', '/v1/drivers?limit=1', 'data'],
    ['DeviceMedia', '/v1/devices/TLM-00001/media?limit=1', 'data'],
    ['DeviceLastReported', '/v1/devices/TLM-00001/last-reported', ''],
    ['DeviceLastPosition', '/v1/devices/TLM-00001/last-position', ''],
  ])('its %s records share no field name with ours beyond the spec\'s', async (schema, path, inside) => {
    const answer = await svc.call(svc.clients.admin, 'GET', path);
    const record = inside ? answer.body[inside][0] : answer.body;
    const guessed = Object.keys(ours.components.schemas[schema]!.properties ?? {});
    expect(Object.keys(record).filter((k) => guessed.includes(k) && !SPEC_NAMES.has(k))).toEqual([]);
    expect(record).not.toHaveProperty('capabilities');
  });

  it('serves its own OpenAPI 3.1.1 document with one scope per operation, or none', async () => {
    type PathItem = Record<string, { security: Record<string, string[]>[] }>;
    const doc = (await (await fetch(`${svc.baseUrl}/openapi/v1.json`)).json()) as { openapi: string; info: { version: string }; paths: Record<string, PathItem | { $ref: string }>; components: { pathItems: Record<string, PathItem> } };
    expect([doc.openapi, doc.info.version]).toEqual(['3.1.1', '1.0.0']);
    // path items are written by $ref, as generators write them (#/components/pathItems/NAME)
    const items = Object.values(doc.paths).map((item) => (typeof item.$ref === 'string' ? doc.components.pathItems[item.$ref.split('/').pop()!]! : (item as PathItem)));
    expect(items.length).toBeGreaterThan(10);
    const scopes = items.flatMap((item) => Object.values(item).map((op) => op.security.flatMap((s) => Object.values(s).flat())));
    expect(scopes.every((s) => s.length === 1 && ALL_SCOPES.includes(s[0]!.replace('thirdparty.api.', '')))).toBe(true);
    const bare = await startSecondService({ serveDocument: false });
    try {
      expect((await fetch(`${bare.baseUrl}/openapi/v1.json`)).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('csvRows, the CSV reader of the tests against the double', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and empty fields', () => {
    expect(csvRows('a,"b,c",\n"x""y","1\n2",z\n')).toEqual([['a', 'b,c', ''], ['x"y', '1\n2', 'z']]);
    expect(csvRows('h1,h2\r\n,\r\n')).toEqual([['h1', 'h2'], ['', '']]);
  });
});
