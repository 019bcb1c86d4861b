// Only the command group a line names is loaded (which group that is, its global options and their values
// skipped), and in a group that builds verbs one by one, only the verb the line names.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { addCommandGroups, operandsIn } from '../../src/commands/index.js';
import { newDevicesCommand } from '../../src/commands/devices/index.js';
import { newWebhookConfigCommand } from '../../src/commands/webhook-config/index.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';

function globalsOnly(): Command {
  return new Command('fleetctl')
    .option('--profile <name>')
    .addOption(new Option('-o, --output <format>'))
    .option('--sandbox')
    .option('--jq <expression>');
}

describe('the group a command line names', () => {
  it.each([
    [['devices', 'get', 'x'], 'devices'],
    [['--sandbox', 'fleets', 'list'], 'fleets'],
    [['--profile', 'devices', 'config', 'list'], 'config'],
    [['--profile=staging', 'auth', 'status'], 'auth'],
    [['-o', 'json', 'drivers', 'list'], 'drivers'],
    [['-ojson', 'events', 'list'], 'events'],
    [['--output=json', '--jq', '.id', 'vehicles', 'get', 'v'], 'vehicles'],
    [['--unknown-flag', 'journeys'], 'journeys'],
    [['--', 'api'], 'api'],
    [['--sandbox'], undefined],
    [[], undefined],
  ])('%j names %s', (words, group) => {
    expect(operandsIn(globalsOnly(), ['node', 'fleetctl', ...words]).group).toBe(group);
  });
});

describe('groups added', () => {
  const deps = () => createDeps({ io: IOStreams.forTest(), env: {} }, () => ({}));
  const names = async (words?: string[]) => {
    const program = globalsOnly();
    await addCommandGroups(program, deps(), words && ['node', 'fleetctl', ...words]);
    return program.commands.map((c) => c.name());
  };

  it('a known group alone', async () => {
    expect(await names(['--profile', 'p', 'devices', 'get', 'x'])).toEqual(['devices']);
  });

  it('every group, the hidden completion command included, for help, unknown names, completion, or no argv', async () => {
    const all = await names();
    expect(all).toContain('webhook-config');
    expect(all).toContain('__complete');
    expect(all.length).toBeGreaterThan(10);
    for (const words of [[], ['help', 'devices'], ['devicez'], ['completion', 'bash'], ['__complete', 'profile', '--', '']]) {
      expect(await names(words)).toEqual(all);
    }
  });
});

describe('the verb a command line names', () => {
  it.each([
    [['devices', 'get', 'x'], 'devices', 'get'],
    [['--sandbox', 'webhook-config', 'apply', '-f', 'x.yaml'], 'webhook-config', 'apply'],
    // after an option (which could take a value), the verb is not known
    [['devices', '--json', 'get', 'x'], 'devices', undefined],
    [['devices'], 'devices', undefined],
    [['--', 'devices', 'get'], 'devices', undefined],
  ])('%j names %s %s', (words, group, verb) => {
    const named = operandsIn(globalsOnly(), ['node', 'fleetctl', ...words]);
    expect({ group: named.group, verb: named.verb }).toEqual({ group, verb });
  });

  it.each([
    [['myalias', 'a'], 2],
    [['--profile', 'p', '-o', 'json', 'myalias'], 6],
    [['--', 'myalias'], 3],
    [['--sandbox'], undefined],
  ])('%j has its first operand at argv[%s] (where an alias is expanded)', (words, at) => {
    expect(operandsIn(globalsOnly(), ['node', 'fleetctl', ...words]).at).toBe(at);
  });

  const deps = () => createDeps({ io: IOStreams.forTest(), env: {} }, () => ({}));
  it.each([
    ['devices', newDevicesCommand],
    ['webhook-config', newWebhookConfigCommand],
  ] as const)('%s builds the named verb alone, each name the name of what it builds, and every verb otherwise', async (_group, build) => {
    const built = async (verb?: string) => (await build(deps(), verb)).commands.map((c) => c.name());
    const all = await built();
    expect(all.length).toBeGreaterThan(5);
    for (const verb of all) expect(await built(verb)).toEqual([verb]);
    for (const other of [undefined, 'help', 'gett', 'x']) expect(await built(other)).toEqual(all);
  });

  it('a line naming group and verb gets that verb alone; help for the group, all of them', async () => {
    const verbs = async (words: string[]) => {
      const program = globalsOnly();
      await addCommandGroups(program, deps(), ['node', 'fleetctl', ...words]);
      return program.commands.find((c) => c.name() === 'devices')?.commands.map((c) => c.name());
    };
    expect(await verbs(['devices', 'reboot', 'HW-1'])).toEqual(['reboot']);
    expect((await verbs(['devices', '--help']))?.length).toBeGreaterThan(5);
    expect((await verbs(['help', 'devices']))?.length).toBeGreaterThan(5);
  });
});

