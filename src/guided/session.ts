// The guided mode: a command line built by questions, shown whole, then run by the same program as if typed. It
// teaches the line: what it prints can be copied and run again. A disruptive command still asks its own
// confirmation when it runs (unless --yes was chosen among its flags).
import type { Command } from 'commander';
import type { Deps } from '../factory.js';
import { UsageError } from '../errors.js';
import { isPickable } from '../commands/shared/pick-list.js';
import { shellLine } from '../shared/shell-quote.js';
import { quoteInput } from '../shared/terminal-text.js';
import { chooseVerb } from './command-search.js';
import { askFlags } from './flags.js';
import { argumentValue, askValue, optionValue } from './values.js';
import { GUIDED_FLAG } from './guided-flag.js';
import type { LogFormat } from '../io/log-lines.js';

/**
 * The line to run (argv, as main() takes it), or undefined when the operator chose not to run it. The global
 * flags given with --guided (--sandbox, --profile ...) are kept on the line, and used while asking.
 */
export async function guidedLine(deps: Deps, program: Command, argv: string[]): Promise<string[] | undefined> {
  const globals = globalWords(program, argv, deps.io);
  requirePerson(deps, program.opts<{ input?: boolean }>().input === false);
  const verb = await chooseVerb(deps, program);
  const words = [...globals, ...verb.path, ...(await requiredWords(deps, verb.command, globals)), ...(await askFlags(deps, verb.command, globals))];
  const line = shellLine([program.name(), ...words]);
  deps.io.info(`\nThe command line (copy it to run it again):\n${line}\n`);
  if (!(await deps.prompter.confirm('Run it now?', { default: true }))) {
    deps.io.info('Not run.');
    return undefined;
  }
  return [...argv.slice(0, 2), ...words];
}

/**
 * The program's own flags on the line (but --guided): they are read now (the pickers ask the service they name)
 * and kept for the line. The guided mode takes no command: it asks for one.
 */
function globalWords(program: Command, argv: string[], io: Deps['io']): string[] {
  const words = argv.slice(2);
  const { operands, unknown } = program.parseOptions(words);
  // --log-format is the messages' from here on, this refusal's included (no command's hook runs before them)
  const { logFormat } = program.opts<{ logFormat?: LogFormat }>();
  if (logFormat) io.logFormat = logFormat;
  if (operands.length > 0) {
    throw new UsageError(`${GUIDED_FLAG} asks for the command itself; leave out ${quoteInput(operands.join(' '))}, or leave out ${GUIDED_FLAG}`);
  }
  if (unknown.length > 0) throw new UsageError(`unknown option ${quoteInput(unknown[0]!)} (the options before a command: fleetctl --help)`);
  return words.filter((word) => word !== GUIDED_FLAG);
}

/** Questions need a person at a terminal: never in CI, with --no-input, or with stdin or stdout elsewhere. */
function requirePerson(deps: Pick<Deps, 'io'>, noInput: boolean): void {
  if (deps.io.canPrompt() && !noInput) return;
  const why = noInput ? '--no-input' : deps.io.isCI() ? 'CI' : 'input and output not both on a terminal';
  throw new UsageError(`${GUIDED_FLAG} asks questions, which ${why} rules out: name the command instead (fleetctl --help lists them)`);
}

/**
 * The command's arguments, in order, then its required flags. An optional argument the command picks on a
 * terminal with no picker it declared (media items, picked within the command's own window), is left to the
 * command (it asks for it when it runs), and so are the arguments after it.
 */
async function requiredWords(deps: Deps, command: Command, globals: readonly string[]): Promise<string[]> {
  const words: string[] = [];
  for (const argument of command.registeredArguments) {
    const asked = argumentValue(argument);
    if (asked.values === undefined && asked.pick === undefined && isPickable(asked.description)) {
      deps.io.info(`${asked.label}: picked from a list when the command runs.`);
      break;
    }
    const value = await askValue(deps, asked, globals);
    // a later argument cannot be given once one before it is left out
    if (value.length === 0) break;
    words.push(...value);
  }
  for (const option of command.options.filter((o) => o.mandatory)) {
    const flag = option.long ?? option.flags;
    words.push(...(await askValue(deps, { ...optionValue(option), optional: false }, globals)).flatMap((value) => [flag, value]));
  }
  return words;
}
