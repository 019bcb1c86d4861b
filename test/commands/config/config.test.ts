// config set|get|unset|profiles|use: the profiles of the store; the secret is never printed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciEnv, runCli, tempConfigDir } from '../../support/cli.js';

const SECRET = 'sekrit-value-123';

function storeOf(dir: string) {
  return JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
}

describe('config set / get / unset', () => {
  it('sets, gets and unsets a value in the current profile', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    const set = await runCli(['config', 'set', 'base_url', 'https://api.fleet.test/'], { env });
    expect(set).toEqual({ code: 0, stdout: '', stderr: 'Set base_url for profile "default".\n' });
    expect((await runCli(['config', 'get', 'base_url'], { env })).stdout).toBe('https://api.fleet.test\n');
    expect((await runCli(['config', 'unset', 'base_url'], { env })).stderr).toBe('Unset base_url for profile "default".\n');
    const get = await runCli(['config', 'get', 'base_url'], { env });
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('Error: base_url is not set for this profile');
  });

  it('--profile writes to that profile', async () => {
    const dir = tempConfigDir();
    await runCli(['--profile', 'staging', 'config', 'set', 'client_id', 'stage-client'], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(storeOf(dir).profiles).toEqual({ staging: { client_id: 'stage-client' } });
  });

  it.each([
    [['config', 'set', 'colour', 'x'], /unknown setting "colour"/],
    [['config', 'get', 'nope'], /unknown setting "nope"/],
    [['config', 'set', 'base_url', 'api.fleet.test'], /base_url must be an absolute http\(s\) URL/],
    [['config', 'set', 'auth_url', 'ftp://x'], /auth_url must be an absolute http\(s\) URL/],
    [['config', 'set', 'organization_id', 'not-a-uuid'], /organization_id must be a UUID/],
    [['config', 'set', 'client_id'], /missing the value for client_id/],
    [['config', 'set', 'client_id', ' '], /client_id must not be empty/],
  ])('%j is refused with exit 2', async (args, message) => {
    const dir = tempConfigDir();
    const result = await runCli(args, { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('the client secret', () => {
  it('is read from stdin, stored, and never printed by config get / list or auth status', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    expect((await runCli(['config', 'set', 'client_secret'], { env, stdin: `${SECRET}\n` })).code).toBe(0);
    expect(storeOf(dir).profiles.default.client_secret).toBe(SECRET);
    for (const args of [
      ['config', 'get', 'client_secret'],
      ['config', 'list'],
      ['config', 'list', '-o', 'json'],
      ['auth', 'status'],
      ['auth', 'status', '-o', 'json'],
      ['config', 'profiles'],
    ]) {
      for (const tty of [true, false]) {
        const result = await runCli(args, { env, tty });
        expect(result.code).toBe(0);
        expect(result.stdout + result.stderr).not.toContain(SECRET);
      }
    }
    expect((await runCli(['config', 'get', 'client_secret'], { env })).stdout).toBe('(set, hidden)\n');
  });

  it('on the command line works but warns about the shell history', async () => {
    const dir = tempConfigDir();
    const result = await runCli(['config', 'set', 'client_secret', SECRET], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Warning: a secret on the command line stays in your shell history');
    expect(result.stderr).not.toContain(SECRET);
  });

  it('- reads it from stdin', async () => {
    const dir = tempConfigDir();
    await runCli(['config', 'set', 'client_secret', '-'], { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: SECRET });
    expect(storeOf(dir).profiles.default.client_secret).toBe(SECRET);
  });
});

describe('config profiles / use', () => {
  it('lists the profiles with * on the current one, and use switches it', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    await runCli(['config', 'set', 'base_url', 'https://prod.fleet.test'], { env });
    await runCli(['--profile', 'staging', 'config', 'set', 'client_id', 'stage'], { env });
    expect((await runCli(['config', 'profiles'], { env })).stdout).toBe(
      'current\tname\tbase_url\tclient_id\n*\tdefault\thttps://prod.fleet.test\t\n\tstaging\t\tstage\n',
    );
    expect((await runCli(['config', 'use', 'staging'], { env })).stderr).toBe('Now using profile "staging".\n');
    expect(storeOf(dir).current_profile).toBe('staging');
    // a typo switches to nothing: exit 2, the nearest name, and the store untouched
    const typo = await runCli(['config', 'use', 'stagnig'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe('Error: no profile stagnig; did you mean staging?');
    expect(typo.stderr).toContain('Hint: config use named it; the profiles are default, staging; to make it: fleetctl config use stagnig --create');
    expect(storeOf(dir).profiles.stagnig).toBeUndefined();
    expect((await runCli(['config', 'use', 'staging'], { env })).stderr).toBe('Now using profile "staging".\n');
    const profiles = JSON.parse((await runCli(['config', 'profiles', '--json'], { env })).stdout);
    expect(profiles.filter((p: { current: string }) => p.current === '*').map((p: { name: string }) => p.name)).toEqual(['staging']);
    expect((await runCli(['config', 'get', 'client_id'], { env })).stdout).toBe('stage\n');
    expect((await runCli(['config', 'get', 'client_id'], { env: { ...env, FLEETCTL_PROFILE: 'default' } })).code).toBe(2);
  });

  it('use --create makes a new profile; set --profile makes one too', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    expect((await runCli(['config', 'use', 'fresh'], { env })).code).toBe(2);
    const created = await runCli(['config', 'use', 'fresh', '--create'], { env });
    expect(created.stderr).toBe('Now using profile "fresh", a new, empty profile: set it up with `fleetctl auth login`.\n');
    expect(storeOf(dir)).toMatchObject({ current_profile: 'fresh', profiles: { fresh: {} } });
    expect((await runCli(['--profile', 'other', 'config', 'set', 'client_id', 'x'], { env })).stderr).toBe('Set client_id for the new profile "other".\n');
    expect((await runCli(['--profile', 'other', 'config', 'set', 'scopes', 'devices_read'], { env })).stderr).toBe('Set scopes for profile "other".\n');
    expect(storeOf(dir).profiles.other).toEqual({ client_id: 'x', scopes: 'devices_read' });
  });

  it('a profile named by --profile or FLEETCTL_PROFILE that is not stored is refused first, with the nearest name', async () => {
    const dir = tempConfigDir();
    const env = { FLEETCTL_CONFIG_DIR: dir };
    await runCli(['--profile', 'reader', 'config', 'set', 'client_id', 'r'], { env });
    // the environment has every setting: without the check, the command would go on with them
    for (const [args, extra, by] of [
      [['--profile', 'readr', 'config', 'list'], {}, '--profile'],
      [['config', 'get', 'client_id'], { FLEETCTL_PROFILE: 'readr' }, 'FLEETCTL_PROFILE'],
      [['config', 'unset', 'client_id'], { FLEETCTL_PROFILE: 'readr' }, 'FLEETCTL_PROFILE'],
      [['--profile', 'readr', 'auth', 'status'], {}, '--profile'],
    ] as const) {
      const result = await runCli([...args], { env: ciEnv(dir, extra) });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Error: no profile readr; did you mean reader?\nHint: ${by} named it; the profiles are reader; to make it: fleetctl config use readr --create, or fleetctl --profile readr auth login\n`,
      );
    }
    // "default" needs no stored profile: a first run with the credentials in the environment
    expect((await runCli(['--profile', 'default', 'config', 'get', 'client_id'], { env: ciEnv(tempConfigDir()) })).code).toBe(0);
    expect((await runCli(['config', 'profiles'], { env: { FLEETCTL_CONFIG_DIR: dir, FLEETCTL_PROFILE: 'nothing-like-it' } })).stderr).toMatch(/^Error: no profile nothing-like-it\n/);
  });
});
