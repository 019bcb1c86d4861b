// The manual as data, read off the command tree the way `--help` and the completions are: one page per visible
// command (the program, each group, each verb), with commander's own terms and descriptions for arguments and
// options. The Markdown reference (`fleetctl help reference`) and the man pages are both written from it, so
// neither can describe a command or flag that does not exist, nor miss one.
import { Help, type Command } from 'commander';
import { afterOptionsOf, examplesOf, type Example } from '../../shared/help.js';
import { epilogueOf } from '../../shared/verb-record.js';
import { visibleSubcommands } from '../../../completion/tree.js';

export interface ManualItem {
  /** As help shows it: `-o, --output <format>`, `[hardware-ids...]`. */
  term: string;
  /** With commander's additions: choices, default, env. */
  description: string;
}

export interface ManualPage {
  /** Words from the program to the command: [] for the program, ['devices', 'reboot'] for a verb. */
  path: string[];
  /** `fleetctl devices reboot` */
  title: string;
  /** `fleetctl-devices-reboot`: the man page's name. */
  name: string;
  /** `fleetctl devices reboot [options] [hardware-ids...]` */
  usage: string;
  summary: string;
  arguments: ManualItem[];
  /** Its own options; for the program, the global options. */
  options: ManualItem[];
  /** The global options this verb honours, by their long flag (described on the program's page). */
  globals: string[];
  subcommands: ManualItem[];
  scopes: string[];
  notes?: string;
  examples: Example[];
  /** The program's after-text (its examples and exit codes), as `--help` prints it. */
  epilogue?: string;
}

/** The commands of the tree that help shows, parents before children, in help's order. */
export function visibleCommands(program: Command): Command[] {
  const all: Command[] = [];
  const visit = (command: Command) => {
    all.push(command);
    for (const sub of visibleSubcommands(command)) visit(sub);
  };
  visit(program);
  return all;
}

/** The words from the program to `command`. */
export function pathOf(command: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

function pageOf(command: Command, programName: string): ManualPage {
  const helper = new Help();
  const path = pathOf(command);
  const after = afterOptionsOf(command);
  return {
    path,
    title: [programName, ...path].join(' '),
    name: [programName, ...path].join('-'),
    // with the parents' names: `fleetctl devices reboot [options] [hardware-ids...]`
    usage: helper.commandUsage(command),
    summary: helper.commandDescription(command),
    arguments: helper.visibleArguments(command).map((a) => ({ term: helper.argumentTerm(a), description: helper.argumentDescription(a) })),
    options: helper.visibleOptions(command).map((o) => ({ term: helper.optionTerm(o), description: helper.optionDescription(o) })),
    globals: after.globals.map((o) => o.long ?? o.flags),
    // the tree's own subcommands: not commander's implicit `help [command]` of a group
    subcommands: visibleSubcommands(command).map((sub) => ({ term: helper.subcommandTerm(sub), description: helper.subcommandDescription(sub) })),
    scopes: after.scopes,
    notes: after.notes,
    examples: examplesOf(command),
    epilogue: epilogueOf(command),
  };
}

/** Every page of the manual, the program's first. */
export function manualOf(program: Command): ManualPage[] {
  return visibleCommands(program).map((command) => pageOf(command, program.name()));
}
