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

const COMPLETION = Symbol('value completion');
type Marked = { [COMPLETION]?: ValueCompletion };

/**
 * Marks how the values of a verb's options (`--from-file`) and arguments (`hardware-ids`) complete. A name that
 * the verb does not declare is a programming error, caught by any test that builds the command tree.
 */
export function completeValues(command: Command, values: Record<string, ValueCompletion>): Command {
  for (const [name, completion] of Object.entries(values)) {
    const target: Option | Argument | undefined = name.startsWith('-')
      ? command.options.find((option) => option.long === name || option.short === name)
      : command.registeredArguments.find((argument) => argument.name() === name);
    if (!target) throw new Error(`completeValues: ${command.name()} has no ${name.startsWith('-') ? 'option' : 'argument'} ${name}`);
    if (name.startsWith('-') && !(target as Option).required && !(target as Option).optional) {
      throw new Error(`completeValues: ${command.name()} ${name} takes no value`);
    }
    (target as Marked)[COMPLETION] = completion;
  }
  return command;
}

/** How a value completes: its declared completion, else commander's choices, else nothing to offer. */
export function valueCompletionOf(target: Option | Argument): ValueCompletion | undefined {
  const marked = (target as Marked)[COMPLETION];
  if (marked) return marked;
  return target.argChoices ? { words: target.argChoices } : undefined;
}

export function isLookedUp(value: unknown): value is LookedUpValue {
  return typeof value === 'string' && (LOOKED_UP_VALUES as readonly string[]).includes(value);
}
