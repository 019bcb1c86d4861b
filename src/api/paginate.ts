// The one pager: follows next_cursor until has_more is false, item by item so memory stays flat.
import { UsageError } from '../errors.js';

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
}

export type FetchPage<T> = (cursor: string | undefined, limit: number) => Promise<Page<T>>;

export const MIN_LIMIT = 1;
export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 50;

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
    while (remaining > 0) {
      const page = await this.fetchPage(cursor, Math.min(this.options.limit, remaining));
      const items = page.data.slice(0, remaining);
      remaining -= items.length;
      this.hasMore = Boolean(page.has_more && page.next_cursor);
      this.nextCursor = this.hasMore ? (page.next_cursor ?? undefined) : undefined;
      yield* items;
      if (!this.hasMore || !followPages || items.length === 0) return;
      cursor = this.nextCursor;
    }
  }
}

export function paginate<T>(fetchPage: FetchPage<T>, options: PageOptions): Pager<T> {
  return new Pager(fetchPage, options);
}

/** --limit is checked before any request: 1 to 500. */
export function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`--limit must be a whole number from ${MIN_LIMIT} to ${MAX_LIMIT}, got "${value}"`);
  const limit = Number(value);
  if (limit < MIN_LIMIT || limit > MAX_LIMIT) throw new UsageError(`--limit must be from ${MIN_LIMIT} to ${MAX_LIMIT}, got ${limit}`);
  return limit;
}

export function parseMaxItems(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new UsageError(`--max-items must be a whole number of at least 1, got "${value}"`);
  return Number(value);
}
