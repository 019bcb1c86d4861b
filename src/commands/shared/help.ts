// Help text shared by every verb: the scope it needs and examples that work as written.
import type { Command } from 'commander';
import { operation } from '../../openapi/operations.js';
import type { ResourceView } from '../../output/columns.js';

export interface Example {
  /** What the example does, shown as a comment line. */
  comment: string;
  /** The command line, without the leading `$ `. */
  command: string;
  /** A server or watcher that runs until Ctrl-C (the examples test stops it once it has printed). */
  runsUntilInterrupted?: boolean;
}

/** Adds "Scope: ..." and "Examples:" after the options of a verb. */
export function describeVerb(
  command: Command,
  opts: { operationIds?: string[]; examples: Example[]; notes?: string; shows?: ResourceView },
): Command {
  const scopes = [...new Set((opts.operationIds ?? []).map((id) => operation(id).scope))];
  const parts: string[] = [];
  if (scopes.length > 0) parts.push(`Scope: ${scopes.join(', ')}`);
  if (opts.notes) parts.push(opts.notes);
  if (opts.examples.length > 0) {
    parts.push(`Examples:\n${opts.examples.map((e) => `  # ${e.comment}${e.runsUntilInterrupted ? ' (runs until Ctrl-C)' : ''}\n  $ ${e.command}`).join('\n\n')}`);
  }
  command.addHelpText('after', `\n${parts.join('\n\n')}\n`);
  Object.assign(command, { examples: opts.examples, operationIds: opts.operationIds ?? [], shows: opts.shows });
  return command;
}

/** The API operations a verb calls, as it declared them: a test checks every operation has a verb. */
export function operationIdsOf(command: Command): string[] {
  return (command as Command & { operationIds?: string[] }).operationIds ?? [];
}

/** The examples a verb declared: the test suite runs every one of them against a sandbox. */
export function examplesOf(command: Command): Example[] {
  return (command as Command & { examples?: Example[] }).examples ?? [];
}

/** The records a verb prints, as it declared them: --columns is checked against them before any request. */
export function recordsShownBy(command: Command): ResourceView | undefined {
  return (command as Command & { shows?: ResourceView }).shows;
}
