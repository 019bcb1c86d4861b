// The guided mode's first question: the verbs of the tree, found by words of their names and descriptions; and the
// purposes its optional flags are grouped by.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { matchingVerbs, verbsOf } from '../../src/guided/command-search.js';
import { optionalFlags, purposeOf } from '../../src/guided/flags.js';
import { describeVerb } from '../../src/commands/shared/help.js';

/** A program of two groups: devices (get, reboot, a hidden verb) and fleets (list); verbs are described, groups not. */
function program(): Command {
  const verb = (name: string, description: string) => describeVerb(new Command(name).description(description), { output: 'records', examples: [] });
  const devices = new Command('devices').description('Devices of the tenant');
  devices.addCommand(verb('get', 'Show one device by its id or hardware id, as list prints it'));
  devices.addCommand(verb('reboot', 'Reboot devices, one or thousands').option('--fleet-id <uuid>', 'every device of this fleet').option('--yes', 'do not ask'));
  devices.addCommand(verb('secret', 'Never listed'), { hidden: true });
  const fleets = new Command('fleets').description('Fleets');
  fleets.addCommand(verb('list', 'List fleets, a page at a time'));
  const root = new Command('fleetctl').option('-o, --output <format>', 'output format').option('--profile <name>', 'profile');
  root.addCommand(devices);
  root.addCommand(fleets);
  return root;
}

describe('the verbs the guided mode searches', () => {
  it('are the described verbs, with their path, in help order; groups and hidden commands are not among them', () => {
    expect(verbsOf(program()).map((v) => v.path.join(' '))).toEqual(['devices get', 'devices reboot', 'fleets list']);
  });

  it.each([
    ['', ['devices get', 'devices reboot', 'fleets list']],
    ['reboot', ['devices reboot']],
    // words in any order and any case; all of them must be found
    ['HARDWARE device', ['devices get']],
    ['device page', []],
    // a word of the description alone is enough, but the names that hold the words come first
    ['list', ['fleets list', 'devices get']],
    ['devices', ['devices get', 'devices reboot']],
    ['one', ['devices get', 'devices reboot']],
    ['fleets', ['fleets list']],
  ])('%j finds %j', (term, expected) => {
    expect(matchingVerbs(verbsOf(program()), term).map((v) => v.path.join(' '))).toEqual(expected);
  });

});

describe('the optional flags of the guided mode', () => {
  it('groups flags by purpose, a flag named by none among Other', () => {
    expect(purposeOf(new Option('--fleet-id <uuid>'))).toBe('Which records');
    expect(purposeOf(new Option('--yes'))).toBe('Safety');
    expect(purposeOf(new Option('--since <time>'))).toBe('Time window');
    expect(purposeOf(new Option('--seed <n>'))).toBe('Other');
  });

  it("offers the verb's own flags and the program's output flags it honours, not those the line gives already", () => {
    const reboot = program().commands[0]!.commands[1]!;
    expect(optionalFlags(reboot, []).map((o) => o.long)).toEqual(['--fleet-id', '--yes', '--output']);
    expect(optionalFlags(reboot, ['-o', 'json']).map((o) => o.long)).toEqual(['--fleet-id', '--yes']);
  });
});
