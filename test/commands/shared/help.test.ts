// Every verb's help teaches: the global options it honours (generated from the program's own options, so a new
// global flag shows up by itself), and a first example that is the simplest real use, not a pipeline.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/main.js';
import { createDeps } from '../../../src/factory.js';
import { IOStreams } from '../../../src/io/streams.js';
import { examplesOf, isDescribedVerb } from '../../../src/commands/shared/help.js';
import { visibleSubcommands } from '../../../src/completion/tree.js';

const io = IOStreams.forTest();

function program(): Promise<Command> {
  return buildProgram(createDeps({ io, env: {} }, () => ({})));
}

/** The whole help as `--help` prints it, text added after the options included. */
function helpOf(verb: Command): string {
  const before = io.stdout().length;
  // wide enough that nothing wraps: what the help says, not how it fits (help-width.test.ts checks that)
  verb.configureOutput({ getOutHelpWidth: () => 1000 });
  verb.outputHelp();
  return io.stdout().slice(before);
}

function rootOf(command: Command): Command {
  return command.parent ? rootOf(command.parent) : command;
}

/**
 * Every command a person runs: the leaves, and groups that are verbs too (`devices media`, `sandbox`); not the
 * hidden command the completion scripts call, which has no help to read.
 */
function verbs(command: Command, where: string, out: [string, Command][] = []): [string, Command][] {
  for (const sub of visibleSubcommands(command)) {
    const name = `${where} ${sub.name()}`;
    if (sub.commands.length === 0 || isDescribedVerb(sub)) out.push([name, sub]);
    verbs(sub, name, out);
  }
  return out;
}

/** The flags of the compact "Global options: --a, --b (see fleetctl --help)" paragraph of a help text, in order. */
function globalFlags(help: string): string[] {
  const section = /\nGlobal options: ([\s\S]*?) \(see fleetctl --help\)/.exec(help)?.[1];
  if (section === undefined) return [];
  return section.replace(/\s+/g, ' ').split(', ');
}

/** The long name of a flag as `--help` of the program shows it (`-o, --output` is `--output`). */
const long = (flag: string) => flag.replace(/^-\w, /, '');

const all = verbs(await program(), 'fleetctl');

describe('verb help: global options', () => {
  it('finds every verb', () => expect(all.length).toBeGreaterThan(45));

  it.each(all)('%s: declared through describeVerb, with a Global Options section', (_name, verb) => {
    expect(isDescribedVerb(verb)).toBe(true);
    const flags = globalFlags(helpOf(verb));
    expect(flags).toContain('--no-color');
    expect(flags).not.toContain('-V, --version');
    // only the program's own options: a parent verb's (`devices media --from`, `sandbox --port`) are not global
    const programFlags = rootOf(verb).options.map((o) => o.long);
    for (const flag of flags) expect(programFlags).toContain(flag);
  });

  const honoured: [string, string[]][] = [
    [
      'fleetctl devices list',
      ['--profile', '--base-url', '--auth-url', '-o, --output', '--json', '--columns', '--jq', '--slurp', '--no-color', '--debug', '--log-format', '--timeout', '--max-retries', '--max-retry-wait', '--ca-file', '--insecure', '--sandbox'],
    ],
    [
      'fleetctl devices reboot',
      ['--profile', '--base-url', '--auth-url', '-o, --output', '--json', '--columns', '--jq', '--slurp', '--no-color', '--no-input', '--debug', '--log-format', '--timeout', '--max-retries', '--max-retry-wait', '--ca-file', '--insecure', '--sandbox'],
    ],
    ['fleetctl webhook-config delete', ['--profile', '--base-url', '--auth-url', '--no-color', '--no-input', '--debug', '--log-format', '--timeout', '--max-retries', '--max-retry-wait', '--ca-file', '--insecure', '--sandbox']],
    [
      'fleetctl webhook-config regenerate-key',
      ['--profile', '--base-url', '--auth-url', '-o, --output', '--json', '--jq', '--no-color', '--no-input', '--debug', '--log-format', '--timeout', '--max-retries', '--max-retry-wait', '--ca-file', '--insecure', '--sandbox'],
    ],
    ['fleetctl auth login', ['--profile', '--base-url', '--auth-url', '--no-color', '--no-input', '--debug', '--log-format', '--timeout', '--max-retries', '--max-retry-wait', '--ca-file', '--insecure']],
    ['fleetctl config profiles', ['--profile', '-o, --output', '--json', '--columns', '--jq', '--slurp', '--no-color', '--log-format']],
    ['fleetctl config use', ['--no-color', '--log-format']],
    ['fleetctl completion', ['--no-color', '--log-format']],
    ['fleetctl webhook listen', ['-o, --output', '--json', '--jq', '--no-color', '--log-format']],
    ['fleetctl sandbox reset', ['--no-color', '--log-format']],
  ];

  it.each(honoured)('%s lists exactly the global options it honours', (name, flags) => {
    const verb = all.find(([n]) => n === name)![1];
    expect(globalFlags(helpOf(verb))).toEqual(flags.map(long));
  });

  it('a new global option shows up in every verb by itself, by name (its description is in fleetctl --help)', async () => {
    const root = await program();
    root.option('--brand-new <thing>', 'a flag no rule knows yet');
    for (const [, verb] of verbs(root, 'fleetctl')) {
      expect(globalFlags(helpOf(verb))).toContain('--brand-new');
    }
  });
});

describe('verb help: examples', () => {
  it.each(all)('%s: the first example is one plain command, as against your own profile', (_name, verb) => {
    const [first] = examplesOf(verb);
    expect(first, 'no example').toBeDefined();
    // no pipe, subshell, process substitution, sequence or background job: those come after it
    expect(first!.command).not.toMatch(/[|;&`]|\$\(|<\(/);
    expect(first!.command).toMatch(/^fleetctl /);
    expect(first!.command).not.toMatch(/--sandbox\b/);
    expect(helpOf(verb)).toContain(`Examples:\n  # ${first!.comment}${first!.runsUntilInterrupted ? ' (runs until Ctrl-C)' : ''}\n  $ ${first!.command}\n`);
  });

  it('help shows each example as written, and never the state it presumes', () => {
    const remove = all.find(([n]) => n === 'fleetctl webhook-config topics remove')![1];
    const help = helpOf(remove);
    const [first] = examplesOf(remove);
    expect(first!.given).toBeDefined();
    expect(help).toContain(`  $ ${first!.command}\n`);
    expect(help).not.toContain(first!.given!);
  });
});
