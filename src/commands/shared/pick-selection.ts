// A bulk verb run on a terminal with no devices named may start from a selection: a condition typed (in the language
// of `fleetctl help select`) or one of the profile's saved selections, and the devices it selects are listed ticked,
// for the operator to untick some before going on. The question is asked with or without saved selections (a
// condition can always be typed), and picking devices one by one is its first line, under the cursor: Enter alone
// goes on as before.
import { savedSelections, selectedProfile } from '../../config/settings.js';
import { MAX_LIMIT } from '../../shared/page-limits.js';
import { safeText } from '../../shared/terminal-text.js';
import type { Schema } from '../../openapi/operation-types.js';
import type { SearchItem } from '../../io/prompter.js';
import type { PickerDeps } from './pick-list.js';
import { pickDevicesFor, type PickedDevices } from './pickers.js';
import { listFilters, readWhere, sayUndecided, selectorFor, type WhereDeps } from './where.js';

/** The value of the first line: no starting set, every device listed unticked. */
const ONE_BY_ONE = '';
const ONE_BY_ONE_LINE = 'Every device, ticked one by one';

export async function pickDevicesToAct(deps: PickerDeps & WhereDeps, capability: Schema<'DeviceCapability'>, verb: string): Promise<PickedDevices> {
  const start = await startingExpression(deps, verb);
  if (start === undefined) return pickDevicesFor(deps, capability, verb);
  // read and checked as --where is: a mistake is exit 2 before anything is listed
  const selection = await readWhere(deps, start);
  const selector = await selectorFor(deps, selection, {});
  const query = listFilters({}, selector);
  const picked = await pickDevicesFor(deps, capability, verb, {
    name: start.startsWith('@') && !/\s/.test(start) ? start : `where ${start}`,
    // every device it selects (not one page): the list is what it selects, not the fleet
    list: (api) => api.list('listDevices', { query }, { limit: MAX_LIMIT, all: true, select: (page) => selector.keep(page) }),
  });
  sayUndecided(deps, selection, selector);
  return picked;
}

/**
 * What a bulk verb's picker starts from: a saved selection (@NAME) or a condition typed; undefined when the operator
 * chose to go one by one (`oneByOne` names that line).
 */
export async function startingExpression(deps: PickerDeps & WhereDeps, verb: string, oneByOne = ONE_BY_ONE_LINE): Promise<string | undefined> {
  const data = (await deps.config()).read();
  const saved = savedSelections(data, selectedProfile(deps.globals(), deps.env, data).value);
  const { cutToWidth } = await import('../../output/text-width.js');
  // a line as wide as the terminal less the prompt's cursor: a long expression is cut, never wrapped
  const fit = (line: string) => cutToWidth(line, Math.max(20, (deps.io.columns ?? 80) - 3));
  const start = await deps.prompter.search(`Devices to ${verb}: start from (type a condition, or choose)`, { source: async (term) => startingChoices(saved, term, fit, oneByOne), pageSize: 10 });
  return start === ONE_BY_ONE ? undefined : start;
}

/** The lines of the first prompt for what was typed: the saved selections it names, the condition typed, one by one. */
export function startingChoices(saved: Readonly<Record<string, string>>, term: string, fit: (line: string) => string = (line) => line, oneByOneLine = ONE_BY_ONE_LINE): SearchItem<string>[] {
  const typed = term.trim();
  const needle = typed.toLowerCase().replace(/^@/, '');
  const named = Object.entries(saved).filter(([name]) => name.toLowerCase().includes(needle));
  const oneByOne = { value: ONE_BY_ONE, name: oneByOneLine, short: 'one by one' };
  const savedLines = named.map(([name, expression]) => ({ value: `@${name}`, name: fit(safeText(`@${name}  ${expression}`)), short: `@${name}` }));
  if (typed === '') return [oneByOne, ...savedLines];
  return [...savedLines, { value: typed, name: fit(safeText(`Devices where ${typed}`)), short: safeText(typed) }, oneByOne];
}
