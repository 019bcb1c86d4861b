// spec: credentials travel only over TLS; plain http only to loopback (the local sandbox) or with --insecure.
import { describe, expect, it } from 'vitest';
import { assertSafeForCredentials } from '../../src/auth/secure-url.js';
import { newMockAgent, page, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';

describe('plain http', () => {
  it('refuses to send the client secret to a non-loopback issuer, says why, and sends nothing', async () => {
    const env = ciEnv(tempConfigDir(), { FLEETCTL_AUTH_URL: 'http://auth.fleet.test' });
    const result = await runCli(['devices', 'list'], { env, agent: newMockAgent(), clock: new FakeClock() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: refusing to send the client secret over plain http to auth.fleet.test: anyone on the network could read it');
    expect(result.stderr).toContain('--insecure');
  });

  it('refuses to send a bearer token to a non-loopback API', async () => {
    const env = ciEnv(tempConfigDir(), { FLEETCTL_BASE_URL: 'http://api.fleet.test' });
    const result = await runCli(['devices', 'list'], { env, agent: newMockAgent(), clock: new FakeClock() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to send a bearer token over plain http to api.fleet.test');
  });

  it('allows it with --insecure', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', authUrl: 'http://auth.fleet.test' });
    stubApi(agent, { path: '/v1/devices', body: page([]), baseUrl: 'http://api.fleet.test' });
    const env = ciEnv(tempConfigDir(), { FLEETCTL_AUTH_URL: 'http://auth.fleet.test', FLEETCTL_BASE_URL: 'http://api.fleet.test' });
    const result = await runCli(['--insecure', 'devices', 'list'], { env, agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
  });

  it('allows loopback (the local sandbox)', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', authUrl: 'http://127.0.0.1:4010' });
    stubApi(agent, { path: '/v1/devices', body: page([]), baseUrl: 'http://127.0.0.1:4010' });
    const env = ciEnv(tempConfigDir(), { FLEETCTL_AUTH_URL: 'http://127.0.0.1:4010', FLEETCTL_BASE_URL: 'http://127.0.0.1:4010' });
    expect((await runCli(['devices', 'list'], { env, agent, clock: new FakeClock() })).code).toBe(0);
  });

  // which hosts are loopback: the shared rule's table (test/shared/loopback.test.ts), which this check follows
  it('refuses a plain-http URL whose host only starts like a loopback one', () => {
    expect(() => assertSafeForCredentials('http://localhost.evil.test', 'x', 'base_url', false)).toThrow(/refusing to send x over plain http to localhost\.evil\.test/);
    expect(() => assertSafeForCredentials('http://[::1]:4010', 'x', 'base_url', false)).not.toThrow();
  });

  it('rejects a URL that is not http(s) or not a URL', () => {
    expect(() => assertSafeForCredentials('ftp://h', 'x', 'base_url', true)).toThrow(/must be an http\(s\) URL/);
    expect(() => assertSafeForCredentials('not a url', 'x', 'base_url', true)).toThrow(/is not a valid URL/);
  });
});
