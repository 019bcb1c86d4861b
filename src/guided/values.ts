// One value the guided mode asks for, an argument's or a flag's, asked the way the command itself would: ids from
// the same pickers (devices, fleets, organizations), names from the same sources as completion (profiles, saved
// selections, aliases), fixed words from a list, dates with their forms and checked as the command checks them.
import type { Argument, Option } from 'commander';
import type { Deps } from '../factory.js';
import type { PromptChoice } from '../io/prompter.js';
import { isLookedUp, valueCompletionOf, type LookedUpValue, type ValueCompletion } from '../completion/values.js';
import { readCompletionLine } from '../completion/line.js';
import { candidatesFor, LOOKUP_BUDGET_MS } from '../commands/completion/complete.js';

import { hardwareIdArgument, pickFleet, pickOrganization } from '../commands/shared/pickers.js';
import { pickerOf, type ValuePicker } from '../commands/shared/pick-list.js';
import { DATE_FORMS, parseDateTime } from '../commands/shared/dates.js';
import { UsageError } from '../errors.js';
import { safeText } from '../shared/terminal-text.js';

/** The guided mode asks values of a chosen command, never a first word: no extension is looked up. */
const NO_FIRST_WORDS: ReadonlySet<string> = new Set();

/** What is asked for: an argument or a flag's value. */
export interface AskedValue {
  /** The argument's name, or the flag (`--since`). */
  label: string;
  description: string;
  values?: ValueCompletion;
  variadic: boolean;
  /** May be left out: an empty answer, or the list's "leave it out". */
  optional: boolean;
  /** The value's name in the flag (`<time>` is a date). */
  placeholder?: string;
  /** The picker the command declared for it (a vehicle, a driver, an event). */
  pick?: ValuePicker;
}

export function argumentValue(argument: Argument): AskedValue {
  return { label: argument.name(), description: argument.description, values: valueCompletionOf(argument), variadic: argument.variadic, optional: !argument.required, pick: pickerOf(argument) };
}

export function optionValue(option: Option): AskedValue {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1];
  return { label: option.long ?? option.flags, description: option.description, values: valueCompletionOf(option), variadic: option.variadic, optional: true, placeholder, pick: pickerOf(option) };
}

export type ValueDeps = Pick<Deps, 'api' | 'io' | 'prompter' | 'clock' | 'config' | 'output' | 'derive' | 'env'>;

/** The pickers of the commands, for the ids completion looks up through the API. */
const PICKERS: Partial<Record<LookedUpValue, (deps: ValueDeps) => Promise<string>>> = {
  'hardware-id': (deps) => hardwareIdArgument(deps, undefined),
  'fleet-id': pickFleet,
  'organization-id': pickOrganization,
};

// What "leave it out" is in a list of words (no word of a command is empty).
const LEFT_OUT = '';

/**
 * The words the answer adds to the line (none when an optional value is left out). `globals`: the global flags
 * of the line, which say where completion's names come from (its --profile).
 */
export async function askValue(deps: ValueDeps, asked: AskedValue, globals: readonly string[]): Promise<string[]> {
  const pick = asked.pick ?? (isLookedUp(asked.values) ? PICKERS[asked.values] : undefined);
  if (pick) return pickAll(deps, asked, () => pick(deps));
  const message = questionOf(asked);
  if (isLookedUp(asked.values) && asked.values !== 'where') {
    const candidates = await candidatesFor(deps, { kind: asked.values, budgetMs: LOOKUP_BUDGET_MS, builtIns: NO_FIRST_WORDS }, readCompletionLine([...globals, '']));
    const words = candidates.map((c) => ({ value: c.value, name: c.description ? `${c.value}  ${c.description}` : c.value }));
    if (words.length > 0) return chosenWords(deps, asked, message, words);
  }
  if (typeof asked.values === 'object') {
    const words = asked.values.words.map((word) => ({ value: word, name: word }));
    if (asked.values.commaList) return [(await deps.prompter.checkbox(message, { choices: words })).join(',')];
    return chosenWords(deps, asked, message, words);
  }
  return typed(deps, asked, message);
}

/** One id from the picker; for an argument that takes several, more until the operator says that is all. */
async function pickAll(deps: ValueDeps, asked: AskedValue, pick: () => Promise<string>): Promise<string[]> {
  const picked = [await pick()];
  while (asked.variadic && (await deps.prompter.confirm(`Another one for ${asked.label}?`, { default: false }))) picked.push(await pick());
  return picked;
}

async function chosenWords(deps: ValueDeps, asked: AskedValue, message: string, words: PromptChoice<string>[]): Promise<string[]> {
  const choices = asked.optional ? [{ value: LEFT_OUT, name: '(leave it out)' }, ...words] : words;
  const word = await deps.prompter.select(message, { choices: choices.map((c) => ({ ...c, name: safeText(c.name) })), pageSize: 12 });
  return word === LEFT_OUT ? [] : [word];
}

/** A value typed; a date is checked as the command will check it, so a typo is asked again rather than refused later. */
async function typed(deps: ValueDeps, asked: AskedValue, message: string): Promise<string[]> {
  const isDate = asked.placeholder === 'time';
  const validate = (value: string): true | string => {
    if (value.trim() === '') return asked.optional ? true : `${asked.label} is needed`;
    if (!isDate) return true;
    try {
      parseDateTime(value, asked.label, deps.clock.now());
      return true;
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
  };
  const answer = (await deps.prompter.input(isDate ? questionOf({ ...asked, description: DATE_FORMS }) : message, { validate })).trim();
  if (answer === '') return [];
  // several values of one argument are typed as a shell would split them
  return asked.variadic ? answer.split(/\s+/) : [answer];
}

/** The question: the flag or argument, what its help says, and whether it may be left empty. */
function questionOf(asked: AskedValue): string {
  const what = asked.description ? `${asked.label}: ${asked.description}` : asked.label;
  return asked.optional ? `${what} (empty: leave it out)` : what;
}
