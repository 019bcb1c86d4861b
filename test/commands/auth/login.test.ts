// auth login: flags/environment (secret on stdin) when it may not prompt, prompts otherwise; verifies, then saves.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../../src/io/prompter.js';
import { AUTH_URL, BASE_URL, newMockAgent, stubToken } from '../../support/mock-http.js';
import { SCOPES } from '../../../src/openapi/operations.js';

// spec: the token request carries a scope field; without --scopes, login asks for every scope of the API.
const ALL_SCOPES = SCOPES.join(' ');
import { runCli, tempConfigDir } from '../../support/cli.js';
import { FakeClock } from '../../support/fake-clock.js';

const SECRET = 'login-secret-xyz';
const storeOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
const flags = ['auth', 'login', '--base-url', BASE_URL, '--auth-url', AUTH_URL, '--client-id', 'my-client'];

describe('non-interactive', () => {
  it('takes the secret from --client-secret-stdin, verifies by fetching a token and saves the profile', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const forms = stubToken(agent, { scope: ALL_SCOPES });
    const result = await runCli([...flags, '--client-secret-stdin', '--no-input'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: `${SECRET}\n`, agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Logged in as client "my-client" at ${AUTH_URL} (profile "default").`);
    expect(result.stderr).not.toContain(SECRET);
    expect(forms).toEqual([expect.objectContaining({ grant_type: 'client_credentials', client_id: 'my-client', client_secret: SECRET, scope: ALL_SCOPES })]);
    expect(storeOf(dir)).toMatchObject({
      current_profile: 'default',
      profiles: { default: { base_url: BASE_URL, auth_url: AUTH_URL, client_id: 'my-client', client_secret: SECRET } },
    });
  });

  it('with --scopes asks for those scopes and remembers them', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const forms = stubToken(agent, { scope: 'thirdparty.api.devices_read thirdparty.api.fleets_read' });
    const result = await runCli([...flags, '--client-secret-stdin', '--scopes', 'devices_read,fleets_read'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent });
    expect(result.code).toBe(0);
    expect(forms[0].scope).toBe('thirdparty.api.devices_read thirdparty.api.fleets_read');
    expect(storeOf(dir).profiles.default.scopes).toBe('thirdparty.api.devices_read thirdparty.api.fleets_read');
  });

  it('without --scopes, a client holding only some scopes still logs in (invalid_scope proves the credentials)', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, status: 400, body: { error: 'invalid_scope', error_description: 'The client is not allowed the scope(s): thirdparty.api.devices_write.' } });
    const result = await runCli([...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Logged in as client "my-client"');
    expect(result.stderr).toContain('The client does not hold every scope of the API: the issuer refused the scope devices_write. Each command asks for the one scope it needs.');
    expect(result.stderr).not.toContain('The client is not allowed');
    expect(storeOf(dir).profiles.default).toEqual({ base_url: BASE_URL, auth_url: AUTH_URL, client_id: 'my-client', client_secret: SECRET });
  });

  it('with --scopes, a scope the client lacks fails the login (exit 3) and saves nothing', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: 'thirdparty.api.devices_write', status: 400, body: { error: 'invalid_scope', error_description: 'not allowed' } });
    const result = await runCli([...flags, '--client-secret-stdin', '--scopes', 'devices_write'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, clock: new FakeClock() });
    expect(result.code).toBe(3);
    // the issuer's text names no scope: the ones asked for are named, in plain words
    expect(result.stderr).toBe(
      `Error: ${AUTH_URL}/connect/token refused client "my-client": it does not hold the scope devices_write, asked for by --scopes (invalid_scope)\n` +
        'Hint: log in without --scopes to use the scopes the client holds, or ask an administrator of your organization to grant it\n',
    );
    expect(existsSync(path.join(dir, 'config.json')) ? storeOf(dir).profiles : {}).toEqual({});
  });

  it('with --scopes, the refused ones among several are named when the issuer names them; its own words only with --debug', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const asked = 'thirdparty.api.devices_read thirdparty.api.devices_write thirdparty.api.fleets_read';
    const body = { error: 'invalid_scope', error_description: 'The client is not allowed the scope(s): thirdparty.api.devices_write, thirdparty.api.fleets_read.' };
    stubToken(agent, { scope: asked, status: 400, body, times: 2 });
    const run = (extra: string[]) => runCli([...flags, '--client-secret-stdin', '--scopes', 'devices_read,devices_write,fleets_read', ...extra], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, clock: new FakeClock() });
    const result = await run([]);
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[0]).toBe(`Error: ${AUTH_URL}/connect/token refused client "my-client": it does not hold the scopes devices_write and fleets_read, asked for by --scopes (invalid_scope)`);
    expect(result.stderr).not.toContain('is not allowed');
    expect((await run(['--debug'])).stderr).toContain('The token issuer said: "The client is not allowed the scope(s): thirdparty.api.devices_write, thirdparty.api.fleets_read."');
  });

  it('wrong credentials fail the login (exit 3) whatever the scope', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed.' } });
    const result = await runCli([...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, clock: new FakeClock() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('invalid_client');
  });

  it('everything from the environment: the secret stays there and is not stored', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES });
    const env = { FLEETCTL_CONFIG_DIR: dir, FLEETCTL_BASE_URL: BASE_URL, FLEETCTL_AUTH_URL: AUTH_URL, FLEETCTL_CLIENT_ID: 'env-client', FLEETCTL_CLIENT_SECRET: SECRET };
    const result = await runCli(['--profile', 'ci', 'auth', 'login'], { env, agent });
    expect(result.code).toBe(0);
    expect(storeOf(dir).profiles.ci).toEqual({ base_url: BASE_URL, auth_url: AUTH_URL, client_id: 'env-client' });
    expect(result.stderr).toContain('Warning: the client secret comes from FLEETCTL_CLIENT_SECRET and was not stored');
    expect(result.stderr).toContain('Hint: to store it: printf %s "$FLEETCTL_CLIENT_SECRET" | fleetctl --profile ci auth login --client-secret-stdin');
    expect(result.stderr).not.toContain(SECRET);
  });

  it('a secret piped in, no keychain on the machine: stored in the file, and the warning says so and why', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES });
    const result = await runCli([...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent });
    expect(result.code).toBe(0);
    // plain words: where the secret went; the keychain's own error only with --debug
    expect(result.stderr).toContain(`Warning: no system keychain is available here, so the client secret was saved in ${path.join(dir, 'config.json')}, readable only by you (mode 0600)\n`);
    expect(result.stderr).not.toContain('DBus');
    expect(result.stderr).toContain('Hint: to keep it out of that file, set client_secret_command');
    expect(result.stderr).not.toContain(SECRET);
    expect(storeOf(dir).profiles.default.client_secret).toBe(SECRET);
  });

  it('without a secret and no TTY exits 2 naming what is missing, before any request', async () => {
    const dir = tempConfigDir();
    const result = await runCli(['auth', 'login', '--client-id', 'c'], { env: { FLEETCTL_CONFIG_DIR: dir }, agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: cannot log in without --base-url, the client secret (--client-secret-stdin or FLEETCTL_CLIENT_SECRET)');
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
  });

  it('a TTY with --no-input does not prompt either', async () => {
    const dir = tempConfigDir();
    const result = await runCli([...flags, '--no-input'], { env: { FLEETCTL_CONFIG_DIR: dir }, tty: true, prompter: refusingPrompter(), agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the client secret');
  });

  it('credentials the issuer refuses: exit 3, nothing saved', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    agent
      .get(AUTH_URL)
      .intercept({ path: '/connect/token', method: 'POST' })
      .reply(401, { error: 'invalid_client', error_description: 'Client authentication failed.' }, { headers: { 'content-type': 'application/json' } });
    const result = await runCli([...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: 'wrong', agent });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('invalid_client');
    expect(result.stderr).toContain('"my-client"');
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
  });

  it('refuses plain http to a non-loopback issuer', async () => {
    const dir = tempConfigDir();
    const args = ['auth', 'login', '--base-url', 'http://api.fleet.test', '--client-id', 'c', '--client-secret-stdin'];
    const result = await runCli(args, { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to send');
  });
});

function refusingPrompter(): Prompter {
  const fail = async (): Promise<never> => {
    throw new Error('must not prompt');
  };
  return { input: fail, password: fail, confirm: fail, search: fail, checkbox: fail, select: fail };
}

describe('interactive', () => {
  it('asks for what is missing, the secret as a password', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, authUrl: BASE_URL });
    const asked: string[] = [];
    const answers: Record<string, string> = { 'API base URL': BASE_URL, 'Client id': 'typed-client' };
    const prompter: Prompter = {
      input: async (message, opts) => (asked.push(message), answers[message] ?? opts?.default ?? ''),
      password: async (message) => (asked.push(`password:${message}`), SECRET),
      confirm: async () => true,
      search: async () => {
        throw new Error('must not search');
      },
      checkbox: async () => {
        throw new Error('must not show a checkbox');
      },
      select: async () => {
        throw new Error('must not show a select');
      },
    };
    const result = await runCli(['auth', 'login'], { env: { FLEETCTL_CONFIG_DIR: dir }, tty: true, prompter, agent });
    expect(result.code).toBe(0);
    expect(asked).toEqual(['API base URL', 'Token issuer (auth) URL', 'Client id', 'password:Client secret']);
    expect(storeOf(dir).profiles.default).toEqual({ base_url: BASE_URL, auth_url: BASE_URL, client_id: 'typed-client', client_secret: SECRET });
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });
});

describe('auth login that remembers (issue 24)', () => {
  const scripted = (answers: Record<string, string>, asked: { message: string; default?: string }[]): Prompter => ({
    input: async (message, opts) => (asked.push({ message, default: opts?.default }), answers[message] ?? opts?.default ?? ''),
    password: async (message) => (asked.push({ message: `password:${message}` }), answers[`password:${message}`] ?? SECRET),
    confirm: async () => true,
    search: async () => {
      throw new Error('must not search');
    },
    checkbox: async () => {
      throw new Error('must not show a checkbox');
    },
    select: async () => {
      throw new Error('must not show a select');
    },
  });

  it('a wrong secret: one line naming the client and the token URL, no scope list; the next login offers what was typed', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, status: 401, body: { error: 'invalid_client', error_description: `bad secret for scope ${ALL_SCOPES}` } });
    const typed = { 'API base URL': BASE_URL, 'Token issuer (auth) URL': AUTH_URL, 'Client id': 'typed-client', 'password:Client secret': 'wrong' };
    const first = await runCli(['auth', 'login'], { env: { FLEETCTL_CONFIG_DIR: dir }, tty: true, prompter: scripted(typed, []), agent });
    expect(first.code).toBe(3);
    const errorLine = stripVTControlCharacters(first.stderr).split('\n').find((line) => line.startsWith('Error:'))!;
    expect(errorLine).toBe(`Error: ${AUTH_URL}/connect/token refused client "typed-client": wrong client id or secret (invalid_client)`);
    expect(first.stderr).not.toContain('thirdparty.api');
    expect(first.stderr).not.toContain('wrong\n');

    stubToken(agent, { scope: ALL_SCOPES });
    const asked: { message: string; default?: string }[] = [];
    const second = await runCli(['auth', 'login'], { env: { FLEETCTL_CONFIG_DIR: dir }, tty: true, prompter: scripted({}, asked), agent });
    expect(second.code, second.stderr).toBe(0);
    expect(asked).toEqual([
      { message: 'API base URL', default: BASE_URL },
      { message: 'Token issuer (auth) URL', default: AUTH_URL },
      { message: 'Client id', default: 'typed-client' },
      { message: 'password:Client secret' },
    ]);
    expect(storeOf(dir).profiles.default).toMatchObject({ base_url: BASE_URL, auth_url: AUTH_URL, client_id: 'typed-client' });
    // the draft is gone once a login worked; it never held the secret
    expect(existsSync(path.join(dir, 'login-draft.json'))).toBe(false);
  });

  it('the draft never holds the secret', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, status: 401, body: { error: 'invalid_client' } });
    await runCli([...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent });
    const draft = readFileSync(path.join(dir, 'login-draft.json'), 'utf8');
    expect(JSON.parse(draft)).toEqual({ default: { base_url: BASE_URL, auth_url: AUTH_URL, client_id: 'my-client' } });
    expect(draft).not.toContain(SECRET);
  });

  it('with --debug, the keychain fallback also gives the keychain\'s own words', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES });
    const result = await runCli(['--debug', ...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('readable only by you (mode 0600) (DBus error: no session bus (test))');
  });

  it('auth status right after a login shows its token, valid', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, body: { access_token: 'tok-login', token_type: 'Bearer', expires_in: 3600, scope: ALL_SCOPES } });
    expect((await runCli([...flags, '--client-secret-stdin'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent })).code).toBe(0);
    const status = await runCli(['auth', 'status', '-o', 'json'], { env: { FLEETCTL_CONFIG_DIR: dir }, agent });
    const tokens = (JSON.parse(status.stdout) as { tokens: { scope: string; state: string }[] }).tokens;
    expect(tokens.map((t) => t.scope).sort()).toEqual([...SCOPES].sort());
    expect(tokens.every((t) => t.state === 'valid')).toBe(true);
    expect(status.stdout).not.toContain('tok-login');
  });
});
