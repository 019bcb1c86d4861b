// The guided mode's optional flags: every flag of the chosen command (and the output flags of the program that it
// honours), in one list grouped by purpose, each left out unless chosen. "Done" is first: Enter alone skips them all.
import type { Command, Option } from 'commander';
import type { SearchItem } from '../io/prompter.js';
import { afterOptionsOf } from '../commands/shared/help.js';
import { cutToWidth, displayWidth, fitToWidth } from '../output/text-width.js';
import { safeText } from '../shared/terminal-text.js';
import { askValue, optionValue, type ValueDeps } from './values.js';

/** The purposes flags are grouped by, in the order they are listed; a flag named by none is among "Other". */
const PURPOSES: [purpose: string, flags: readonly string[]][] = [
  ['Which records', ['--fleet-id', '--organization-id', '--hardware-id', '--vehicle-id', '--where', '--from-file', '--from-run', '--only', '--allow-empty', '--status', '--type']],
  ['Time window', ['--since', '--from', '--to', '--until', '--stale-after']],
  ['Output', ['--output', '--json', '--columns', '--jq', '--slurp', '--sort', '--field', '--raw-field']],
  ['Pages', ['--limit', '--cursor', '--all', '--max-items', '--paginate']],
  ['Safety', ['--yes', '--dry-run', '--idempotency-key', '--max-devices', '--if-match', '--journal', '--resume']],
  ['Waves and waiting', ['--canary', '--canary-wait', '--wave', '--wave-pause', '--abort-if-failed', '--wait', '--wait-timeout', '--concurrency']],
  ['Following', ['--follow', '--watch', '--interval', '--checkpoint', '--max-events']],
];
const OTHER = 'Other';

const DONE = Symbol('done');
type Choice = Option | typeof DONE;

/** The purpose of a flag, by its long name. */
export function purposeOf(option: Option): string {
  return PURPOSES.find(([, flags]) => option.long !== undefined && flags.includes(option.long))?.[0] ?? OTHER;
}

/**
 * What may be chosen: the command's own visible flags but those asked already (a required one), and the
 * program's output flags the command honours that the line does not give yet.
 */
export function optionalFlags(command: Command, given: readonly string[]): Option[] {
  const own = command.options.filter((option) => !option.hidden && !option.mandatory);
  const output = afterOptionsOf(command).globals.filter((option) => purposeOf(option) === 'Output' && ![option.long, option.short].some((flag) => flag && given.includes(flag)));
  return [...own, ...output];
}

/** The list, by purpose, with what was chosen so far after each flag. */
function flagItems(options: readonly Option[], chosen: ReadonlyMap<Option, string[]>, width: number): SearchItem<Choice>[] {
  const named = (option: Option) => {
    const { label, placeholder } = optionValue(option);
    return placeholder === undefined ? label : `${label} <${placeholder}>`;
  };
  const nameWidth = Math.min(30, Math.max(...options.map((option) => displayWidth(named(option)))));
  const items: SearchItem<Choice>[] = [{ value: DONE, name: chosen.size === 0 ? 'Done: no optional flag' : 'Done: show the command line' }];
  for (const purpose of [...PURPOSES.map(([p]) => p), OTHER]) {
    const group = options.filter((option) => purposeOf(option) === purpose);
    if (group.length === 0) continue;
    items.push({ separator: `── ${purpose}` });
    for (const option of group) {
      const set = chosen.get(option);
      const said = set === undefined ? safeText(option.description) : `= ${safeText(set.slice(1).join(' ') || 'on')}`;
      items.push({ value: option, name: cutToWidth(`${fitToWidth(named(option), nameWidth)}  ${said}`, width), short: option.long ?? option.flags });
    }
  }
  return items;
}

/**
 * Asks for optional flags until the operator is done; a flag chosen again is asked again (an empty answer takes it
 * back). Returns their words, in the order of the command's help.
 */
export async function askFlags(deps: ValueDeps, command: Command, globals: readonly string[]): Promise<string[]> {
  const options = optionalFlags(command, globals);
  if (options.length === 0) return [];
  const chosen = new Map<Option, string[]>();
  const width = Math.max(20, (deps.io.columns ?? 80) - 3);
  let last: Choice = DONE;
  for (;;) {
    const choice: Choice = await deps.prompter.select('Optional flags, by purpose (Done to go on)', { choices: flagItems(options, chosen, width), default: last, pageSize: 14 });
    if (choice === DONE) break;
    last = choice;
    const words = await flagWords(deps, choice, chosen.has(choice), globals);
    if (words.length === 0) chosen.delete(choice);
    else chosen.set(choice, words);
  }
  return options.flatMap((option) => chosen.get(option) ?? []);
}

/** A switch is turned on (or, chosen again, off); a flag with a value is asked for it. */
async function flagWords(deps: ValueDeps, option: Option, wasChosen: boolean, globals: readonly string[]): Promise<string[]> {
  const flag = option.long ?? option.short ?? option.flags;
  if (!option.required && !option.optional) return wasChosen ? [] : [flag];
  const value = await askValue(deps, { ...optionValue(option), optional: true }, globals);
  return value.length === 0 ? [] : value.flatMap((word) => [flag, word]);
}
