// auth status (never a secret or token), auth token --scope, auth logout (drops tokens and the stored secret).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_URL, BASE_URL, CLIENT_ID, CLIENT_SECRET, newMockAgent, page, stubApi, stubToken } from '../../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../../support/cli.js';
import { FakeClock, T0 } from '../../support/fake-clock.js';
import { credentialFingerprint, tokenCacheKey } from '../../../src/auth/token-key.js';

const storeOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));

describe('auth token', () => {
  it('prints a token for the scope (short or full name) and caches it', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', token: 'tok-for-curl' });
    const clock = new FakeClock();
    const first = await runCli(['auth', 'token', '--scope', 'devices_read'], { env: ciEnv(dir), agent, clock });
    expect(first).toEqual({ code: 0, stdout: 'tok-for-curl\n', stderr: '' });
    const second = await runCli(['auth', 'token', '--scope', 'thirdparty.api.devices_read'], { env: ciEnv(dir), agent, clock });
    expect(second.stdout).toBe('tok-for-curl\n');
  });

  it('an unknown scope is a usage error before any request, with the scope it may have meant', async () => {
    const result = await runCli(['auth', 'token', '--scope', 'devices_rule'], { env: ciEnv(tempConfigDir()), agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: unknown scope "devices_rule"; did you mean devices_read or devices_write?');
    // one unknown among known ones: still nothing asked of the issuer (the agent has no stub to answer)
    const among = await runCli(['auth', 'token', '--scope', 'devices_read', '--scope', 'fleet_read'], { env: ciEnv(tempConfigDir()), agent: newMockAgent() });
    expect(among.code).toBe(2);
    expect(among.stderr).toContain('unknown scope "fleet_read"; did you mean fleets_read?');
    expect(among.stderr).toContain('scopes are: ');
  });

  it('--scope repeated: one token for every scope asked, cached for them whatever their order', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const seen = stubToken(agent, { scope: 'thirdparty.api.devices_read thirdparty.api.fleets_read', token: 'tok-two-scopes' });
    const clock = new FakeClock();
    const first = await runCli(['auth', 'token', '--scope', 'fleets_read', '--scope', 'devices_read'], { env: ciEnv(dir), agent, clock });
    expect(first).toEqual({ code: 0, stdout: 'tok-two-scopes\n', stderr: '' });
    expect(seen).toHaveLength(1);
    // from the cache: the stub answers once only
    const again = await runCli(['auth', 'token', '--scope', 'devices_read', '--scope', 'thirdparty.api.fleets_read', '--scope', 'devices_read'], { env: ciEnv(dir), agent, clock });
    expect(again).toEqual({ code: 0, stdout: 'tok-two-scopes\n', stderr: '' });
    expect(JSON.stringify(storeOf(dir))).not.toContain(CLIENT_SECRET);
  });

  it('no credentials: exit 3 saying how to provide them', async () => {
    const env = { FLEETCTL_CONFIG_DIR: tempConfigDir(), FLEETCTL_BASE_URL: 'https://api.fleet.test' };
    const result = await runCli(['auth', 'token', '--scope', 'devices_read'], { env, agent: newMockAgent() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Error: no client id for profile "default"');
    expect(result.stderr).toContain('FLEETCTL_CLIENT_ID');
  });

  it('no base URL: exit 2 saying how to set one', async () => {
    const result = await runCli(['devices', 'list'], { env: { FLEETCTL_CONFIG_DIR: tempConfigDir() }, agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: no base URL configured');
  });
});

describe('auth status', () => {
  it('lists cached tokens with scope and expiry, never the token or the secret', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-hidden-1', expiresIn: 3600 });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    for (const tty of [false, true]) {
      const table = await runCli(['auth', 'status'], { env: ciEnv(dir), tty, clock });
      expect(table.code).toBe(0);
      expect(table.stdout + table.stderr).not.toMatch(/tok-hidden-1|cs-9f8e7d6c5b4a/);
      // piped, the scope as the API names it; on a terminal without the prefix every scope shares
      if (tty) expect(table.stdout).toMatch(/│ devices_read +│/);
      else expect(table.stdout).toContain('thirdparty.api.devices_read');
    }
    const json = JSON.parse((await runCli(['auth', 'status', '--json'], { env: ciEnv(dir), clock })).stdout);
    expect(json.tokens).toEqual([
      { scope: 'thirdparty.api.devices_read', client_id: CLIENT_ID, expires_at: new Date(T0.getTime() + 3540_000).toISOString(), state: 'valid' },
    ]);
    expect(json.settings.auth_url).toEqual({ value: AUTH_URL, source: 'environment' });
    expect(json.settings.client_secret).toEqual({ value: '(set, hidden)', source: 'environment' });
    clock.advance(3600_000);
    const later = JSON.parse((await runCli(['auth', 'status', '--json'], { env: ciEnv(dir), clock })).stdout);
    expect(later.tokens[0].state).toBe('expired');
  });

  it('marks a token fetched with other credentials (a rotated secret) as such', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-old-secret' });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    await runCli(['devices', 'list'], { env: ciEnv(dir), agent, clock });
    const rotated = await runCli(['auth', 'status', '--json'], { env: ciEnv(dir, { FLEETCTL_CLIENT_SECRET: 'rotated' }), clock });
    expect(JSON.parse(rotated.stdout).tokens.map((t: { state: string }) => t.state)).toEqual(['other credentials']);
  });

  it('says so when no token is cached', async () => {
    const result = await runCli(['auth', 'status'], { env: ciEnv(tempConfigDir()) });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('No cached tokens.');
  });
});

describe('auth logout', () => {
  it('drops the cached tokens and the stored secret of the profile only', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read', token: 'tok-default' });
    stubToken(agent, { scope: 'devices_read', token: 'tok-other' });
    stubApi(agent, { path: '/v1/devices', body: page([]), times: 2 });
    const withSecret = { FLEETCTL_CONFIG_DIR: dir };
    await runCli(['config', 'set', 'client_secret'], { env: withSecret, stdin: CLIENT_SECRET });
    await runCli(['config', 'set', 'client_id', CLIENT_ID], { env: withSecret });
    const env = { ...ciEnv(dir), FLEETCTL_CLIENT_SECRET: undefined };
    expect((await runCli(['devices', 'list'], { env, agent, clock })).code).toBe(0);
    await runCli(['--profile', 'other', 'config', 'set', 'base_url', BASE_URL], { env: withSecret });
    expect((await runCli(['--profile', 'other', 'devices', 'list'], { env: ciEnv(dir), agent, clock })).code).toBe(0);
    expect(Object.keys(storeOf(dir).tokens)).toHaveLength(2);

    const result = await runCli(['auth', 'logout'], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Logged out of profile "default": 1 cached token(s) dropped, the client secret removed from ${path.join(dir, 'config.json')}.\n`);
    const after = storeOf(dir);
    const fingerprint = credentialFingerprint(CLIENT_ID, CLIENT_SECRET);
    expect(Object.keys(after.tokens)).toEqual([tokenCacheKey({ profile: 'other', issuer: AUTH_URL, clientId: CLIENT_ID, fingerprint, scope: 'thirdparty.api.devices_read' })]);
    expect(after.profiles.default).toEqual({ client_id: CLIENT_ID });
    const token = await runCli(['auth', 'token', '--scope', 'devices_read'], { env, agent: newMockAgent() });
    expect(token.code).toBe(3);
    expect(token.stderr).toContain('no client secret');
  });
});
