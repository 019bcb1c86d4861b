// The command tree as the fuzz suite sees it, read from commander itself: a command added tomorrow is fuzzed
// without anyone listing it here.
import type { Command } from 'commander';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';

export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  choices?: string[];
}

export interface OptionSpec {
  /** What goes on the command line: the long flag when there is one. */
  flag: string;
  /** The name without dashes (`from-file`), which value families are chosen by. */
  name: string;
  /** `<value>` or `[value]`; boolean flags take none. */
  takesValue: boolean;
  /** The placeholder (`<uuid>`, `<file>`), a hint of what it holds. */
  placeholder: string;
  choices?: string[];
}

export interface CommandSpec {
  /** `['devices', 'media', 'download']` */
  path: string[];
  args: ArgumentSpec[];
  options: OptionSpec[];
}

export function optionSpec(option: Command['options'][number]): OptionSpec {
  const flag = option.long ?? option.short!;
  return {
    flag,
    name: flag.replace(/^-+/, ''),
    takesValue: option.required || option.optional,
    placeholder: /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '',
    choices: option.argChoices,
  };
}

function argumentSpec(argument: Command['registeredArguments'][number]): ArgumentSpec {
  return { name: argument.name(), required: argument.required, variadic: argument.variadic, choices: argument.argChoices };
}

/** Every command that does something itself (a leaf, or a group with arguments or options of its own). */
export async function commandTree(): Promise<{ commands: CommandSpec[]; globals: OptionSpec[] }> {
  const io = IOStreams.forTest();
  const program = await buildProgram(createDeps({ io, env: {} }, () => ({})));
  const commands: CommandSpec[] = [];
  const walk = (command: Command, path: string[]) => {
    const acts = command.commands.length === 0 || command.registeredArguments.length > 0 || command.options.length > 0;
    if (path.length > 0 && acts) {
      commands.push({ path, args: command.registeredArguments.map(argumentSpec), options: command.options.map(optionSpec) });
    }
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  // --version and --help print and exit before any command runs: nothing to fuzz there
  const globals = program.options.map(optionSpec).filter((o) => o.name !== 'version');
  return { commands, globals };
}
