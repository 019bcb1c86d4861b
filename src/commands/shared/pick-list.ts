// A required argument left out on a terminal: the operator picks it from the API's own list, fetched page by page
// as they type. Off a terminal nothing is asked: the argument is missing, exit 2, as commander would say it.
import type { Argument, Command, Option } from 'commander';
import type { Deps } from '../../factory.js';
import type { ApiClient } from '../../api/client.js';
import type { PageOptions, Pager } from '../../api/paginate.js';
import type { IOStreams } from '../../io/streams.js';
import type { PromptChoice, SearchItem } from '../../io/prompter.js';
import { ApiError, UsageError } from '../../errors.js';
import { safeText } from '../../shared/terminal-text.js';
import { MAX_LIMIT } from '../../shared/page-limits.js';
import { isIdentifierColumn } from '../../records/members.js';
import { rephrase } from './api-errors.js';

export type PickerDeps = Pick<Deps, 'api' | 'io' | 'prompter'>;

type Cell = string | number | null | undefined;

export interface ListPick<T> {
  /** The question, e.g. "Device". */
  message: string;
  /** What one item is, for messages: "device". */
  noun: string;
  /** The list operation, from a page on; with a term, narrowed by the API's own filter (see `filters`). */
  list: (api: ApiClient, paging: PageOptions, term?: string) => Pager<T>;
  /** Whether the API's own filter can look for this term; without one only the items read are searched. */
  filters?: (term: string) => boolean;
  /** Said instead of prompting when there is nothing to pick from. */
  none?: { message: string; hint: string };
  /** The cells of an item's line, in order, as the API gave them (made terminal-safe here). */
  cells: (item: T) => Cell[];
  /** What tells two items apart (an item found by the API filter is also found by the scan). */
  key: (item: T) => string;
}

const PAGE_LIMIT = 100;
// Enough matches to fill the list shown: no more pages are fetched for this term.
const WANTED_MATCHES = 50;
// The most pages read for one term; the next keystroke reads on from there.
const PAGES_PER_TERM = 5;
const PAGE_SIZE = 10;
// A long name does not push the other cells off the line.
const MAX_CELL_WIDTH = 32;

const PICKED_ON_A_TERMINAL = ' (left out on a terminal: picked from a list)';

/** An argument's help, saying that it may be left out on a terminal. */
export function pickable(description: string): string {
  return `${description}${PICKED_ON_A_TERMINAL}`;
}

/** An argument or option whose help says that the command picks it from a list when it is left out on a terminal. */
export function isPickable(description: string): boolean {
  return description.endsWith(PICKED_ON_A_TERMINAL);
}

/** What picks a value of an argument or option left out on a terminal (a uuid, an event id). */
export type ValuePicker = (deps: PickerDeps & Pick<Deps, 'clock'>) => Promise<string>;

// Declared beside the argument, as its completion is (completion/values.ts), for the guided mode to ask with.
const PICKERS = new WeakMap<Argument | Option, ValuePicker>();

/**
 * Names the picker a verb uses for each argument or option (`id`, `--vehicle-id`) it picks on a terminal when left
 * out. A name the verb does not declare is a programming error, caught by any test that builds the command tree.
 */
export function declarePickers(command: Command, pickers: Record<string, ValuePicker>): Command {
  for (const [name, pick] of Object.entries(pickers)) {
    const target = name.startsWith('-') ? command.options.find((option) => option.long === name) : command.registeredArguments.find((argument) => argument.name() === name);
    if (!target) throw new Error(`declarePickers: ${command.name()} has no ${name.startsWith('-') ? 'option' : 'argument'} ${name}`);
    PICKERS.set(target, pick);
  }
  return command;
}

/** The picker a verb declared for an argument or option, if any. */
export function pickerOf(target: Argument | Option): ValuePicker | undefined {
  return PICKERS.get(target);
}

