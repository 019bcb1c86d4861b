// Client-credentials tokens: the request the spec describes, one cached token per scope, expiry, refresh on 401.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_URL, BASE_URL, CLIENT_ID, CLIENT_SECRET, newMockAgent, page, problem, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock, T0 } from '../support/fake-clock.js';
import { credentialFingerprint, tokenCacheKey } from '../../src/auth/token-key.js';

const DEVICES_READ = 'thirdparty.api.devices_read';
const FLEETS_READ = 'thirdparty.api.fleets_read';
const FINGERPRINT = credentialFingerprint(CLIENT_ID, CLIENT_SECRET);
const keyOf = (scope: string, issuer = AUTH_URL, profile = 'default') =>
  tokenCacheKey({ profile, issuer, clientId: CLIENT_ID, fingerprint: FINGERPRINT, scope });

function storedTokens(configDir: string): Record<string, { access_token: string; scope: string; expires_at?: string }> {
  return JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8')).tokens;
}

describe('token request', () => {
  it('POSTs form-encoded client credentials and the one scope of the operation to {auth_url}/connect/token', async () => {
    const agent = newMockAgent();
    const forms = stubToken(agent, { scope: 'devices_read', token: 'tok-A' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]) });
    const result = await runCli(['devices', 'list', '-o', 'json'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    expect(forms).toEqual([
      {
        'content-type': 'application/x-www-form-urlencoded',
        grant_type: 'client_credentials',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        scope: DEVICES_READ,
      },
    ]);
    expect(calls[0].headers.authorization).toBe('Bearer tok-A');
  });

  it('uses the base URL as the issuer when no auth URL is set', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'fleets_read', authUrl: BASE_URL });
    stubApi(agent, { path: '/v1/fleets', body: page([]) });
    const env = ciEnv(tempConfigDir());
    delete env.FLEETCTL_AUTH_URL;
    const result = await runCli(['fleets', 'list'], { env, agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
  });
});

describe('token cache', () => {
  it('keeps one token per scope in the store: a second run asks for no token', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    const forms = stubToken(agent, { scope: 'devices_read', token: 'tok-devices' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]), times: 2 });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    expect(forms).toHaveLength(1);
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer tok-devices', 'Bearer tok-devices']);
    expect(Object.keys(storedTokens(dir))).toEqual([keyOf(DEVICES_READ)]);
  });

  it('asks for another token for another scope (least privilege)', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-devices' });
    stubToken(agent, { scope: 'fleets_read', token: 'tok-fleets' });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    const fleets = stubApi(agent, { path: '/v1/fleets', body: page([]) });
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    await runCli(['fleets', 'list'], { env: ciEnv(dir), agent, clock });
    expect(fleets[0].headers.authorization).toBe('Bearer tok-fleets');
    expect(Object.keys(storedTokens(dir)).sort()).toEqual([
      keyOf(DEVICES_READ),
      keyOf(FLEETS_READ),
    ]);
  });

  it.each([
    ['profile', { FLEETCTL_PROFILE: 'staging' }, AUTH_URL],
    ['client id', { FLEETCTL_CLIENT_ID: 'other-client' }, AUTH_URL],
    ['auth URL', { FLEETCTL_AUTH_URL: 'https://other-issuer.fleet.test' }, 'https://other-issuer.fleet.test'],
    ['client secret', { FLEETCTL_CLIENT_SECRET: 'a-rotated-secret' }, AUTH_URL],
  ])('does not reuse a token cached for another %s', async (_what, change, secondIssuer) => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-first' });
    stubToken(agent, { scope: 'devices_read', token: 'tok-second', authUrl: secondIssuer });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]), times: 2 });
    // a profile named must be stored: staging is made, its settings overridden by the environment
    const profile = (change as NodeJS.ProcessEnv).FLEETCTL_PROFILE;
    if (profile) await runCli(['config', 'use', profile, '--create'], { env: { FLEETCTL_CONFIG_DIR: dir } });
    await runCli(['devices', 'list'], { env: { ...ciEnv(dir), FLEETCTL_PROFILE: 'default' }, agent, clock });
    await runCli(['devices', 'list'], { env: ciEnv(dir, change), agent, clock });
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer tok-first', 'Bearer tok-second']);
    expect(Object.keys(storedTokens(dir))).toHaveLength(2);
  });

  it('never reuses a token fetched with another secret: a mistyped secret is refused at once (exit 3)', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-right-secret' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    const forms = stubToken(agent, { scope: 'devices_read', status: 401, body: { error: 'invalid_client' } });
    const typo = await runCli(['devices', 'list'], { env: ciEnv(dir, { FLEETCTL_CLIENT_SECRET: `${CLIENT_SECRET}x` }), agent, clock });
    expect(typo.code).toBe(3);
    expect(typo.stderr).toContain('invalid_client');
    expect(forms.map((f) => f.client_secret)).toEqual([`${CLIENT_SECRET}x`]);
    expect(calls).toHaveLength(1);
  });

  it('keys the cache by a fingerprint of the credentials, never the secret itself', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    stubToken(agent, { scope: 'devices_read', token: 'tok-A' });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock: new FakeClock() })).code).toBe(0);
    const file = readFileSync(path.join(dir, 'config.json'), 'utf8');
    expect(file).not.toContain(CLIENT_SECRET);
    expect(Object.keys(storedTokens(dir))).toEqual([keyOf(DEVICES_READ)]);
  });

  it('stops using a token shortly before expires_in runs out', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-1', expiresIn: 3600 });
    stubToken(agent, { scope: 'devices_read', token: 'tok-2', expiresIn: 3600 });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]), times: 3 });
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    expect(storedTokens(dir)[keyOf(DEVICES_READ)].expires_at).toBe(
      new Date(T0.getTime() + 3540_000).toISOString(),
    );
    clock.advance(3539_000); // still inside the lifetime minus the margin
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    clock.advance(2_000); // past expires_in minus the margin, before expires_in itself
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('keeps a token without expires_in until the API answers 401', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-forever', expiresIn: null });
    stubToken(agent, { scope: 'devices_read', token: 'tok-fresh', expiresIn: null });
    const ok = stubApi(agent, { path: '/v1/devices', body: page([]), times: 1 });
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    expect(storedTokens(dir)[keyOf(DEVICES_READ)].expires_at).toBeUndefined();
    clock.advance(30 * 24 * 3600_000);
    const refused = stubApi(agent, { path: '/v1/devices', status: 401, body: problem(401, 'auth.token_expired', 'The token has expired.') });
    const retried = stubApi(agent, { path: '/v1/devices', body: page([]) });
    const result = await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    expect(result.code).toBe(0);
    expect(ok[0].headers.authorization).toBe('Bearer tok-forever');
    expect(refused[0].headers.authorization).toBe('Bearer tok-forever');
    expect(retried[0].headers.authorization).toBe('Bearer tok-fresh');
    expect(storedTokens(dir)[keyOf(DEVICES_READ)].access_token).toBe('tok-fresh');
  });
});

