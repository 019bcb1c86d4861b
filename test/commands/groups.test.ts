// Only the command group a line names is loaded: which group that is, its global options and their values skipped.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { addCommandGroups, groupNamedIn } from '../../src/commands/index.js';
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
    expect(groupNamedIn(globalsOnly(), ['node', 'fleetctl', ...words])).toBe(group);
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
