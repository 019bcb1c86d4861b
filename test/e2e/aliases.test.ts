// `fleetctl alias set|list|delete` and the aliases themselves, end to end: stored for every profile, run against
// the embedded sandbox as the line they stand for, refused a built-in command's name, a failing one saying what it
// ran, a --shell one run by sh with its arguments whole; listed in --help, help reference and completion.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

function configured() {
  const configDir = tempDir('fleetctl-aliases-');
  const env = { FLEETCTL_CONFIG_DIR: configDir };
  const cli = (args: string[], opts: { process?: boolean } = {}) => runCli(args, { env, ...opts });
  return { configDir, cli };
}

describe('alias set, list and delete', () => {
  it('stores an alias for every profile in the config store, lists it, and deletes it', async () => {
    const { configDir, cli } = configured();
    const set = await cli(['--profile', 'lab', 'alias', 'set', 'fleet-devices', 'devices list --fleet-id $1']);
    expect(set).toMatchObject({ code: 0, stdout: '' });
    expect(set.stderr).toContain('Set alias fleet-devices: fleetctl fleet-devices runs fleetctl devices list --fleet-id $1.');
    expect((await cli(['alias', 'set', 'count', '--shell', 'echo $#'])).code).toBe(0);
    const stored = JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8'));
    expect(stored.aliases).toEqual({ 'fleet-devices': 'devices list --fleet-id $1', count: '!echo $#' });
    expect(stored.profiles?.lab?.aliases).toBeUndefined();

    const list = await cli(['alias', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'count', expansion: '!echo $#' },
      { name: 'fleet-devices', expansion: 'devices list --fleet-id $1' },
    ]);

    expect((await cli(['alias', 'delete', 'count'])).code).toBe(0);
    const missing = await cli(['alias', 'delete', 'count']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('no alias "count"');
    expect(Object.keys(JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8')).aliases)).toEqual(['fleet-devices']);
  });

  it.each([
    ['devices', 'fleets list'],
    ['help', 'devices list'],
    ['alias', 'devices list'],
    ['__complete', 'devices list'],
  ])('refuses the name %s of a built-in command, naming it (exit 2), and stores nothing', async (name, expansion) => {
    const { configDir, cli } = configured();
    const result = await cli(['alias', 'set', name, expansion]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${name} is a fleetctl command: an alias cannot shadow it`);
    expect(() => readFileSync(path.join(configDir, 'config.json'), 'utf8')).toThrow();
  });

  it('refuses an expansion that names no fleetctl command, and a name that is no word', async () => {
    const { cli } = configured();
    const typo = await cli(['alias', 'set', 'ls', 'devicez list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('names "devicez", which is no fleetctl command');
    const flag = await cli(['alias', 'set', 'x y', 'devices list']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('"x y" is not a name for an alias');
    // the fuzz suite's 100,000-character name was stored, then printed whole in every message
    const long = await cli(['alias', 'set', 'x'.repeat(65), 'devices list']);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('use up to 64 letters');
    expect((await cli(['alias', 'set', 'x'.repeat(64), 'devices list'])).code).toBe(0);
  });
});

describe('running an alias', () => {
  it('runs the line it stands for against the embedded sandbox (--sandbox before the alias), its arguments whole', async () => {
    const { cli } = configured();
    const fleet = await cli(['--sandbox', 'fleets', 'list', '--limit', '1', '--jq', '.id']);
    expect(fleet.code).toBe(0);
    const fleetId = fleet.stdout.trim();
    expect((await cli(['alias', 'set', 'fleet-devices', 'devices list --fleet-id $1'])).code).toBe(0);
    const direct = await cli(['--sandbox', 'devices', 'list', '--fleet-id', fleetId, '--limit', '3', '--json']);
    const aliased = await cli(['--sandbox', 'fleet-devices', fleetId, '--limit', '3', '--json']);
    expect(aliased.code).toBe(0);
    expect(JSON.parse(aliased.stdout)).toHaveLength(3);
    expect(aliased.stdout).toBe(direct.stdout);
  });

  it('a failing alias says which alias it expanded and to what: a refused value, a usage error, missing arguments', async () => {
    const { cli } = configured();
    await cli(['alias', 'set', 'fleet-devices', 'devices list --fleet-id $1']);
    const refused = await cli(['--sandbox', 'fleet-devices', 'not a uuid']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--fleet-id must be a UUID');
    expect(refused.stderr).toContain("alias fleet-devices expanded to: fleetctl --sandbox devices list --fleet-id 'not a uuid'\n");
    const unknown = await cli(['fleet-devices', '3f2b8c1e-0000-4000-8000-000000000000', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    expect(unknown.stderr).toContain('alias fleet-devices expanded to: fleetctl devices list --fleet-id 3f2b8c1e-0000-4000-8000-000000000000 --bogus');
    const short = await cli(['fleet-devices']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('alias fleet-devices needs 1 argument ($1), got 0');
  });

  it('an alias whose expansion starts with another alias runs through both; one that leads back to itself is refused', async () => {
    const { configDir, cli } = configured();
    const fleet = (await cli(['--sandbox', 'fleets', 'list', '--limit', '1', '--jq', '.id'])).stdout.trim();
    expect((await cli(['alias', 'set', 'fleet-devices', 'devices list --fleet-id $1'])).code).toBe(0);
    expect((await cli(['alias', 'set', 'three', 'fleet-devices $1 --limit 3'])).code).toBe(0);
    const direct = await cli(['--sandbox', 'devices', 'list', '--fleet-id', fleet, '--limit', '3', '--json']);
    const aliased = await cli(['--sandbox', 'three', fleet, '--json']);
    expect(aliased.code, aliased.stderr).toBe(0);
    expect(aliased.stdout).toBe(direct.stdout);
    const refused = await cli(['--sandbox', 'three', 'not a uuid']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("alias three → fleet-devices expanded to: fleetctl --sandbox devices list --fleet-id 'not a uuid' --limit 3\n");
    // set refuses the alias that would close a loop, and stores nothing
    const loop = await cli(['alias', 'set', 'fleet-devices', 'three $1']);
    expect(loop.code).toBe(2);
    expect(loop.stderr).toContain('alias fleet-devices reaches itself: fleet-devices → three → fleet-devices');
    expect(JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8')).aliases['fleet-devices']).toBe('devices list --fleet-id $1');
    // one written by hand is refused when used: exit 2 naming the chain, nothing run
    const config = JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8'));
    writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ ...config, aliases: { ...config.aliases, 'fleet-devices': 'three' } }));
    const looped = await cli(['--sandbox', 'three', fleet]);
    expect(looped.code).toBe(2);
    expect(looped.stdout).toBe('');
    expect(looped.stderr).toContain('alias three reaches itself: three → fleet-devices → three');
  });

  it('a --shell alias runs with sh -c, its arguments as $1.. unsplit, FLEETCTL_* context, and can call fleetctl', async () => {
    const { cli } = configured();
    const script = `printf '[%s]\\n' "$@"; echo "$FLEETCTL_ALIAS $FLEETCTL_PROFILE"; "$FLEETCTL_EXECUTABLE" alias list --jq .name`;
    expect((await cli(['alias', 'set', 'show', '--shell', script])).code).toBe(0);
    const result = await cli(['--profile', 'lab', 'show', 'a b', "it's *"], { process: true });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe("[a b]\n[it's *]\nshow lab\nshow\n");
  });

  it("a failing --shell alias ends with the script's status, and says what it ran", async () => {
    const { cli } = configured();
    await cli(['alias', 'set', 'fail', '!echo "no $1" >&2; exit 7']);
    const result = await cli(['fail', 'luck'], { process: true });
    expect(result.code).toBe(7);
    expect(result.stderr).toBe(`no luck\nalias fail expanded to: sh -c 'echo "no $1" >&2; exit 7' fail luck\n`);
    // --sandbox would not reach the fleetctl the script runs: refused rather than lost
    const sandboxed = await cli(['--sandbox', 'fail', 'luck']);
    expect(sandboxed.code).toBe(2);
    expect(sandboxed.stderr).toContain('--sandbox before the shell alias fail would not reach the fleetctl its script runs');
  });
});

describe('aliases in help and completion', () => {
  it('--help lists them in a section of their own, and help reference too', async () => {
    const { cli } = configured();
    await cli(['alias', 'set', 'fleet-devices', 'devices list --fleet-id $1']);
    const help = await cli(['--help']);
    expect(help.stdout).toContain('Aliases (fleetctl alias list):\n  fleet-devices  devices list --fleet-id $1\n\nExamples:');
    expect((await cli(['help', 'reference'])).stdout).toContain('  fleet-devices  devices list --fleet-id $1');
    // without aliases, no section
    expect((await configured().cli(['--help'])).stdout).not.toContain('Aliases');
  });

  it('the hidden completion command offers alias names, with what each expands to', async () => {
    const { cli } = configured();
    await cli(['alias', 'set', 'fleet-devices', 'devices list --fleet-id $1']);
    await cli(['alias', 'set', 'fd', '!echo']);
    const result = await cli(['__complete', 'alias', '--', 'fleet']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('fleet-devices\talias: devices list --fleet-id $1\n');
  });
});