describe('401 from the API', () => {
  it('drops the token, fetches a fresh one once and retries once', async () => {
    const agent = newMockAgent();
    const forms = [stubToken(agent, { scope: 'devices_read', token: 'tok-old' }), stubToken(agent, { scope: 'devices_read', token: 'tok-new' })];
    const first = stubApi(agent, { path: '/v1/devices', status: 401, body: problem(401, 'auth.token_invalid', 'The token is not valid.') });
    const second = stubApi(agent, { path: '/v1/devices', body: page([{ id: 'd1' }]) });
    const result = await runCli(['devices', 'list', '-o', 'json'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 'd1' }]);
    expect(forms.map((f) => f.length)).toEqual([1, 1]);
    expect(first[0].headers.authorization).toBe('Bearer tok-old');
    expect(second[0].headers.authorization).toBe('Bearer tok-new');
  });

  it('a second 401 fails with exit 3 and a hint about the credentials, without a third token request', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', token: 'tok-old' });
    stubToken(agent, { scope: 'devices_read', token: 'tok-new' });
    stubApi(agent, { path: '/v1/devices', status: 401, times: 2, body: problem(401, 'auth.token_invalid', 'The token is not valid.') });
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Error: The token is not valid. (auth.token_invalid, HTTP 401)');
    expect(result.stderr).toContain('Hint: check the credentials');
  });

  it('after a second 401 the refused token is not kept: the next run asks for a new one', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-1' });
    stubToken(agent, { scope: 'devices_read', token: 'tok-2' });
    stubApi(agent, { path: '/v1/devices', status: 401, times: 2, body: problem(401, 'auth.token_invalid', 'The token is not valid.') });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(3);
    expect(storedTokens(dir)).toEqual({});
    const forms = stubToken(agent, { scope: 'devices_read', token: 'tok-3' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    expect(forms).toHaveLength(1);
    expect(calls[0].headers.authorization).toBe('Bearer tok-3');
  });
});

