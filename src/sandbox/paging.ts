// The collection envelope {data, next_cursor, has_more} and opaque cursors.
// A cursor is base64url(JSON {a: position after which the next page starts, f: query fingerprint}) + "." +
// an HMAC of it with the sandbox's secret. A tampered cursor, or one issued for another query or another
// client, is 400 cursor.invalid. `limit` may change between pages; every other query parameter may not.
import { createHash, createHmac } from 'node:crypto';
import { invalidParameter, problem } from './common/problems.js';
import type { ApiContext } from './common/context.js';
import type { Reply } from './common/reply.js';
import { single } from './common/params.js';
import { constantTimeEqual } from '../shared/constant-time.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MIN_LIMIT } from '../shared/page-limits.js';

const invalidCursor = (why: string) => problem(400, 'cursor.invalid', `The cursor is not valid for this request: ${why}.`, {
  invalid_params: [{ name: 'cursor', reason: why }],
});

export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(after: unknown, fingerprint: string): string {
    const payload = Buffer.from(JSON.stringify({ a: after, f: fingerprint }), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The position a cursor carries; throws 400 cursor.invalid. */
  decode(cursor: string, fingerprint: string): unknown {
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) throw invalidCursor('malformed');
    if (!constantTimeEqual(mac, this.mac(payload))) throw invalidCursor('signature mismatch');
    let parsed: { a?: unknown; f?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor('malformed');
    }
    if (parsed.f !== fingerprint) throw invalidCursor('issued for a different query');
    return parsed.a;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}

/** Identifies a query: path, caller and every parameter except cursor and limit. */
export function queryFingerprint(ctx: ApiContext): string {
  const params = [...ctx.query.entries()]
    .filter(([k]) => k !== 'cursor' && k !== 'limit')
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return createHash('sha256')
    .update([ctx.url.pathname, ctx.auth.clientId, ...params].join('\n'))
    .digest('base64url')
    .slice(0, 16);
}

export function parseLimit(query: URLSearchParams): number {
  const raw = single(query, 'limit');
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < MIN_LIMIT || Number(raw) > MAX_LIMIT) {
    throw invalidParameter('limit', `must be an integer from ${MIN_LIMIT} to ${MAX_LIMIT}`);
  }
  return Number(raw);
}

export interface PageRequest<K> {
  limit: number;
  /** Where the previous page ended, or undefined for the first page. */
  after: K | undefined;
  /** The envelope reply for this page; `lastKey` is the position of the last item. */
  reply<T>(data: T[], hasMore: boolean, lastKey: K | undefined): Reply;
}

/**
 * Reads limit and cursor for a list route. `isKey` checks a decoded position has the route's shape
 * (a cursor from another route that happened to share the fingerprint would fail here).
 */
export function readPage<K>(ctx: ApiContext, codec: CursorCodec, isKey: (v: unknown) => v is K): PageRequest<K> {
  const limit = parseLimit(ctx.query);
  const fingerprint = queryFingerprint(ctx);
  const cursor = single(ctx.query, 'cursor');
  let after: K | undefined;
  if (cursor !== undefined) {
    const decoded = codec.decode(cursor, fingerprint);
    if (!isKey(decoded)) throw invalidCursor('malformed');
    after = decoded;
  }
  return {
    limit,
    after,
    reply: (data, hasMore, lastKey) => ({
      status: 200,
      json: {
        data,
        next_cursor: hasMore && lastKey !== undefined ? codec.encode(lastKey, fingerprint) : null,
        has_more: hasMore,
      },
    }),
  };
}

export const isSeq = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Position in a list ordered by (time descending, id ascending): [epoch ms, id]. */
export type TimeKey = [number, string];
export const isTimeKey = (v: unknown): v is TimeKey =>
  Array.isArray(v) && v.length === 2 && Number.isFinite(v[0]) && typeof v[1] === 'string';

/** The (time desc, id asc) order of two positions: negative when `a` comes first. */
export function compareTimeKeys([msA, idA]: TimeKey, [msB, idB]: TimeKey): number {
  return msB - msA || (idA < idB ? -1 : idA > idB ? 1 : 0);
}

/** The page a list route's request asks for (limit, cursor) of a (time desc, id asc)-ordered array, each item shown by `view`. */
export function timeOrderedPage<T>(ctx: ApiContext, codec: CursorCodec, items: readonly T[], keyOf: (t: T) => TimeKey, view: (t: T) => unknown): Reply {
  const { limit, after, reply } = readPage(ctx, codec, isTimeKey);
  // binary search for the first item past the cursor's position
  let start = 0;
  let end = after ? items.length : 0;
  while (start < end) {
    const mid = (start + end) >>> 1;
    if (compareTimeKeys(keyOf(items[mid]!), after!) <= 0) start = mid + 1;
    else end = mid;
  }
  const page = items.slice(start, start + limit);
  return reply(page.map(view), start + limit < items.length, page.length ? keyOf(page[page.length - 1]!) : undefined);
}

/**
 * The page a request asks for of several lists, each already in (time desc, id asc) order (every device's events,
 * newest first), as if they were one list in that order: a merge that reads only as far as the page reaches. A
 * page of a busy window then costs about its own length and the number of lists, not a sort of the whole window
 * on every page. `accept` leaves out what the query does not ask for.
 */
export function mergedTimeOrderedPage<T>(
  ctx: ApiContext, codec: CursorCodec, lists: readonly (readonly T[])[], keyOf: (t: T) => TimeKey, accept: (t: T) => boolean, view: (t: T) => unknown,
): Reply {
  const { limit, after, reply } = readPage(ctx, codec, isTimeKey);
  const pastCursor = (item: T) => !after || compareTimeKeys(keyOf(item), after) > 0;
  const heads = new HeadHeap<T>(keyOf);
  for (const list of lists) {
    let at = 0;
    while (at < list.length && !(pastCursor(list[at]!) && accept(list[at]!))) at++;
    if (at < list.length) heads.push({ list, at });
  }
  const page: T[] = [];
  while (page.length <= limit && heads.size > 0) {
    const head = heads.pop();
    page.push(head.list[head.at]!);
    let at = head.at + 1;
    while (at < head.list.length && !accept(head.list[at]!)) at++;
    if (at < head.list.length) heads.push({ list: head.list, at });
  }
  const hasMore = page.length > limit;
  const shown = page.slice(0, limit);
  return reply(shown.map(view), hasMore, shown.length ? keyOf(shown[shown.length - 1]!) : undefined);
}

interface Head<T> {
  list: readonly T[];
  at: number;
}

/** A binary heap of list heads, the first in (time desc, id asc) order on top. */
class HeadHeap<T> {
  private readonly items: Head<T>[] = [];

  constructor(private readonly keyOf: (t: T) => TimeKey) {}

  get size(): number {
    return this.items.length;
  }

  push(head: Head<T>): void {
    const items = this.items;
    items.push(head);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (this.before(items[parent]!, items[i]!)) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  pop(): Head<T> {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let first = i;
        if (left < items.length && this.before(items[left]!, items[first]!)) first = left;
        if (right < items.length && this.before(items[right]!, items[first]!)) first = right;
        if (first === i) break;
        [items[first], items[i]] = [items[i]!, items[first]!];
        i = first;
      }
    }
    return top;
  }

  private before(a: Head<T>, b: Head<T>): boolean {
    return compareTimeKeys(this.keyOf(a.list[a.at]!), this.keyOf(b.list[b.at]!)) < 0;
  }
}