/** commander's own words for an argument left out, where nothing may be asked. */
export function missingArgument(name: string): UsageError {
  return new UsageError(`missing required argument '${name}'`);
}

/** The argument as given; left out: picked on a terminal, otherwise the usage error commander would give. */
export async function givenOrPicked<T>(io: IOStreams, value: T | undefined, name: string, pick: () => Promise<T>): Promise<T> {
  if (value !== undefined) return value;
  if (!io.canPrompt()) throw missingArgument(name);
  return pick();
}

/** One item of a list operation, searched as the operator types. */
export async function pickFromList<T>(deps: PickerDeps, spec: ListPick<T>): Promise<T> {
  const api = await deps.api();
  const scan = new ListScan<T>((cursor) => spec.list(api, { limit: PAGE_LIMIT, cursor, all: false }));
  await explained(spec, scan.fill(() => true, 1, 1));
  if (scan.items.length === 0) throw nothingToPick(spec);
  const filtered = new Map<string, Promise<T[]>>();
  const byFilter = (term: string): Promise<T[]> => {
    if (term === '' || !spec.filters?.(term)) return Promise.resolve([]);
    if (!filtered.has(term)) filtered.set(term, collect(spec.list(api, { limit: PAGE_LIMIT, all: false }, term)));
    return filtered.get(term)!;
  };
  const width = lineWidth(deps.io, 3);
  const source = async (term: string, signal: AbortSignal): Promise<SearchItem<T>[]> => {
    const needle = term.trim().toLowerCase();
    const matches = (item: T) => needle === '' || searchText(spec, item).includes(needle);
    const exact = await explained(spec, byFilter(term.trim()));
    // the API found what was typed: what was read already is enough for the near matches
    await explained(spec, scan.fill(matches, WANTED_MATCHES, exact.length > 0 ? 0 : PAGES_PER_TERM, signal));
    const found = uniqueBy([...exact, ...scan.items.filter(matches)], spec.key);
    const lines = await alignedLines(found.map(spec.cells));
    const { cutToWidth } = await import('../../output/text-width.js');
    const items: SearchItem<T>[] = found.map((item, i) => ({ value: item, name: cutToWidth(lines[i]!, width), short: shortOf(spec, item) }));
    // on top, where it is seen without scrolling: the list shown is not the whole list
    if (!scan.done) items.unshift({ separator: `(first ${scan.items.length} ${spec.noun}${scan.items.length === 1 ? '' : 's'}; type to search them all)` });
    return items;
  };
  return deps.prompter.search(spec.message, { source, pageSize: PAGE_SIZE });
}

export interface ListCheck<T> extends Omit<ListPick<T>, 'filters' | 'key'> {
  /** Why an item may not be chosen, if it may not. */
  unavailable?: (item: T) => string | undefined;
  /** Every item that may be chosen is ticked from the start (the list is a set the operator chose to start from). */
  ticked?: boolean;
}

/** Several items of a list operation, ticked in one list of its first `max` items (one page, the largest). */
export async function checkFromList<T>(deps: PickerDeps, spec: ListCheck<T>, max = MAX_LIMIT): Promise<T[]> {
  const api = await deps.api();
  const pager = spec.list(api, { limit: max, all: false });
  const items = await explained(spec, collect(pager));
  if (items.length === 0) throw nothingToPick(spec);
  if (pager.hasMore) deps.io.info(`Only the first ${items.length} ${spec.noun}s are listed; name others as arguments.`);
  const lines = await alignedLines(items.map(spec.cells));
  const { cutToWidth, displayWidth } = await import('../../output/text-width.js');
  const width = lineWidth(deps.io, 4);
  const choices: PromptChoice<T>[] = items.map((item, i) => {
    const reason = spec.unavailable?.(item);
    // the prompt writes the reason after the line: both must fit
    const room = reason === undefined ? width : width - 3 - displayWidth(reason);
    return { value: item, name: cutToWidth(lines[i]!, room), short: shortOf(spec, item), disabled: reason ?? false, ...(spec.ticked ? { checked: reason === undefined } : {}) };
  });
  if (choices.every((choice) => choice.disabled)) {
    throw new UsageError(`none of the ${items.length} ${spec.noun}s listed can be chosen ${String(choices[0]!.disabled)}`, `give the ${spec.noun}s as arguments`);
  }
  return deps.prompter.checkbox(spec.message, { choices, pageSize: 15 });
}

