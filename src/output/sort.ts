// --sort FIELD[,-FIELD]: items ordered by dotted fields, `-` for descending, stable (ties keep the API's order).
// Sorting needs every item before the first is printed: what is held is bounded unless the user says otherwise.
import { UsageError } from '../errors.js';
import { valueAt } from './values.js';
import { quoteInput } from '../shared/terminal-text.js';
import { compareInstants, parseInstant, type Instant } from '../shared/rfc3339.js';

export interface SortKey {
  field: string;
  descending: boolean;
}

/** Beyond this many items, --sort (and --slurp) stop unless --max-items sets the bound. */
export const HOLD_LIMIT = 100_000;

export function parseSort(spec: string | undefined): SortKey[] | undefined {
  if (spec === undefined) return undefined;
  const keys = spec.split(',').map((part) => part.trim());
  if (keys.some((key) => key === '' || key === '-' || /\s/.test(key))) {
    throw new UsageError(`--sort must be fields separated by commas, each optionally preceded by - for descending, got ${quoteInput(spec)}`, 'for example: --sort fleet_id,-last_seen_at');
  }
  return keys.map((key) => (key.startsWith('-') ? { field: key.slice(1), descending: true } : { field: key, descending: false }));
}

/** Whether a field holds times, as the document in use declares it (records/views.ts DeclaredTimes); undefined: not declared. */
export type IsTimeField = (field: string) => boolean | undefined;

/** A value of a declared date-time member that names no instant: after every instant, before missing values. */
const NOT_AN_INSTANT = Symbol('not an instant');

/**
 * A new array in the order of the keys; items with the field missing or null come last in either direction. A field
 * the document in use declares a date-time sorts by the instant each value names, not by its text: across offsets
 * (+05:30, -08:00, Z) and fraction lengths (.3, .300000000) the text's order is wrong; a value of it that names no
 * instant comes after every one that does (and before missing ones), in the order it came. A field declared as
 * anything else sorts by kind then code point, even if its values read as times. Where the document declares
 * nothing, a field whose values are all RFC 3339 date-times sorts by instant; one odd value then means no guess.
 */
export function sortRecords<T>(records: readonly T[], keys: readonly SortKey[], isTime: IsTimeField = () => undefined): T[] {
  const rows = records.map((record, index) => ({ record, index, values: keys.map((key): unknown => valueAt(record, key.field)) }));
  const byInstant = keys.map((key, i) => {
    const declared = isTime(key.field);
    if (declared === false) return false;
    const instants = rows.map((row) => asInstant(row.values[i]));
    const all = declared === true || instants.every((instant, n) => instant !== undefined || isMissing(rows[n]!.values[i]));
    if (all) rows.forEach((row, n) => (row.values[i] = instants[n] ?? (isMissing(row.values[i]) ? row.values[i] : NOT_AN_INSTANT)));
    return all;
  });
  return rows
    .sort((a, b) => {
      for (const [i, key] of keys.entries()) {
        const order = compareValues(a.values[i], b.values[i], key.descending, byInstant[i]!);
        if (order !== 0) return order;
      }
      return a.index - b.index;
    })
    .map(({ record }) => record);
}

/** A date-time value as the instant it names; undefined for anything else. */
function asInstant(value: unknown): Instant | undefined {
  return typeof value === 'string' ? parseInstant(value) : undefined;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null;
}

function compareValues(a: unknown, b: unknown, descending: boolean, instants: boolean): number {
  const aMissing = isMissing(a);
  const bMissing = isMissing(b);
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  const aOdd = a === NOT_AN_INSTANT;
  const bOdd = b === NOT_AN_INSTANT;
  if (aOdd || bOdd) return aOdd === bOdd ? 0 : aOdd ? 1 : -1;
  const order = instants ? compareInstants(a as Instant, b as Instant) : rank(a) - rank(b) || compareSameKind(a, b);
  return descending ? -order : order;
}

/** Values of different kinds order by kind, as jq orders them: booleans, numbers, strings, arrays, objects. */
function rank(value: unknown): number {
  if (typeof value === 'boolean') return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  return Array.isArray(value) ? 3 : 4;
}

function compareSameKind(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean') return Number(a) - Number(b);
  // Code-point order: the same on every machine, and right for ids (times are compared as instants before this).
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface HoldOptions {
  /** What holds the items, for messages: "--sort", "--slurp". */
  reason: string;
  /** --max-items of the run: when given, the user has bounded what is held. */
  maxItems?: number;
  /** Every page is fetched (--all): the run may be long and large, so it is said on stderr first. */
  all?: boolean;
  /**
   * --sort: with --max-items N, every item fetched is read and the N first in this order are kept, so the cut comes
   * after sorting (the 8 most recently seen, not the first 8 fetched), in memory for about 2N items.
   */
  sort?: readonly SortKey[];
  /** Which sort fields the document in use declares times. */
  isTime?: IsTimeField;
  say: (line: string) => void;
}

/** Every item in memory, refusing to hold more than HOLD_LIMIT unless --max-items bounds the run. */
export async function holdAll<T>(records: AsyncIterable<T> | Iterable<T>, opts: HoldOptions): Promise<T[]> {
  const { maxItems, sort } = opts;
  const keep = sort && maxItems !== undefined ? maxItems : undefined;
  if (opts.all) {
    const bound =
      maxItems === undefined
        ? `stops beyond ${HOLD_LIMIT.toLocaleString('en-US')} items unless --max-items N is given`
        : keep === undefined
          ? `at most ${maxItems.toLocaleString('en-US')} (--max-items)`
          : `only the ${keep.toLocaleString('en-US')} first in order are kept: --max-items`;
    opts.say(`${opts.reason} holds every item in memory before printing the first (${bound}).`);
  }
  let held: T[] = [];
  for await (const record of records) {
    if (held.length >= HOLD_LIMIT && maxItems === undefined) {
      throw new UsageError(
        `${opts.reason} stopped after ${HOLD_LIMIT.toLocaleString('en-US')} items: it holds every item in memory, and this list has more`,
        `bound it with --max-items N (${sort ? 'only the N first in sort order are then kept' : 'the first N items are then held'}), narrow the list with a filter, or drop ${opts.reason} and stream (-o ndjson)`,
      );
    }
    held.push(record);
    // a stable sort keeps ties in the order they came: those kept came before those read after them
    if (keep !== undefined && held.length >= 2 * keep + 1024) held = sortRecords(held, sort!, opts.isTime).slice(0, keep);
  }
  return keep === undefined ? held : sortRecords(held, sort!, opts.isTime).slice(0, keep);
}
