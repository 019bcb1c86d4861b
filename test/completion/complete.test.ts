// The hidden `fleetctl __complete`: what it prints for each kind of value, its cache, its time budget, and its
// silence whenever something goes wrong. Runs main() in-process with the normal Deps and a MockAgent.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockAgent } from 'undici';
import { BASE_URL, allowPending, newMockAgent, page, problem, queryOf, stubApi, stubConnectionFailure, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';
import { MAX_LISTED } from '../../src/completion/lookups.js';
import { COMPLETION_CACHE_TTL_MS } from '../../src/completion/cache.js';
import { LOOKUP_BUDGET_MS } from '../../src/commands/completion/complete.js';

const device = (n: number, name = `Van ${n}`) => ({ id: `dev-${n}`, hardware_id: `HW-${String(n).padStart(6, '0')}`, name });
const DEVICES = [1, 2, 3, 10, 11, 12].map((n) => device(n));
const FLEET_A = '7c15271b-0dbd-475c-bb7b-eb84cf965290';
const FLEET_B = 'a82784ac-01c6-42cf-869c-62428c14904b';

function complete(kind: string, words: string[], opts: { configDir?: string; env?: NodeJS.ProcessEnv; agent?: MockAgent; clock?: FakeClock } = {}) {
  const configDir = opts.configDir ?? tempConfigDir();
  return runCli(['__complete', kind, '--', ...words], { env: opts.env ?? ciEnv(configDir), agent: opts.agent, clock: opts.clock ?? new FakeClock() });
}

describe('__complete hardware-id', () => {
  it('prints the hardware ids that start with the word typed, each with the device name, and nothing on stderr', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const calls = stubApi(agent, { path: '/v1/devices', body: page(DEVICES) });
    const result = await complete('hardware-id', ['devices', 'reboot', 'HW-00000'], { agent });
    expect(result).toEqual({ code: 0, stdout: 'HW-000001\tVan 1\nHW-000002\tVan 2\nHW-000003\tVan 3\n', stderr: '' });
    expect(queryOf(calls[0]).get('limit')).toBe('500');
  });

  it('reads the first pages only, up to its bound', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const pages = Array.from({ length: MAX_LISTED / 500 }, (_, p) => Array.from({ length: 500 }, (_, i) => device(p * 500 + i + 1)));
    const calls = pages.map((data, p) => stubApi(agent, { path: '/v1/devices', body: page(data, `c${p + 1}`) }));
    const result = await complete('hardware-id', ['devices', 'get', 'HW-00200'], { agent });
    expect(result.stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0])).toEqual(['HW-002000']);
    expect(calls.map((c) => queryOf(c[0]).get('cursor'))).toEqual([null, 'c1', 'c2', 'c3']);
  });

  it("beyond the first pages, a hardware id typed in full is checked with the API's hardware_id filter", async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const pages = Array.from({ length: MAX_LISTED / 500 }, (_, p) => Array.from({ length: 500 }, (_, i) => device(p * 500 + i + 1)));
    pages.forEach((data, p) => stubApi(agent, { path: '/v1/devices', body: page(data, `c${p + 1}`) }));
    const exact = stubApi(agent, { path: '/v1/devices', body: page([device(9999, 'Far away')]) });
    const result = await complete('hardware-id', ['devices', 'get', 'HW-009999'], { agent });
    expect(result.stdout).toBe('HW-009999\tFar away\n');
    expect(Object.fromEntries(queryOf(exact[0]))).toEqual({ hardware_id: 'HW-009999', limit: '1' });
  });

  it('that check reads past an empty page that says has_more, to the device', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const pages = Array.from({ length: MAX_LISTED / 500 }, (_, p) => Array.from({ length: 500 }, (_, i) => device(p * 500 + i + 1)));
    pages.forEach((data, p) => stubApi(agent, { path: '/v1/devices', body: page(data, `c${p + 1}`) }));
    const empty = stubApi(agent, { path: '/v1/devices', body: page([], 'e1') });
    const found = stubApi(agent, { path: '/v1/devices', body: page([device(9999, 'Far away')]) });
    const result = await complete('hardware-id', ['devices', 'get', 'HW-009999'], { agent });
    expect(result.stdout).toBe('HW-009999\tFar away\n');
    expect(Object.fromEntries(queryOf(empty[0]))).toEqual({ hardware_id: 'HW-009999', limit: '1' });
    expect(Object.fromEntries(queryOf(found[0]))).toEqual({ hardware_id: 'HW-009999', cursor: 'e1', limit: '1' });
  });

  it('leaves out values that could run, split or redraw the command line, and makes descriptions harmless', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const hostile = [
      { hardware_id: 'HW-1\u001b]0;owned\u0007', name: 'title' },
      { hardware_id: 'HW-2 rm', name: 'space' },
      { hardware_id: 'HW-3;reboot', name: 'semicolon' },
      { hardware_id: 'HW-$(id)', name: 'substitution' },
      { hardware_id: 'HW-4\nHW-5', name: 'newline' },
      { hardware_id: 'HW-6', name: 'Van\u001b[2J\tsix\nnext line' },
      { hardware_id: 42, name: 'not a string' },
    ];
    stubApi(agent, { path: '/v1/devices', body: page(hostile) });
    const result = await complete('hardware-id', ['devices', 'get', 'HW-'], { agent });
    expect(result).toEqual({ code: 0, stdout: 'HW-6\tVan\\x1b[2J six next line\n', stderr: '' });
  });

  it('keeps the listing a minute in the config folder (0600): a second Tab asks nothing; after a minute it asks again', async () => {
    const configDir = tempConfigDir();
    const clock = new FakeClock();
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page(DEVICES) });
    const first = await complete('hardware-id', ['devices', 'get', 'HW-00001'], { configDir, agent, clock });
    expect(first.stdout).toBe('HW-000010\tVan 10\nHW-000011\tVan 11\nHW-000012\tVan 12\n');
    const cacheDir = path.join(configDir, 'completion-cache');
    const [file] = readdirSync(cacheDir);
    expect(statSync(path.join(cacheDir, file)).mode & 0o777).toBe(0o600);

    clock.advance(COMPLETION_CACHE_TTL_MS - 1000);
    const cached = await complete('hardware-id', ['devices', 'reboot', 'HW-000002'], { configDir, agent, clock });
    expect(cached.stdout).toBe('HW-000002\tVan 2\n');

    clock.advance(2000);
    const renamed = stubApi(agent, { path: '/v1/devices', body: page([device(2, 'Renamed')]) });
    const fresh = await complete('hardware-id', ['devices', 'reboot', 'HW-000002'], { configDir, agent, clock });
    expect(fresh.stdout).toBe('HW-000002\tRenamed\n');
    expect(renamed).toHaveLength(1);
  });

  it('a cache entry of another API, client or kind is not used', async () => {
    const configDir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', times: 2 });
    stubApi(agent, { path: '/v1/devices', body: page([device(1)]) });
    await complete('hardware-id', ['HW'], { configDir, agent });
    stubApi(agent, { path: '/v1/devices', body: page([device(1, 'Other tenant')]) });
    const other = await complete('hardware-id', ['HW'], { configDir, agent, env: ciEnv(configDir, { FLEETCTL_CLIENT_ID: 'another-client' }) });
    expect(other.stdout).toBe('HW-000001\tOther tenant\n');
  });
});