describe('token endpoint failures', () => {
  const endpoint = `${AUTH_URL}/connect/token`;
  // Only a refusal by the issuer is exit 3; an issuer that fails or cannot be reached is exit 9 (8 when rate limiting).
  const cases: [string, Parameters<typeof stubToken>[1] | 'unreachable', string, number][] = [
    ['invalid_client', { scope: 'devices_read', status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed.' } }, 'invalid_client', 3],
    ['invalid_scope', { scope: 'devices_read', status: 400, body: { error: 'invalid_scope', error_description: 'The client is not allowed the scope.' } }, 'invalid_scope', 3],
    ['a 401 without a body', { scope: 'devices_read', status: 401, body: '' }, 'HTTP 401', 3],
    ['a non-JSON answer', { scope: 'devices_read', status: 200, body: '<html><body>Sign in</body></html>', contentType: 'text/html' }, 'non-JSON', 9],
    ['a non-JSON error page', { scope: 'devices_read', status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' }, 'non-JSON', 9],
    ['an unreachable issuer', 'unreachable', 'ECONNREFUSED', 9],
  ];
  it.each(cases)('%s: one message naming the client id, the scope and the endpoint, exit %i', async (_name, stub, reason, exit) => {
    const agent = newMockAgent();
    if (stub === 'unreachable') {
      agent
        .get(AUTH_URL)
        .intercept({ path: '/connect/token', method: 'POST' })
        .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
        .times(4); // the first try and --max-retries (3)
    } else {
      stubToken(agent, stub);
    }
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(exit);
    expect(result.stdout).toBe('');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('Error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`"${CLIENT_ID}"`);
    expect(errors[0]).toContain(DEVICES_READ);
    expect(errors[0]).toContain(endpoint);
    expect(errors[0]).toContain(reason);
    expect(result.stderr).not.toContain(CLIENT_SECRET);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('token endpoint retries (the token POST is safe to repeat)', () => {
  it('a 503 and a dropped connection are retried with the API policy, then the call goes on', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', status: 503, body: { error: 'temporarily_unavailable' }, contentType: 'application/json' });
    agent
      .get(AUTH_URL)
      .intercept({ path: '/connect/token', method: 'POST' })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const forms = stubToken(agent, { scope: 'devices_read', token: 'tok-after-retries' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]) });
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock });
    expect(result.code).toBe(0);
    expect(forms).toHaveLength(1);
    expect(calls[0].headers.authorization).toBe('Bearer tok-after-retries');
    expect(clock.sleeps).toHaveLength(2);
  });

  it('honours Retry-After on a 429, and gives up (exit 8, rate limited) after --max-retries', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    agent
      .get(AUTH_URL)
      .intercept({ path: '/connect/token', method: 'POST' })
      .reply(429, { error: 'slow_down' }, { headers: { 'content-type': 'application/json', 'retry-after': '2' } })
      .times(3);
    const result = await runCli(['devices', 'list', '--max-retries', '2'], { env: ciEnv(tempConfigDir()), agent, clock });
    expect(result.code).toBe(8);
    expect(clock.sleeps).toEqual([2000, 2000]);
    expect(result.stderr).toContain('token request failed');
  });

  it('does not wait for a Retry-After longer than --max-retry-wait', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    agent
      .get(AUTH_URL)
      .intercept({ path: '/connect/token', method: 'POST' })
      .reply(503, { error: 'temporarily_unavailable' }, { headers: { 'content-type': 'application/json', 'retry-after': '3600' } });
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock });
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(`token request failed for client "${CLIENT_ID}", scope ${DEVICES_READ}, at ${AUTH_URL}/connect/token: HTTP 503: temporarily_unavailable`);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('token store hygiene', () => {
  it('drops expired tokens (of any issuer or client) and keys of an older format when it caches a new one', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    const { openConfigStore } = await import('../../src/config/store.js');
    const store = await openConfigStore(dir);
    const past = new Date(T0.getTime() - 1000).toISOString();
    const future = new Date(T0.getTime() + 3_600_000).toISOString();
    const other = (scope: string, issuer: string) => tokenCacheKey({ profile: 'default', issuer, clientId: 'c', fingerprint: '0123456789abcdef', scope });
    await store.update((data) => {
      data.tokens[other('x', 'http://127.0.0.1:40001')] = { access_token: 'old', scope: 'x', obtained_at: past, expires_at: past };
      data.tokens[other('y', 'https://other.test')] = { access_token: 'live', scope: 'y', obtained_at: past, expires_at: future };
      data.tokens[other('z', 'https://other.test')] = { access_token: 'no-expiry', scope: 'z', obtained_at: past };
      // The format before credentials were part of the key: such a token can never be matched again.
      data.tokens[`default|${AUTH_URL}|${CLIENT_ID}|${DEVICES_READ}`] = { access_token: 'legacy', scope: DEVICES_READ, obtained_at: past };
    });
    stubToken(agent, { scope: 'devices_read', token: 'tok-new' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    expect(calls[0].headers.authorization).toBe('Bearer tok-new');
    expect(Object.keys(storedTokens(dir)).sort()).toEqual([keyOf(DEVICES_READ), other('y', 'https://other.test'), other('z', 'https://other.test')].sort());
  });

  it('times the expiry from the request, not from a slow answer', async () => {
    const agent = newMockAgent();
    const dir = tempConfigDir();
    const clock = new FakeClock();
    agent
      .get(AUTH_URL)
      .intercept({ path: '/connect/token', method: 'POST' })
      .reply(() => {
        clock.advance(30_000); // the issuer took 30 s to answer
        return { statusCode: 200, data: JSON.stringify({ access_token: 'tok', token_type: 'Bearer', expires_in: 600 }), responseOptions: { headers: { 'content-type': 'application/json' } } };
      });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    const [token] = Object.values(storedTokens(dir));
    expect(token.expires_at).toBe(new Date(T0.getTime() + (600 - 60) * 1000).toISOString());
  });
});
