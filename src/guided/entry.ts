// Whether a line asks for the guided mode, decided before the line is parsed: `fleetctl --guided`, or `fleetctl`
// alone where a person can answer (elsewhere `fleetctl` alone prints the help, as it always has). Small and
// loaded with every command; the guided mode itself (session.ts and what it asks with) loads only on this path.
import type { Command } from 'commander';
import type { Deps } from '../factory.js';
import type { IOStreams } from '../io/streams.js';
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { GUIDED_FLAG } from './guided-flag.js';

/**
 * `firstOperandAt`: where the line's first operand is (a command), if it has one; --guided before it asks for the
 * guided mode, which then says that it takes no command.
 */
export function asksForGuided(argv: readonly string[], firstOperandAt: number | undefined, io: IOStreams): boolean {
  if (argv.length <= 2) return io.canPrompt();
  return argv.slice(2, firstOperandAt).includes(GUIDED_FLAG);
}

/**
 * --guided after a command (`fleetctl devices get --guided`) would be read as the program's flag, which commander
 * takes anywhere, and be ignored: refused, saying where it goes. Words after `--` are the command's operands.
 */
export function refuseGuidedAfterCommand(argv: readonly string[], firstOperandAt: number | undefined): void {
  if (firstOperandAt === undefined) return;
  const after = argv.slice(firstOperandAt + 1);
  const end = after.indexOf('--');
  if (!(end === -1 ? after : after.slice(0, end)).includes(GUIDED_FLAG)) return;
  const command = argv.slice(firstOperandAt, firstOperandAt + 1 + after.indexOf(GUIDED_FLAG)).join(' ');
  throw new UsageError(`${GUIDED_FLAG} goes before any command, never after one: fleetctl ${GUIDED_FLAG} (global flags before it: fleetctl --sandbox ${GUIDED_FLAG}), or ${quoteInput(command)} without it`);
}

/** The line to run, built by questions from the whole command tree; undefined when the operator chose not to run it. */
export async function guidedLine(deps: Deps, program: Command, argv: string[]): Promise<string[] | undefined> {
  const { guidedLine: ask } = await import('./session.js');
  return ask(deps, program, argv);
}
