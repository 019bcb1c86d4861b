// What the value of an option or argument is, declared beside it, so that completion offers the right things:
// commander's choices are read as they are; the rest (paths, profiles, ids from the API) is marked here.
import type { Argument, Command, Option } from 'commander';

/**
 * Values that `fleetctl __complete` looks up: profiles, saved selections and aliases in the config store, the
 * extensions on PATH (with the aliases, for the first word), ids
 * through the API, and the terms of a --where expression (qualifiers, members, fleets, saved selections).
 */
export const LOOKED_UP_VALUES = ['profile', 'selection', 'alias', 'alias-or-extension', 'where', 'hardware-id', 'fleet-id', 'organization-id'] as const;
export type LookedUpValue = (typeof LOOKED_UP_VALUES)[number];

/** Values the shell completes by itself. */
export type PathValue = 'file' | 'directory';

/** A fixed list; `commaList` when the value may hold several, separated by commas (`--topics events,alarms`). */
export interface WordValues {
  words: readonly string[];
  commaList?: boolean;
}

export type ValueCompletion = LookedUpValue | PathValue | WordValues;

// Typed, beside commander's objects rather than on them: a WeakMap keyed by the option or argument. It lives here
// and not in the verbs' registry (commands/shared/verb-record.ts) because completion sits below the commands: the
// commands import it, never the other way.
const declared = new WeakMap<Option | Argument, ValueCompletion>();

/**
 * Marks how the values of a verb's options (`--from-file`) and arguments (`hardware-ids`) complete. A name that
 * the verb does not declare is a programming error, caught by any test that builds the command tree.
 */
export function completeValues(command: Command, values: Record<string, ValueCompletion>): Command {
  for (const [name, completion] of Object.entries(values)) {
    declared.set(name.startsWith('-') ? optionTakingValue(command, name) : argumentNamed(command, name), completion);
  }
  return command;
}

function optionTakingValue(command: Command, flag: string): Option {
  const option = command.options.find((o) => o.long === flag || o.short === flag);
  if (!option) throw new Error(`completeValues: ${command.name()} has no option ${flag}`);
  if (!option.required && !option.optional) throw new Error(`completeValues: ${command.name()} ${flag} takes no value`);
  return option;
}

function argumentNamed(command: Command, name: string): Argument {
  const argument = command.registeredArguments.find((a) => a.name() === name);
  if (!argument) throw new Error(`completeValues: ${command.name()} has no argument ${name}`);
  return argument;
}

/** How a value completes: its declared completion, else commander's choices, else nothing to offer. */
export function valueCompletionOf(target: Option | Argument): ValueCompletion | undefined {
  const marked = declared.get(target);
  if (marked) return marked;
  return target.argChoices ? { words: target.argChoices } : undefined;
}

export function isLookedUp(value: unknown): value is LookedUpValue {
  return typeof value === 'string' && (LOOKED_UP_VALUES as readonly string[]).includes(value);
}
