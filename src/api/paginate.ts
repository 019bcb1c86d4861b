// The one pager: follows next_cursor until has_more is false, item by item so memory stays flat; an empty page
// with has_more true is never the end.
import { InvalidResponseError, UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MIN_LIMIT } from '../shared/page-limits.js';

export interface Page<T> {
  data: T[];
  next_cursor?: string | null;
  has_more: boolean;
}

export interface PageOptions {
  limit: number;
  cursor?: string;
  all: boolean;
  /** Stop after this many items in total, asking for no more than needed. */
  maxItems?: number;
  /**
   * The items of each page to keep (a selection decided on the records, as a service filtering after paging would):
   * the rest are dropped before they count, and a page left empty is not the end while has_more says more follow.
   */
  select?: (items: readonly unknown[]) => Promise<unknown[]>;
}

export type FetchPage<T> = (cursor: string | undefined, limit: number) => Promise<Page<T>>;

export class Pager<T> implements AsyncIterable<T> {
  /** After iteration: the cursor of the page that would come next, if any. */
  nextCursor: string | undefined;
  hasMore = false;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly options: PageOptions,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let remaining = this.options.maxItems ?? Number.POSITIVE_INFINITY;
    let cursor = this.options.cursor;
    const followPages = this.options.all || this.options.maxItems !== undefined;
    const { select } = this.options;
    // kept items are fewer than those asked for: pages are then asked for whole, never cut to what remains
    const size = () => (select ? this.options.limit : Math.min(this.options.limit, remaining));
    let pending = this.fetchPage(cursor, size());
    while (remaining > 0) {
      const page = checkedPage<T>(await pending);
      const items = (select ? ((await select(page.data)) as T[]) : page.data).slice(0, remaining);
      remaining -= items.length;
      this.hasMore = Boolean(page.has_more && page.next_cursor);
      this.nextCursor = this.hasMore ? (page.next_cursor ?? undefined) : undefined;
      // An empty page is not the end while has_more says more follow (a service may filter after paging): even
      // when one page was asked for, the next is read until one has items. The same cursor again would loop for ever.
      const following = this.hasMore && remaining > 0 && (followPages || items.length === 0);
      if (following && this.nextCursor === cursor) throw new InvalidResponseError(`the API answered the same next_cursor twice (${cursor}); stopped to avoid a loop`);
      if (following) {
        // the next page is asked for while this one is written: the wait for the API overlaps the output
        cursor = this.nextCursor;
        pending = this.fetchPage(cursor, size());
        // a failure is reported where the page is awaited, after this page's items, not as an unhandled rejection
        pending.catch(() => undefined);
      }
      yield* items;
      if (!following) return;
    }
  }
}

/** A page must be the collection envelope; anything else (an HTML page with 200, a bare array) is a clear error. */
function checkedPage<T>(page: unknown): Page<T> {
  const value = page as Partial<Page<T>> | null | undefined;
  const ok =
    value !== null && typeof value === 'object' && Array.isArray(value.data) && typeof value.has_more === 'boolean' &&
    (value.next_cursor === undefined || value.next_cursor === null || typeof value.next_cursor === 'string');
  if (ok) return value as Page<T>;
  const got = typeof page === 'string' ? 'text' : Array.isArray(page) ? 'an array' : page === null || page === undefined ? 'nothing' : typeof page === 'object' ? `an object with ${Object.keys(page).slice(0, 5).join(', ') || 'no members'}` : typeof page;
  throw new InvalidResponseError(`the API answered a list request with ${got}, not the collection envelope {data, next_cursor, has_more}`);
}

export function paginate<T>(fetchPage: FetchPage<T>, options: PageOptions): Pager<T> {
  return new Pager(fetchPage, options);
}

/**
 * The paging of a lookup that needs `wanted` items to decide (a hardware id resolved: two tell it is ambiguous):
 * pages are followed while has_more says so, until that many are found or the list ends, never the first page only.
 */
export function lookupPaging(wanted: number): PageOptions {
  return { limit: wanted, all: false, maxItems: wanted };
}

/** A paging parameter the API would refuse; the command that read it says how it was given (a flag, a field). */
export class PageParameterError extends UsageError {
  constructor(
    readonly parameter: 'limit',
    /** What is wrong, without the parameter's name: "must be from 1 to 500, got 0". */
    readonly problem: string,
  ) {
    super(`${parameter} ${problem}`);
    this.name = 'PageParameterError';
  }

  /** The same refusal, naming the parameter as the user gave it. */
  as(name: string, hint?: string): UsageError {
    return new UsageError(`${name} ${this.problem}`, hint);
  }
}

/** The page size, checked before any request (spec: limit 1 to 500). */
export function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(value.trim())) throw new PageParameterError('limit', `must be a whole number from ${MIN_LIMIT} to ${MAX_LIMIT}, got ${quoteInput(value)}`);
  const limit = Number(value);
  if (limit < MIN_LIMIT || limit > MAX_LIMIT) throw new PageParameterError('limit', `must be from ${MIN_LIMIT} to ${MAX_LIMIT}, got ${limit}`);
  return limit;
}