describe('__complete fleet-id and organization-id', () => {
  it('fleet ids with the fleet names', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'fleets_read' });
    stubApi(agent, { path: '/v1/fleets', body: page([{ id: FLEET_A, name: 'HQ Long Haul' }, { id: FLEET_B, name: 'HQ Delivery' }]) });
    const result = await complete('fleet-id', ['devices', 'list', '--fleet-id', 'a8'], { agent });
    expect(result).toEqual({ code: 0, stdout: `${FLEET_B}\tHQ Delivery\n`, stderr: '' });
  });

  it('organization ids with the organization names', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'organizations_read' });
    stubApi(agent, { path: '/v1/organizations', body: page([{ id: FLEET_A, name: 'Acme' }, { id: FLEET_B, name: 'Acme North' }]) });
    const result = await complete('organization-id', ['webhook-config', 'get', '--org', ''], { agent });
    expect(result.stdout).toBe(`${FLEET_A}\tAcme\n${FLEET_B}\tAcme North\n`);
  });
});

describe('the line being completed', () => {
  const OTHER_URL = 'https://other.fleet.test';
  const otherProfile = (configDir: string) =>
    writeFileSync(
      path.join(configDir, 'config.json'),
      JSON.stringify({ profiles: { other: { base_url: OTHER_URL, client_id: 'other-client', client_secret: 'other-secret' } }, tokens: {} }),
    );

  it('--profile typed earlier decides where ids come from (flags > env > profile, as for the command itself)', async () => {
    const configDir = tempConfigDir();
    otherProfile(configDir);
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', authUrl: OTHER_URL });
    stubApi(agent, { path: '/v1/devices', baseUrl: OTHER_URL, body: page([device(7)]) });
    for (const words of [['--profile', 'other', 'devices', 'get', 'HW'], ['devices', 'get', '--profile=other', 'HW'], ['devices', 'get', '--profile', '=', 'other', 'HW']]) {
      const result = await complete('hardware-id', words, { configDir, agent, env: { FLEETCTL_CONFIG_DIR: configDir } });
      expect(result.stdout, words.join(' ')).toBe('HW-000007\tVan 7\n');
    }
  });

  it('--base-url typed earlier is honoured', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', baseUrl: 'https://line.fleet.test', body: page([device(8)]) });
    const result = await complete('hardware-id', ['--base-url', 'https://line.fleet.test', 'devices', 'get', ''], { agent });
    expect(result.stdout).toBe('HW-000008\tVan 8\n');
  });

  it('with --sandbox on the line, offers nothing live and asks nothing', async () => {
    const agent = newMockAgent();
    allowPending(agent, 'with --sandbox nothing live may be asked: the stubs prove it by staying unused');
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page(DEVICES) });
    const result = await complete('hardware-id', ['--sandbox', 'devices', 'reboot', 'HW'], { agent });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(agent.pendingInterceptors()).toHaveLength(2);
  });

  it('after -- on the line, --sandbox is an argument like any other: ids are still looked up', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page(DEVICES) });
    const result = await complete('hardware-id', ['devices', 'reboot', '--', '--sandbox', 'HW-000001'], { agent });
    expect(result.stdout).toBe('HW-000001\tVan 1\n');
  });

  it("the line's own --help, --version, --debug and unknown flags are data, not options of the hidden command", async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page(DEVICES) });
    const result = await complete('hardware-id', ['--debug', 'devices', 'get', '--help', '-V', '--version', '--nope', 'HW-000003'], { agent });
    expect(result).toEqual({ code: 0, stdout: 'HW-000003\tVan 3\n', stderr: '' });
  });
});

