// The paging flags every list command shares, and the hint when more pages are left.
import { Option, type Command } from 'commander';
import { PageParameterError, parseLimit, type PageOptions, type Pager } from '../../api/paginate.js';
import type { Output, Shape } from '../../output/render.js';
import type { IOStreams } from '../../io/streams.js';
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
 * Renders every item the pager yields, then says on stderr how to get the rest. When a page fails after
 * items were printed, it says how far it got and the cursor to resume from (the output layer has closed
 * what it printed: a JSON array stays valid). Both hints are for a person watching the output: with stdout
 * piped (`| head`, `$(...)`, a file) nobody reads them where they could act, and after `| head` has gone
 * away nothing more is said at all.
 */
export async function renderPages<T>(deps: { output: Output; io: IOStreams }, pager: Pager<T>, shape: Shape, paging: ListPaging): Promise<number> {
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
  const hints = deps.io.stdoutIsTTY;
  let count: number;
  try {
    count = await deps.output.list(counted(), shape, { sort: paging.sort, all: paging.all, maxItems: paging.keep ?? paging.maxItems });
  } catch (error) {
    // a failed page, a network failure, Ctrl-C during a request: the next page is where to resume
    if (hints && pageFailed && fetched > 0 && pager.nextCursor && !deps.io.out.destroyed) {
      const held = paging.sort ? ' (--sort printed none of them: it waits for every item)' : '';
      const rest = paging.maxItems === undefined ? '' : ` --max-items ${paging.maxItems - fetched}`;
      deps.io.info(`Stopped after ${fetched} item${fetched === 1 ? '' : 's'}${held}. To resume from there: the same command with --cursor ${pager.nextCursor}${rest}`);
    }
    throw error;
  }
  // not a paging hint: without it a script would take one page's order for the whole list's
  if (paging.sort && pager.hasMore && !paging.all) {
    deps.io.info(`--sort sorted only the ${fetched} item${fetched === 1 ? '' : 's'} of the page fetched, not the whole list: add --all to sort every item.`);
  }
  if (hints && pager.hasMore && !paging.all && pager.nextCursor) {
    deps.io.info(`More results: add --cursor ${pager.nextCursor} for the next page, or --all for every page.`);
  }
  return count;
}
