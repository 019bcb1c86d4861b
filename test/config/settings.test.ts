// Precedence: flags > environment > profile > defaults, and every value says where it came from.
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import type { ConfigData } from '../../src/config/store.js';
import { runCli, tempConfigDir } from '../support/cli.js';

const data: ConfigData = {
  current_profile: 'work',
  profiles: {
    work: { base_url: 'https://profile.fleet.test/', client_id: 'profile-client', client_secret: 'profile-secret', organization_id: 'org-p' },
    other: { base_url: 'https://other.fleet.test', client_id: 'other-client' },
  },
  tokens: {},
};

describe('resolveSettings', () => {
  it('takes the profile when nothing else is given, and the base URL as the issuer', () => {
    const s = resolveSettings({}, {}, data);
    expect(s.profile).toEqual({ value: 'work', source: 'profile' });
    expect(s.base_url).toEqual({ value: 'https://profile.fleet.test', source: 'profile' });
    expect(s.auth_url).toEqual({ value: 'https://profile.fleet.test', source: 'default' });
    expect(s.client_id).toEqual({ value: 'profile-client', source: 'profile' });
    expect(s.scopes).toEqual({ value: undefined, source: undefined });
  });

  it('the environment beats the profile; flags beat both', () => {
    const env = { FLEETCTL_BASE_URL: 'https://env.fleet.test', FLEETCTL_AUTH_URL: 'https://env-auth.fleet.test', FLEETCTL_CLIENT_SECRET: 'env-secret' };
    const fromEnv = resolveSettings({}, env, data);
    expect(fromEnv.base_url).toEqual({ value: 'https://env.fleet.test', source: 'environment' });
    expect(fromEnv.auth_url).toEqual({ value: 'https://env-auth.fleet.test', source: 'environment' });
    expect(fromEnv.client_secret).toEqual({ value: 'env-secret', source: 'environment' });
    const fromFlags = resolveSettings({ baseUrl: 'https://flag.fleet.test', authUrl: 'https://flag-auth.fleet.test' }, env, data);
    expect(fromFlags.base_url).toEqual({ value: 'https://flag.fleet.test', source: 'flag' });
    expect(fromFlags.auth_url).toEqual({ value: 'https://flag-auth.fleet.test', source: 'flag' });
  });

  it('chooses the profile by flag, then FLEETCTL_PROFILE, then the current one, then "default"', () => {
    expect(resolveSettings({ profile: 'other' }, { FLEETCTL_PROFILE: 'work' }, data).client_id.value).toBe('other-client');
    expect(resolveSettings({}, { FLEETCTL_PROFILE: 'other' }, data).profile).toEqual({ value: 'other', source: 'environment' });
    expect(resolveSettings({}, {}, undefined).profile).toEqual({ value: 'default', source: 'default' });
  });

  it('an empty environment variable does not hide the profile', () => {
    expect(resolveSettings({}, { FLEETCTL_CLIENT_ID: '' }, data).client_id.source).toBe('profile');
  });

  it('an override (--sandbox) stands as flags for the profile "sandbox", whatever the flags, environment and profile say', () => {
    const override = { baseUrl: 'http://127.0.0.1:4010', authUrl: 'http://127.0.0.1:4010', clientId: 'sandbox-admin', clientSecret: 'sb-secret', organizationId: 'org-s', tokenCacheAs: 'embedded-sandbox' };
    const s = resolveSettings({ baseUrl: 'https://flag.fleet.test' }, { FLEETCTL_CLIENT_ID: 'env-client' }, data, override);
    expect(s.profile).toEqual({ value: 'sandbox', source: 'flag' });
    expect(s.base_url).toEqual({ value: 'http://127.0.0.1:4010', source: 'flag' });
    expect(s.auth_url).toEqual({ value: 'http://127.0.0.1:4010', source: 'flag' });
    expect(s.client_id).toEqual({ value: 'sandbox-admin', source: 'flag' });
    expect(s.client_secret).toEqual({ value: 'sb-secret', source: 'flag' });
    expect(s.organization_id).toEqual({ value: 'org-s', source: 'flag' });
    expect(s.tokenCacheAs).toBe('embedded-sandbox');
    // what the override does not name still comes from where it is configured
    expect(resolveSettings({ caFile: '/ca.pem' }, {}, data, override).ca_file).toEqual({ value: '/ca.pem', source: 'flag' });
    expect(resolveSettings({}, {}, data).tokenCacheAs).toBeUndefined();
  });
});