describe('__complete profile', () => {
  it('the profiles of the config store, the current one marked', async () => {
    const configDir = tempConfigDir();
    writeFileSync(
      path.join(configDir, 'config.json'),
      JSON.stringify({ current_profile: 'staging', profiles: { prod: {}, staging: {}, 'bad name': {}, 'x\u001b[2J': {} }, tokens: {} }),
    );
    const result = await complete('profile', ['config', 'use', ''], { configDir });
    expect(result).toEqual({ code: 0, stdout: 'prod\nstaging\tcurrent profile\n', stderr: '' });
    expect((await complete('profile', ['--profile', 'st'], { configDir })).stdout).toBe('staging\tcurrent profile\n');
  });
});

describe('silence on any failure: exit 0, nothing on stdout or stderr', () => {
  const silent = { code: 0, stdout: '', stderr: '' };

  it('a refused token (401)', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', status: 401, body: { error: 'invalid_client' } });
    expect(await complete('hardware-id', ['devices', 'get', 'HW'], { agent })).toEqual(silent);
  });

  it('an API error (500)', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 500, body: problem(500, 'internal', 'boom') });
    expect(await complete('hardware-id', ['devices', 'get', 'HW'], { agent })).toEqual(silent);
  });

  it('a connection failure (retries included)', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubConnectionFailure(agent, '/v1/devices', 4);
    expect(await complete('hardware-id', ['devices', 'get', 'HW'], { agent })).toEqual(silent);
  });

  it('no base URL or credentials configured', async () => {
    const configDir = tempConfigDir();
    expect(await complete('fleet-id', ['--fleet-id', ''], { configDir, env: { FLEETCTL_CONFIG_DIR: configDir } })).toEqual(silent);
    expect(await complete('fleet-id', ['--fleet-id', ''], { configDir, env: { FLEETCTL_CONFIG_DIR: configDir, FLEETCTL_BASE_URL: BASE_URL } })).toEqual(silent);
  });

  it('a corrupted config store', async () => {
    const configDir = tempConfigDir();
    writeFileSync(path.join(configDir, 'config.json'), '{ not json');
    expect(await complete('profile', ['--profile', ''], { configDir })).toEqual(silent);
  });

  it('an unknown kind, or no words at all', async () => {
    expect(await complete('vehicle-colour', ['x'])).toEqual(silent);
    expect(await complete('profile', [])).toEqual(silent);
  });

  it.each([
    ['the API', false],
    ['the token endpoint', true],
  ])('%s slower than the budget: nothing, soon after the budget', async (_what, slowToken) => {
    const agent = newMockAgent();
    const slow = { statusCode: 200, data: '{}' };
    if (slowToken) {
      agent.get('https://auth.fleet.test').intercept({ path: '/connect/token', method: 'POST' }).reply(() => slow).delay(5000);
    } else {
      stubToken(agent, { scope: 'devices_read' });
      agent.get(BASE_URL).intercept({ path: (p) => p.startsWith('/v1/devices'), method: 'GET' }).reply(() => slow).delay(5000);
    }
    const started = Date.now();
    const result = await complete('hardware-id', ['devices', 'get', 'HW'], { agent });
    const elapsed = Date.now() - started;
    expect(result).toEqual(silent);
    expect(elapsed).toBeGreaterThanOrEqual(LOOKUP_BUDGET_MS - 50);
    expect(elapsed).toBeLessThan(LOOKUP_BUDGET_MS + 1500);
  });
});

describe('hidden', () => {
  it('is not in the help, nor suggested for a mistyped command', async () => {
    const env = { FLEETCTL_CONFIG_DIR: tempConfigDir() };
    const help = await runCli(['--help'], { env });
    expect(help.stdout).not.toContain('__complete');
    const typo = await runCli(['__complet'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).not.toContain('__complete');
  });
});
