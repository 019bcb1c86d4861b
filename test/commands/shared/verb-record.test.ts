// Command metadata travels through typed registries, never on commander's objects: describeVerb records a verb
// (verbRecordOf reads it), completeValues records how a value completes, commander's public Help says what is
// hidden. A scan of src/ keeps the side channels from coming back: no Object.assign onto a command, no cast to
// `Command & {...}`, no commander private member.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { describeVerb, examplesOf, isDescribedVerb, needsStoredProfile, operationIdsOf } from '../../../src/commands/shared/help.js';
import { epilogueOf, setEpilogue, verbRecordOf } from '../../../src/commands/shared/verb-record.js';
import { completeValues, valueCompletionOf } from '../../../src/completion/values.js';
import { completionTree, visibleSubcommands } from '../../../src/completion/tree.js';
import { manualOf } from '../../../src/commands/help/manual/model.js';

const root = path.resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

// what carried metadata by side channel: assigned onto a command, read back through a cast, or commander's private
// members (an underscore after a dot: `command._hidden`, `cmd._helpCommand`)
const SIDE_CHANNELS: [string, RegExp][] = [
  ['Object.assign onto a command', /Object\.assign\(\s*(?:command|program|cmd|verb|group)\b/],
  ['cast to Command & {...}', /as\s+Command\s*&/],
  ['private member of commander', /\._(?:hidden|helpCommand|actionHandler|helpConfiguration|optionValues|name|args)\b|\b_hidden\b/],
];

describe('command metadata: no side channel in src/', () => {
  const files = sourceFiles('src').filter((file) => !file.endsWith('.gen.ts'));

  it('reads the whole tree', () => expect(files.length).toBeGreaterThan(200));

  it.each(SIDE_CHANNELS)('no %s', (_what, pattern) => {
    const found = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the patterns find what they are written for', () => {
    const [assign, cast, priv] = SIDE_CHANNELS.map(([, pattern]) => pattern);
    expect(assign!.test('Object.assign(command, { examples })')).toBe(true);
    expect(assign!.test('Object.assign(program, { helpAfter: x })')).toBe(true);
    expect(cast!.test('(cmd as Command & { helpAfter?: string })')).toBe(true);
    expect(priv!.test('(item as { _hidden?: boolean })._hidden')).toBe(true);
    expect(priv!.test('command._helpCommand')).toBe(true);
    expect(priv!.test('option.hidden')).toBe(false);
  });
});

describe('the verbs\' registry', () => {
  const verb = () => new Command('get').argument('<hardware-id>');

  it('describeVerb records the declaration: operations, their scopes, examples, traits', () => {
    const command = describeVerb(verb(), { operationIds: ['getDevice'], output: 'records', examples: [{ comment: 'one device', command: 'fleetctl devices get HW-1' }], notes: 'a note' });
    const record = verbRecordOf(command)!;
    expect(record.operationIds).toEqual(['getDevice']);
    expect(record.scopes).toEqual(['thirdparty.api.devices_read']);
    expect(record.notes).toBe('a note');
    expect(record.traits.uses.has('profile')).toBe(true);
    expect(examplesOf(command)).toEqual([{ comment: 'one device', command: 'fleetctl devices get HW-1' }]);
    expect(operationIdsOf(command)).toEqual(['getDevice']);
    expect(isDescribedVerb(command)).toBe(true);
    expect(needsStoredProfile(command)).toBe(true);
  });

  it('a verb that makes its profile, or calls no operation, needs no stored profile', () => {
    expect(needsStoredProfile(describeVerb(verb(), { operationIds: ['getDevice'], makesProfile: true, output: 'nothing', examples: [] }))).toBe(false);
    expect(needsStoredProfile(describeVerb(verb(), { output: 'text', examples: [] }))).toBe(false);
  });

  it('a command not declared through describeVerb has no record, and nothing is read off the object', () => {
    const group = new Command('devices');
    // a property of that name on the object is not metadata: only the registry is
    Reflect.set(group, 'examples', [{ comment: 'x', command: 'y' }]);
    expect(verbRecordOf(group)).toBeUndefined();
    expect(examplesOf(group)).toEqual([]);
    expect(isDescribedVerb(group)).toBe(false);
  });

  it('the program\'s after-text is its own entry, shown by its help and kept in the manual', () => {
    const program = new Command('fleetctl').addCommand(describeVerb(verb(), { output: 'text', examples: [] }));
    setEpilogue(program, 'Exit codes:\n  0 done\n');
    expect(epilogueOf(program)).toBe('Exit codes:\n  0 done\n');
    expect(epilogueOf(program.commands[0]!)).toBeUndefined();
    expect(manualOf(program)[0]!.epilogue).toBe('Exit codes:\n  0 done\n');
  });
});

describe('hidden commands and value completion through public API', () => {
  function tree() {
    const program = new Command('fleetctl').addOption(new Option('--secret-flag').hideHelp()).option('--profile <name>');
    const devices = new Command('devices');
    devices.addCommand(new Command('list').option('--from-file <file>').addOption(new Option('--format <f>').choices(['a', 'b'])));
    devices.addCommand(new Command('internal'), { hidden: true });
    program.addCommand(devices).addCommand(new Command('__complete'), { hidden: true });
    return program;
  }

  it('a command added with { hidden: true } is left out of help, completion and the manual; commander\'s implicit help too', () => {
    const program = tree();
    expect(visibleSubcommands(program).map((c) => c.name())).toEqual(['devices']);
    expect(visibleSubcommands(program.commands[0]!).map((c) => c.name())).toEqual(['list']);
    const completion = completionTree(program);
    expect(completion.commands.map((node) => node.path)).toEqual(['', 'devices', 'devices list']);
    expect(completion.global.flatMap((o) => o.flags)).toEqual(['--profile']);
    expect(manualOf(program).map((page) => page.title)).toEqual(['fleetctl', 'fleetctl devices', 'fleetctl devices list']);
  });

  it('completeValues records a value\'s completion; undeclared, commander\'s choices stand', () => {
    const program = tree();
    const list = program.commands[0]!.commands[0]!;
    completeValues(list, { '--from-file': 'file' });
    const option = (flag: string) => list.options.find((o) => o.long === flag)!;
    expect(valueCompletionOf(option('--from-file'))).toBe('file');
    expect(valueCompletionOf(option('--format'))).toEqual({ words: ['a', 'b'] });
    // the same flag on another command is another option: nothing recorded for it
    expect(valueCompletionOf(new Option('--from-file <file>'))).toBeUndefined();
  });

  it('completeValues refuses a name the verb does not declare, and a flag that takes no value', () => {
    const list = tree().commands[0]!.commands[0]!.option('--all');
    expect(() => completeValues(list, { '--nope': 'file' })).toThrow('completeValues: list has no option --nope');
    expect(() => completeValues(list, { 'ids': 'hardware-id' })).toThrow('completeValues: list has no argument ids');
    expect(() => completeValues(list, { '--all': 'file' })).toThrow('completeValues: list --all takes no value');
  });
});
