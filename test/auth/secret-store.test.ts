// Secrets where the operator keeps them: the keychain (an injected one), a command, the environment, the file;
// auth login says where it stored the secret, auth status where each lives, auth logout removes it everywhere.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundedKeychain, KeychainUnavailable, runSecretCommand } from '../../src/auth/secret-store.js';
import { AUTH_URL, BASE_URL, CLIENT_ID, newMockAgent, page, stubApi, stubToken } from '../support/mock-http.js';
import { runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';
import { absentKeychain, memoryKeychain } from '../support/keychain.js';
import { SCOPES } from '../../src/openapi/operations.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';

const SECRET = 'kc-secret-3f8a';
const ALL_SCOPES = SCOPES.join(' ');
const login = ['auth', 'login', '--base-url', BASE_URL, '--auth-url', AUTH_URL, '--client-id', CLIENT_ID, '--client-secret-stdin'];
const storeOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));

describe('auth login stores the secret in the keychain when one answers', () => {
  it('keychain: the secret goes there and not to the file; later commands read it from there', async () => {
    const dir = tempConfigDir();
    const keychain = memoryKeychain();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES });
    const result = await runCli(login, { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, keychain });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('The client secret is stored in the system keychain (service "fleetctl", account "default").');
    expect(result.stderr).not.toContain('Warning');
    expect(keychain.entries.get('default')).toBe(SECRET);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).not.toContain(SECRET);
    expect(storeOf(dir).profiles.default.client_secret_store).toBe('keychain');

    const forms = stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    // a day later: the token login cached has expired, so a new one is asked for with the secret from the keychain
    const later = new FakeClock(new Date(Date.now() + 86_400_000));
    expect((await runCli(['devices', 'list'], { env: { FLEETCTL_CONFIG_DIR: dir }, agent, keychain, clock: later })).code).toBe(0);
    expect(forms[0]!.client_secret).toBe(SECRET);
  });

  it('a keychain that never answers is given up after its time limit: the file, and the reason', async () => {
    const dir = tempConfigDir();
    const never = new Promise<never>(() => undefined);
    const keychain = boundedKeychain({ get: () => never, set: () => never, delete: () => never }, 50);
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES });
    const started = Date.now();
    const result = await runCli(login, { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, keychain });
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.stderr).toContain('Warning: no system keychain is available here, so the client secret was saved in');
    expect(storeOf(dir).profiles.default.client_secret).toBe(SECRET);
  });

  it('the keychain holds no secret any more: exit 3 saying to log in again', async () => {
    const dir = tempConfigDir();
    const keychain = memoryKeychain();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES });
    await runCli(login, { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET, agent, keychain });
    keychain.entries.clear();
    const result = await runCli(['devices', 'list'], { env: { FLEETCTL_CONFIG_DIR: dir }, agent: newMockAgent(), keychain });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Error: the system keychain holds no client secret for profile "default"');
    const gone = await runCli(['devices', 'list'], { env: { FLEETCTL_CONFIG_DIR: dir }, agent: newMockAgent(), keychain: absentKeychain() });
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain('is in the system keychain, which did not answer');
  });
});

