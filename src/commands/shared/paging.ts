// The paging flags every list command shares, and the hint when more pages are left.
import { Option, type Command } from 'commander';
import { PageParameterError, parseLimit, type PageOptions, type Pager } from '../../api/paginate.js';
import type { Output, Shape } from '../../output/render.js';
import { isRequestFailure } from '../../errors.js';
import { cursorWords, type CursorFlag, type CursorHintDeps } from './cursor-hint.js';
import { parseSort, type SortKey } from '../../output/sort.js';
import { requireNonEmpty, requireWholeNumber } from './validate.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MIN_LIMIT } from '../../shared/page-limits.js';

export interface RawPagingFlags {
  limit?: string;
  cursor?: string;
  all?: boolean;
  maxItems?: string;
  sort?: string;
}

/**
 * Paging, and the order the output layer prints the items in (the pager itself ignores --sort). With --sort,
 * --max-items does not stop the pager: it cuts what was fetched once sorted (`keep`).
 */
export interface ListPaging extends PageOptions {
  sort?: readonly SortKey[];
  /** --max-items with --sort: print the first N in sort order of every item fetched. */
  keep?: number;
}

export function addPagingOptions(command: Command): Command {
  return command
    .addOption(new Option('--limit <n>', `items per page, ${MIN_LIMIT} to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`))
    .option('--cursor <cursor>', 'start at this page (the next_cursor of an earlier answer)')
    .option('--all', 'follow next_cursor through every page')
    .option('--max-items <n>', 'stop after this many items in total')
    .option('--sort <fields>', 'print in the order of these fields, comma-separated (dotted paths; -field for descending); holds the whole list in memory');
}

export function pagingFrom(flags: RawPagingFlags): ListPaging {
  const maxItems = flags.maxItems === undefined ? undefined : requireWholeNumber(flags.maxItems, '--max-items', 1);
  const sort = parseSort(flags.sort);
  return {
    limit: limitFlag(flags.limit),
    cursor: flags.cursor === undefined ? undefined : requireNonEmpty(flags.cursor, '--cursor'),
    all: Boolean(flags.all),
    ...(sort ? { sort, maxItems: undefined, keep: maxItems } : { maxItems }),
  };
}

function limitFlag(value: string | undefined): number {
  try {
    return parseLimit(value);
  } catch (error) {
    throw error instanceof PageParameterError ? error.as('--limit') : error;
  }
}

/**
 * Renders every item the pager yields, then says on stderr how to get the rest ("More results", for a person
 * watching a terminal: in `| head`, `$(...)` or a file nobody reads it where they could act). When a page fails
 * after items were printed, the cursor to resume from is said whatever stdout is (a script writing a file needs
 * it most): as a member of the error when the error is JSON (-o json and the other machine formats), else as a
 * line. The output layer has closed what it printed (a JSON array stays valid). After `| head` has gone away
 * nothing more is said at all.
 */
export async function renderPages<T>(deps: PagesDeps, pager: PagesSource<T>, shape: Shape, paging: ListPaging, takes: CursorFlag = '--cursor'): Promise<number> {
  let fetched = 0;
  let pageFailed = false;
  // counts what the pager handed over, and tells a failed page (resumable: every item before it was handed
  // over) from a failure of the output
  async function* counted(): AsyncIterable<T> {
    const pages = pager[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await pages.next();
      } catch (error) {
        pageFailed = true;
        throw error;
      }
      if (next.done) return;
      fetched++;
      yield next.value;
    }
  }
  let count: number;
  try {
    count = await deps.output.list(counted(), shape, { sort: paging.sort, all: paging.all, maxItems: paging.keep ?? paging.maxItems });
  } catch (error) {
    // a failed page, a network failure, Ctrl-C during a request: the next page is where to resume
    if (pageFailed && fetched > 0 && pager.nextCursor && !deps.io.outClosed && !deps.io.out.destroyed) await sayWhereToResume(deps, error, { cursor: pager.nextCursor, printed: paging.sort ? 0 : fetched, fetched, maxItems: paging.maxItems, takes });
    throw error;
  }
  // not a paging hint: without it a script would take one page's order for the whole list's
  if (paging.sort && pager.hasMore && !paging.all) {
    deps.io.info(`--sort sorted only the ${fetched} item${fetched === 1 ? '' : 's'} of the page fetched, not the whole list: add --all to sort every item.`);
  }
  if (deps.io.stdoutIsTTY && pager.hasMore && !paging.all && pager.nextCursor) {
    const { flag, note } = await cursorWords(deps, pager.nextCursor, takes);
    deps.io.info(`More results: add ${flag} for the next page${note}, or --all for every page.`);
  }
  return count;
}

export interface PagesDeps extends CursorHintDeps {
  output: Output;
  /** The output errors are reported through, when it is not the one the list is printed with (`api` prints JSON by default, its errors follow -o). */
  errorsAs?: Output;
}

/** The items of a pager, and where it stopped (Pager, or what hands on its items). */
export type PagesSource<T> = AsyncIterable<T> & Pick<Pager<T>, 'nextCursor' | 'hasMore'>;

interface StoppedAt {
  cursor: string;
  /** Items printed (none with --sort, which prints only once every item is in). */
  printed: number;
  fetched: number;
  maxItems: number | undefined;
  takes: CursorFlag;
}

async function sayWhereToResume(deps: PagesDeps, error: unknown, at: StoppedAt): Promise<void> {
  const maxItems = at.maxItems === undefined ? undefined : at.maxItems - at.fetched;
  // the failure printed as JSON (the service's problem, or what is known of a request that got no answer) carries
  // it, whole, for the program that reads it
  if (isRequestFailure(error) && (deps.errorsAs ?? deps.output).errorsAsJson(deps.io.stderrIsTTY)) {
    error.resume = { cursor: at.cursor, items_printed: at.printed, ...(maxItems === undefined ? {} : { max_items: maxItems }) };
    return;
  }
  const held = at.printed < at.fetched ? ' (--sort printed none of them: it waits for every item)' : '';
  const rest = maxItems === undefined ? '' : ` --max-items ${maxItems}`;
  const { flag, note } = await cursorWords(deps, at.cursor, at.takes);
  deps.io.info(`Stopped after ${at.fetched} item${at.fetched === 1 ? '' : 's'}${held}. To resume from there: the same command with ${flag}${rest}${note}`);
}
