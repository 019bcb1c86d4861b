// Names checked, with suggestions, end to end: a mistyped profile (--profile, FLEETCTL_PROFILE, config use), a
// setting, a topic type and a hardware id in the wrong case are each one line naming what was meant, exit 2 (or 5
// for a device), and nothing on stdout. A login's scope refusal names the scopes in fleetctl's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startHarness, type SandboxHarness } from './harness.js';

let h: SandboxHarness;
let hardwareId: string;

/** A config directory of its own: each test starts from the profiles it stores. */
function freshConfig(): string {
  return tempDir('fleetctl-names-');
}

beforeAll(async () => {
  h = await startHarness();
  const listed = await h.cli(['devices', 'list', '-o', 'json', '--max-items', '1']);
  expect(listed.code).toBe(0);
  hardwareId = (JSON.parse(listed.stdout) as { hardware_id: string }[])[0]!.hardware_id;
  expect(hardwareId).not.toBe(hardwareId.toLowerCase());
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('profiles', () => {
  it('an unknown profile, by flag or environment, is exit 2 with the nearest name, before anything else is said', async () => {
    const env = { FLEETCTL_CONFIG_DIR: freshConfig() };
    expect((await h.cli(['--profile', 'reader', 'config', 'set', 'client_id', 'sandbox-reader'], { env })).code).toBe(0);
    // the environment holds a whole working configuration: without the check, the command would run with it
    for (const [args, extra, by] of [
      [['--profile', 'readr', 'devices', 'list'], {}, '--profile'],
      [['devices', 'list'], { FLEETCTL_PROFILE: 'readr' }, 'FLEETCTL_PROFILE'],
    ] as const) {
      const result = await h.cli([...args], { env: { ...env, ...extra } });
      expect([result.code, result.stdout, result.stderr]).toEqual([
        2,
        '',
        `Error: no profile readr; did you mean reader?\nHint: ${by} named it; the profiles are reader; to make it: fleetctl config use readr --create, or fleetctl --profile readr auth login\n`,
      ]);
    }
    // nothing stored at all, as on a first run: the default profile and the environment's credentials work
    const first = await h.cli(['devices', 'list', '--max-items', '1'], { env: { FLEETCTL_CONFIG_DIR: freshConfig() } });
    expect([first.code, first.stderr]).toEqual([0, '']);
    const named = await h.cli(['--profile', 'default', 'devices', 'list', '--max-items', '1'], { env: { FLEETCTL_CONFIG_DIR: freshConfig() } });
    expect(named.code).toBe(0);
  });

  it('config use does not make a profile unless --create says so; config set --profile makes one', async () => {
    const env = { FLEETCTL_CONFIG_DIR: freshConfig() };
    const refused = await h.cli(['config', 'use', 'staging'], { env });
    expect([refused.code, refused.stderr.split('\n')[0]]).toEqual([2, 'Error: no profile staging']);
    expect(refused.stderr).toContain('no profile is stored yet; to make it: fleetctl config use staging --create');
    expect((await h.cli(['config', 'profiles', '-o', 'json'], { env })).stdout).not.toContain('staging');
    expect((await h.cli(['config', 'use', 'staging', '--create'], { env })).stderr).toBe('Now using profile "staging", a new, empty profile: set it up with `fleetctl auth login`.\n');
    expect((await h.cli(['--profile', 'prod', 'config', 'set', 'base_url', h.sandbox.baseUrl], { env })).stderr).toBe('Set base_url for the new profile "prod".\n');
    const typo = await h.cli(['config', 'use', 'prd'], { env });
    expect([typo.code, typo.stderr.split('\n')[0]]).toEqual([2, 'Error: no profile prd; did you mean prod?']);
    expect((await h.cli(['config', 'use', 'prod'], { env })).stderr).toBe('Now using profile "prod".\n');
  });
});

describe('a login with some scopes refused', () => {
  it('says which scopes in plain words, not in the issuer\'s; with --scopes, a refusal is exit 3 naming them', async () => {
    const reader = h.sandbox.clients.find((c) => c.client_id === 'sandbox-reader')!;
    const env = { FLEETCTL_CONFIG_DIR: freshConfig(), FLEETCTL_CLIENT_ID: reader.client_id, FLEETCTL_CLIENT_SECRET: reader.client_secret };
    const partial = await h.cli(['auth', 'login', '--no-input'], { env });
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stderr).toMatch(/The client does not hold every scope of the API: the issuer refused the scopes [a-z_]+(, [a-z_]+)* and [a-z_]+\. Each command asks/);
    expect(partial.stderr).not.toContain('thirdparty.api.');
    const strict = await h.cli(['auth', 'login', '--no-input', '--scopes', 'devices_read,devices_write'], { env });
    expect([strict.code, strict.stderr.split('\n')[0]]).toEqual([
      3,
      `Error: ${h.sandbox.authUrl}/connect/token refused client "sandbox-reader": it does not hold the scope devices_write, asked for by --scopes (invalid_scope)`,
    ]);
  });
});

describe('settings, topic types and hardware ids', () => {
  it('a setting spelt as its flag is named as the setting', async () => {
    const result = await h.cli(['config', 'set', 'base-url', h.sandbox.baseUrl], { env: { FLEETCTL_CONFIG_DIR: freshConfig() } });
    expect([result.code, result.stdout, result.stderr.split('\n')[0]]).toEqual([2, '', 'Error: unknown setting "base-url" (did you mean base_url?)']);
  });

  it('a topic type in the singular is named in the plural', async () => {
    const result = await h.cli(['webhook-config', 'topics', 'remove', 'alarm', '--yes']);
    expect([result.code, result.stdout, result.stderr.split('\n')[0]]).toEqual([2, '', 'Error: unknown topic type "alarm" (did you mean alarms?)']);
  });

  it('a hardware id in the wrong case: not found (exit 5), naming the id that differs only by case', async () => {
    const typed = hardwareId.toLowerCase();
    const result = await h.cli(['devices', 'get', typed]);
    expect([result.code, result.stdout, result.stderr.split('\n')[0]]).toEqual([
      5,
      '',
      `Error: no device with hardware id "${typed}"; did you mean ${hardwareId}? (resource.not_found, HTTP 404)`,
    ]);
    // a verb whose path takes the hardware id: the service's 404, and the same suggestion after its words
    const reported = await h.cli(['devices', 'last-reported', typed]);
    expect([reported.code, reported.stdout]).toEqual([5, '']);
    expect(reported.stderr.split('\n')[0]).toMatch(new RegExp(`^Error: .*; did you mean ${hardwareId}\\? \\(`));
    for (const verb of [['devices', 'events', typed], ['devices', 'media', typed]]) {
      const listed = await h.cli(verb);
      expect([listed.code, listed.stdout], listed.stderr).toEqual([5, '']);
      expect(listed.stderr.split('\n')[0]).toMatch(new RegExp(`; did you mean ${hardwareId}\\? \\(`));
    }
    // in capitals already: no second lookup is made, and nothing is suggested
    const absent = await h.cli(['devices', 'last-reported', 'HW-NOPE']);
    expect([absent.code, absent.stderr]).toEqual([5, expect.not.stringContaining('did you mean')]);
  });
});