describe('client_secret_command', () => {
  it('its output is the secret: nothing stored, and auth login says where the secret stays', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    expect((await runCli(['config', 'set', 'client_secret_command', `printf '%s\\n' ${SECRET}`], { env })).code).toBe(0);
    const agent = newMockAgent();
    const forms = stubToken(agent, { scope: ALL_SCOPES });
    const result = await runCli(login.filter((a) => a !== '--client-secret-stdin'), { env, agent, keychain: memoryKeychain() });
    expect(result.code).toBe(0);
    expect(forms[0]!.client_secret).toBe(SECRET);
    expect(result.stderr).toContain('The client secret comes from client_secret_command, where it stays.');
    expect(storeOf(dir).profiles.default.client_secret).toBeUndefined();
  });

  it('a failing command: exit 3 with its exit code and first line of stderr, never its output', async () => {
    await expect(runSecretCommand(`printf leaked-output; echo 'vault: permission denied' >&2; exit 4`)).rejects.toMatchObject({
      exitCode: 3,
      message: 'client_secret_command exited with 4: vault: permission denied',
    });
    await expect(runSecretCommand('true')).rejects.toThrow('client_secret_command printed nothing');
    expect(await runSecretCommand('printf "  s3cret \\n"')).toBe('s3cret');
  });

  it('FLEETCTL_CLIENT_SECRET_COMMAND works as the setting does; FLEETCTL_CLIENT_SECRET wins over both', async () => {
    const dir = tempConfigDir();
    const agent = newMockAgent();
    const forms = [stubToken(agent, { scope: 'devices_read' }), stubToken(agent, { scope: 'fleets_read' })];
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    stubApi(agent, { path: '/v1/fleets', body: page([]) });
    const env = { FLEETCTL_CONFIG_DIR: dir, FLEETCTL_BASE_URL: BASE_URL, FLEETCTL_AUTH_URL: AUTH_URL, FLEETCTL_CLIENT_ID: CLIENT_ID, FLEETCTL_CLIENT_SECRET_COMMAND: 'printf from-command' };
    expect((await runCli(['devices', 'list'], { env, agent, clock: new FakeClock() })).code).toBe(0);
    expect((await runCli(['fleets', 'list'], { env: { ...env, FLEETCTL_CLIENT_SECRET: 'from-env' }, agent, clock: new FakeClock() })).code).toBe(0);
    expect(forms.map((f) => f[0]!.client_secret)).toEqual(['from-command', 'from-env']);
  });
});

describe('auth status and auth logout', () => {
  it('status shows where each profile keeps its secret and warns about plain text; logout removes it from every store', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    const keychain = memoryKeychain();
    const agent = newMockAgent();
    stubToken(agent, { scope: ALL_SCOPES, times: 2 });
    await runCli(login, { env, stdin: SECRET, agent, keychain });
    await runCli(['--profile', 'plain', ...login], { env, stdin: SECRET, agent, keychain: absentKeychain() });
    const status = await runCli(['auth', 'status', '--json'], { env, keychain });
    expect(JSON.parse(status.stdout).secrets).toEqual([
      { profile: 'default', secret: 'keychain' },
      { profile: 'plain', secret: 'file' },
    ]);
    const text = await runCli(['auth', 'status'], { env, keychain });
    expect(text.stdout).toMatch(/^default\tkeychain$/m);
    expect(text.stderr).toContain(`Warning: the client secret of profile "plain" is in plain text in ${path.join(dir, 'config.json')} (mode 0600); \`fleetctl --profile plain auth login\` moves it to the system keychain when one answers`);
    expect(text.stdout + text.stderr).not.toContain(SECRET);

    const out = await runCli(['auth', 'logout'], { env, keychain });
    // the login's own token, cached for each scope it carries, goes too
    expect(out.stderr).toBe(`Logged out of profile "default": ${SCOPES.length} cached token(s) dropped, the client secret removed from the system keychain.\n`);
    expect(keychain.entries.size).toBe(0);
    expect(storeOf(dir).profiles.default.client_secret_store).toBeUndefined();
  });

  it('logout on a machine without a keychain: no hang, no warning', async () => {
    const dir = tempConfigDir();
    const result = await runCli(['auth', 'logout'], { env: { FLEETCTL_CONFIG_DIR: dir }, keychain: absentKeychain() });
    expect(result).toMatchObject({ code: 0, stderr: 'Logged out of profile "default": 0 cached token(s) dropped, no client secret was stored.\n' });
  });

  it('FLEETCTL_KEYCHAIN=off: the keychain of the machine is not asked, as if there were none', async () => {
    const deps = createDeps({ io: IOStreams.forTest(), env: { FLEETCTL_KEYCHAIN: 'off' } }, () => ({}));
    await expect(deps.keychain().set('default', SECRET)).rejects.toEqual(new KeychainUnavailable('turned off by FLEETCTL_KEYCHAIN=off'));
  });

  it('a keychain that times out is reported as unavailable, not as an empty one', async () => {
    const keychain = boundedKeychain({ get: () => new Promise(() => undefined), set: async () => undefined, delete: async () => true }, 20);
    await expect(keychain.get('default')).rejects.toEqual(new KeychainUnavailable('no answer within 0.02 s', true));
  });
});