/** The list as read so far, shared by every search term: each page is fetched once. */
class ListScan<T> {
  readonly items: T[] = [];
  done = false;
  private cursor: string | undefined;
  private fetching: Promise<void> | undefined;

  constructor(private readonly pageAt: (cursor: string | undefined) => Pager<T>) {}

  /** Reads pages on until `wanted` items match, the list ends, `pages` more pages were read, or the term is dropped. */
  async fill(matches: (item: T) => boolean, wanted: number, pages: number, signal?: AbortSignal): Promise<void> {
    for (let read = 0; read < pages && !this.done && !signal?.aborted && this.items.filter(matches).length < wanted; read++) await this.next();
  }

  /** The next page, fetched once however many searches ask for it at the same time. */
  private next(): Promise<void> {
    this.fetching ??= (async () => {
      const pager = this.pageAt(this.cursor);
      for await (const item of pager) this.items.push(item);
      // a server that answers the same cursor again would be read for ever
      this.done = !pager.hasMore || pager.nextCursor === this.cursor;
      this.cursor = pager.nextCursor;
    })().finally(() => (this.fetching = undefined));
    return this.fetching;
  }
}

async function collect<T>(pager: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pager) items.push(item);
  return items;
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && Boolean(seen.add(key(item))));
}

function cellText(cell: Cell): string {
  return cell === null || cell === undefined ? '' : safeText(String(cell));
}

function searchText<T>(spec: ListPick<T>, item: T): string {
  return spec.cells(item).map(cellText).join(' ').toLowerCase();
}

function shortOf<T>(spec: Pick<ListPick<T>, 'cells'>, item: T): string {
  return cellText(spec.cells(item)[0]);
}

/** Each item's cells, terminal-safe, in columns as wide as their widest cell (up to a limit). */
async function alignedLines(rows: Cell[][]): Promise<string[]> {
  const { displayWidth, fitToWidth } = await import('../../output/text-width.js');
  const texts = rows.map((row) => row.map(cellText));
  const widths: number[] = [];
  // the first cell (what the item is picked by) and identifiers are never cut: they are copied into commands
  const whole = (i: number) => i === 0 || isIdentifierColumn('', texts.map((row) => row[i]));
  for (const row of texts) row.forEach((text, i) => (widths[i] = Math.min(whole(i) ? Infinity : MAX_CELL_WIDTH, Math.max(widths[i] ?? 0, displayWidth(text)))));
  return texts.map((row) =>
    row
      .map((text, i) => (i === row.length - 1 ? text : fitToWidth(text, widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** Room for a line in the list: the terminal's width less the prompt's cursor and marks. */
function lineWidth(io: IOStreams, marks: number): number {
  return Math.max(20, (io.columns ?? 80) - marks);
}

function nothingToPick(spec: Pick<ListPick<unknown>, 'none' | 'noun'>): UsageError {
  const none = spec.none ?? { message: `there is no ${spec.noun} to choose from`, hint: `give the ${spec.noun} as an argument` };
  return new UsageError(none.message, none.hint);
}

/** A list the operator may not read (403) says that the argument can still be given. */
async function explained<R>(spec: Pick<ListPick<unknown>, 'noun'>, work: Promise<R>): Promise<R> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      throw rephrase(error, `cannot list ${spec.noun}s to choose from: ${error.detail ?? error.message}`, `give the ${spec.noun} as an argument instead`);
    }
    throw error;
  }
}
