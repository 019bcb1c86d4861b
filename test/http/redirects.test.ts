// Redirects as HTTP has them, through the one transport: a same-origin 307/308 of a request that may be repeated
// is followed with its token; a redirect elsewhere, a 301 on a POST, a loop and a sixth hop fail with exit 9,
// naming the Location; a download's redirect to another origin is followed without credentials.
import { describe, expect, it } from 'vitest';
import { BASE_URL, newMockAgent, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';

const ID = '3f2b8c1e-0000-4000-8000-000000000001';
const device = { id: ID, hardware_id: 'HW-1', name: 'Van' };

function cli(agent: ReturnType<typeof newMockAgent>, args: string[]) {
  return runCli([...args, '--max-retries', '0'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
}

describe('redirects of API calls', () => {
  it('devices get follows a same-host 308 with its token, and prints the record it leads to', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const first = stubApi(agent, { path: `/v1/devices/${ID}`, status: 308, headers: { location: `/gateway/v1/devices/${ID}` } });
    const second = stubApi(agent, { path: `/gateway/v1/devices/${ID}`, body: device });
    const result = await cli(agent, ['devices', 'get', ID, '-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(device);
    expect(first[0]!.headers.authorization).toBe('Bearer tok-thirdparty.api.devices_read');
    expect(second[0]!.headers.authorization).toBe('Bearer tok-thirdparty.api.devices_read');
  });

  it('--debug says which redirect was followed, by origin and path only', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: `/v1/devices/${ID}`, status: 308, headers: { location: `/gateway/v1/devices/${ID}?sig=secret-query` } });
    stubApi(agent, { path: `/gateway/v1/devices/${ID}`, body: device });
    const result = await cli(agent, ['devices', 'get', ID, '--debug']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`following HTTP 308 to ${BASE_URL}/gateway/v1/devices/${ID}\n`);
    expect(result.stderr).not.toContain('tok-thirdparty');
  });

  it('a 308 to another origin is refused (the token would go there): exit 9, the Location named, terminal-safe', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: `/v1/devices/${ID}`, status: 308, headers: { location: 'https://elsewhere.example/v1/x\u001b[31m' } });
    const result = await cli(agent, ['devices', 'get', ID]);
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      `Error: HTTP 308 from ${BASE_URL}: a redirect to "https://elsewhere.example/v1/x\\x1b[31m" not followed: it leads to another origin, where an API call would carry its token`,
    );
    expect(result.stderr).toMatch(/^Hint: check the base URL/m);
  });

  it('a loop is an error, not an endless chain', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: `/v1/devices/${ID}`, status: 307, headers: { location: '/b' } });
    stubApi(agent, { path: '/b', status: 307, headers: { location: `/v1/devices/${ID}` } });
    const result = await cli(agent, ['devices', 'get', ID]);
    expect(result.code).toBe(9);
    expect(result.stderr.split('\n')[0]).toBe(`Error: HTTP 307 from ${BASE_URL}: a redirect to "/v1/devices/${ID}" not followed: the redirects go round in a loop`);
  });

  it('five hops are followed; a sixth is an error', async () => {
    const hops = (n: number) => {
      const agent = newMockAgent();
      stubToken(agent, { scope: 'devices_read' });
      stubApi(agent, { path: `/v1/devices/${ID}`, status: 308, headers: { location: '/hop/1' } });
      for (let i = 1; i < n; i++) stubApi(agent, { path: `/hop/${i}`, status: 308, headers: { location: `/hop/${i + 1}` } });
      stubApi(agent, { path: `/hop/${n}`, body: device });
      return agent;
    };
    expect((await cli(hops(5), ['devices', 'get', ID])).code).toBe(0);
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: `/v1/devices/${ID}`, status: 308, headers: { location: '/hop/1' } });
    for (let i = 1; i <= 5; i++) stubApi(agent, { path: `/hop/${i}`, status: 308, headers: { location: `/hop/${i + 1}` } });
    const result = await cli(agent, ['devices', 'get', ID]);
    expect(result.code).toBe(9);
    expect(result.stderr.split('\n')[0]).toBe(`Error: HTTP 308 from ${BASE_URL}: a redirect to "/hop/6" not followed: more than 5 redirects in a row`);
  });

  it('a 301 on a POST is not followed (it may turn into a GET, and a POST is not sent twice): exit 9, nothing sent again', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'device_commands_reboot' });
    stubApi(agent, { path: '/openapi/v1.json', status: 404, body: { code: 'not_found' } });
    const sent = stubApi(agent, { method: 'POST', path: '/v1/devices/HW-1/commands/reboot', status: 301, headers: { location: '/v1/devices/HW-1/commands/restart' } });
    const result = await cli(agent, ['api', 'POST', '/v1/devices/HW-1/commands/reboot', '--idempotency-key', 'k-1']);
    expect(result.code).toBe(9);
    expect(sent).toHaveLength(1);
    expect(result.stderr).toContain(`\nError: HTTP 301 from ${BASE_URL}: a redirect to "/v1/devices/HW-1/commands/restart" not followed: an HTTP 301 may change the method: API calls follow only 307 and 308\n`);
  });
});
