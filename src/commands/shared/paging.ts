// The paging flags every list command shares, and the hint when more pages are left.
import { Option, type Command } from 'commander';
import { parseLimit, parseMaxItems, type PageOptions, type Pager } from '../../api/paginate.js';
import type { Output, Shape } from '../../output/render.js';
import type { IOStreams } from '../../io/streams.js';
import { requireNonEmpty } from './validate.js';

export interface RawPagingFlags {
  limit?: string;
  cursor?: string;
  all?: boolean;
  maxItems?: string;
}

export function addPagingOptions(command: Command): Command {
  return command
    .addOption(new Option('--limit <n>', 'items per page, 1 to 500 (default 50)'))
    .option('--cursor <cursor>', 'start at this page (the next_cursor of an earlier answer)')
    .option('--all', 'follow next_cursor through every page')
    .option('--max-items <n>', 'stop after this many items in total');
}

export function pagingFrom(flags: RawPagingFlags): PageOptions {
  return {
    limit: parseLimit(flags.limit),
    cursor: flags.cursor === undefined ? undefined : requireNonEmpty(flags.cursor, '--cursor'),
    all: Boolean(flags.all),
    maxItems: parseMaxItems(flags.maxItems),
  };
}

/** Renders every item the pager yields, then says on stderr how to get the rest. */
export async function renderPages<T>(deps: { output: Output; io: IOStreams }, pager: Pager<T>, shape: Shape, paging: PageOptions): Promise<number> {
  const count = await deps.output.list(pager, shape);
  if (pager.hasMore && !paging.all && pager.nextCursor) {
    deps.io.info(`More results: add --cursor ${pager.nextCursor} for the next page, or --all for every page.`);
  }
  return count;
}