describe('through the CLI', () => {
  async function setUp() {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    for (const [key, value] of [
      ['base_url', 'https://profile.fleet.test'],
      ['client_id', 'profile-client'],
    ]) {
      expect((await runCli(['config', 'set', key, value], { env })).code).toBe(0);
    }
    expect((await runCli(['config', 'set', 'client_secret'], { env, stdin: 'profile-secret\n' })).code).toBe(0);
    return dir;
  }

  it('config list shows each value and its source', async () => {
    const dir = await setUp();
    const env = { FLEETCTL_CONFIG_DIR: dir, FLEETCTL_CLIENT_ID: 'env-client' };
    const result = await runCli(['--base-url', 'https://flag.fleet.test', 'config', 'list'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'key\tvalue\tsource',
        'base_url\thttps://flag.fleet.test\tflag',
        'auth_url\thttps://flag.fleet.test\tdefault',
        'client_id\tenv-client\tenvironment',
        'client_secret\t(set, hidden)\tprofile',
        'client_secret_command\t\t',
        'scopes\t\t',
        'organization_id\t\t',
        'ca_file\t\t',
        'ledger_file\t\t',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain('Profile: default (');
    expect(result.stdout + result.stderr).not.toContain('profile-secret');
  });

  it('auth status -o json reports sources and never the secret', async () => {
    const dir = await setUp();
    const env = { FLEETCTL_CONFIG_DIR: dir, FLEETCTL_BASE_URL: 'https://env.fleet.test' };
    const result = await runCli(['auth', 'status', '-o', 'json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.profile).toBe('default');
    expect(report.settings.base_url).toEqual({ value: 'https://env.fleet.test', source: 'environment' });
    expect(report.settings.client_id).toEqual({ value: 'profile-client', source: 'profile' });
    expect(report.settings.client_secret).toEqual({ value: '(set, hidden)', source: 'profile' });
    expect(result.stdout + result.stderr).not.toContain('profile-secret');
  });

  it('config get resolves with the same precedence', async () => {
    const dir = await setUp();
    const get = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli([...args, 'config', 'get', 'base_url'], { env: { FLEETCTL_CONFIG_DIR: dir, ...env } });
    expect((await get([])).stdout).toBe('https://profile.fleet.test\n');
    expect((await get([], { FLEETCTL_BASE_URL: 'https://env.fleet.test' })).stdout).toBe('https://env.fleet.test\n');
    expect((await get(['--base-url', 'https://flag.fleet.test'], { FLEETCTL_BASE_URL: 'https://env.fleet.test' })).stdout).toBe('https://flag.fleet.test\n');
  });
});

describe('profile names', () => {
  it.each([['', '""'], ['x'.repeat(65), `"${'x'.repeat(39)}… (65 characters)"`], ['a\u001b[2Jb', '"a\\x1b[2Jb"']])('--profile %j is refused, quoted as %s', (name, shown) => {
    expect(() => resolveSettings({ profile: name || ' ' }, {}, data)).toThrow(`--profile must be a profile name of 1 to 64 printable characters, got ${name ? shown : '" "'}`);
  });

  it('FLEETCTL_PROFILE is checked the same way, and a name like __proto__ is a name like any other', () => {
    expect(() => resolveSettings({}, { FLEETCTL_PROFILE: 'bad\u0000' }, data)).toThrow(/^FLEETCTL_PROFILE must be a profile name/);
    expect(resolveSettings({ profile: '__proto__' }, {}, data).base_url.value).toBeUndefined();
  });
});
