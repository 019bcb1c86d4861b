import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, S, type Harness } from './harness.js';

let h: Harness;
let clock = Date.parse('2025-06-01T12:00:00Z');
beforeAll(async () => {
  h = await startHarness({ tokenTtlSeconds: 60, now: () => new Date(clock) });
});
afterAll(() => h.close());

const creds = (id = 'sandbox-admin') => {
  const c = h.client(id);
  return { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret };
};

describe('token endpoint POST /connect/token', () => {
  it('issues an opaque bearer token with all the client scopes when scope is omitted', async () => {
    const res = await h.tokenRequest(creds('sandbox-reader'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
    expect(typeof res.body.access_token).toBe('string');
    expect(res.body.scope.split(' ').sort()).toEqual([...h.client('sandbox-reader').scopes].sort());
  });

  it('grants a requested subset of the client scopes', async () => {
    const res = await h.tokenRequest({ ...creds(), scope: `${S('devices_read')} ${S('drivers_read')}` });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe(`${S('devices_read')} ${S('drivers_read')}`);
  });

  it('accepts HTTP Basic client authentication', async () => {
    const c = h.client('sandbox-admin');
    const basic = Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64');
    const res = await h.tokenRequest({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
  });

  it('answers invalid_scope (400) for a scope the client does not have', async () => {
    const res = await h.tokenRequest({ ...creds('sandbox-reboot-only'), scope: S('device_commands_wake_up') });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.error).toBe('invalid_scope');
    expect(typeof res.body.error_description).toBe('string');
  });

  it('answers invalid_client (401) for a wrong secret or unknown client', async () => {
    const wrong = await h.tokenRequest({ ...creds(), client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const unknown = await h.tokenRequest({ ...creds(), client_id: 'who' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_client');
  });

  it('answers unsupported_grant_type (400) for other grants', async () => {
    const res = await h.tokenRequest({ ...creds(), grant_type: 'password' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });

  it('answers invalid_request (400) for missing fields or a non-form body', async () => {
    const { grant_type: _g, ...noGrant } = creds();
    expect((await h.tokenRequest(noGrant)).body.error).toBe('invalid_request');
    const { client_secret: _s, ...noSecret } = creds();
    const missing = await h.tokenRequest(noSecret);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const json = await fetch(`${h.sb.authUrl}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(creds()),
    });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe('invalid_request');
  });

  it('answers an oversized body with RFC 6749 invalid_request JSON, not problem+json', async () => {
    const res = await fetch(`${h.sb.authUrl}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&pad=${'a'.repeat(2_000_000)}`,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('exceeds') });
  });
});

describe('bearer tokens on API calls', () => {
  it('401 auth.token_missing without a token, with WWW-Authenticate', async () => {
    const res = await h.call('GET', '/v1/devices', { token: null });
    expectProblem(res, 401, 'auth.token_missing');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('401 auth.token_invalid for a malformed or unknown token', async () => {
    expectProblem(await h.call('GET', '/v1/devices', { token: null, headers: { authorization: 'Basic abc' } }), 401, 'auth.token_invalid');
    expectProblem(await h.call('GET', '/v1/devices', { token: null, headers: { authorization: 'Bearer a b' } }), 401, 'auth.token_invalid');
    expectProblem(await h.call('GET', '/v1/devices', { token: 'not-a-token-we-issued' }), 401, 'auth.token_invalid');
  });

  it('401 auth.token_expired once tokenTtlSeconds have passed', async () => {
    const res = await h.tokenRequest(creds());
    const token = res.body.access_token;
    expect((await h.call('GET', '/v1/devices?limit=1', { token })).status).toBe(200);
    clock += 61_000;
    const expired = await h.call('GET', '/v1/devices?limit=1', { token });
    expectProblem(expired, 401, 'auth.token_expired');
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('403 auth.scope_missing naming the one required scope', async () => {
    const reader = await h.token('sandbox-reader');
    const device = (await h.call('GET', '/v1/devices?limit=1')).body.data[0];
    const res = await h.call('DELETE', `/v1/devices/${device.id}/assignment`, { token: reader });
    const p = expectProblem(res, 403, 'auth.scope_missing');
    expect(p.required_scope).toBe(S('devices_write'));
    expect(p.detail).toContain(S('devices_write'));
  });

  it('reboot and wake-up are separate scopes', async () => {
    const token = await h.token('sandbox-reboot-only');
    const res = await h.call('POST', '/v1/devices/HW-000001/commands/wake-up', { token, headers: { 'idempotency-key': 'k1' } });
    expect(expectProblem(res, 403, 'auth.scope_missing').required_scope).toBe(S('device_commands_wake_up'));
    const narrowed = await h.token('sandbox-admin', S('devices_read'));
    const lastPosition = await h.call('GET', '/v1/devices/HW-000001/last-position', { token: narrowed });
    expect(expectProblem(lastPosition, 403, 'auth.scope_missing').required_scope).toBe(S('live_positions_read'));
  });
});
