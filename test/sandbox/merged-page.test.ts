// A page merged from lists each in (time desc, id asc) order is the page of their union sorted whole: the same
// items, the same has_more and the same cursors, page after page, whatever the limit and the filter.
import { describe, expect, it } from 'vitest';
import { CursorCodec, mergedTimeOrderedPage, timeOrderedPage, type TimeKey } from '../../src/sandbox/paging.js';
import type { ApiContext } from '../../src/sandbox/common/context.js';

interface Item {
  ms: number;
  id: string;
  kind: number;
}

/** A small deterministic generator (the test's own, so a failure replays). */
function lcg(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

const keyOf = (item: Item): TimeKey => [item.ms, item.id];
const order = (a: Item, b: Item) => b.ms - a.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function contextOf(limit: number, cursor?: string): ApiContext {
  const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
  return { query, url: new URL(`http://sandbox.test/v1/events?${query}`), auth: { clientId: 'c' } } as unknown as ApiContext;
}

type Page = { data: Item[]; next_cursor: string | null; has_more: boolean };

describe('mergedTimeOrderedPage', () => {
  it.each([1, 2, 3, 7, 50])('seed %i: every page equals the page of the whole list sorted', (seed) => {
    const draw = lcg(seed);
    // lists of different lengths, times that repeat across lists (ties broken by id), some lists empty
    const lists: Item[][] = Array.from({ length: 1 + draw(12) }, (_, list) =>
      Array.from({ length: draw(30) }, (_, i) => ({ ms: 1_000 + draw(40), id: `${String.fromCharCode(97 + draw(5))}${list}-${i}`, kind: draw(3) })).sort(order),
    );
    const accept = (item: Item) => item.kind !== 0 && item.ms < 1_035;
    const whole = lists.flat().filter(accept).sort(order);
    const codec = new CursorCodec(Buffer.alloc(32, 7));
    const limit = 1 + draw(9);
    const merged: Item[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const a = mergedTimeOrderedPage(contextOf(limit, cursor), codec, lists, keyOf, accept, (t) => t).json as Page;
      const b = timeOrderedPage(contextOf(limit, cursor), codec, whole, keyOf, (t) => t).json as Page;
      expect(a).toEqual(b);
      merged.push(...a.data);
      cursor = a.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(merged).toEqual(whole);
    expect(pages).toBe(Math.max(1, Math.ceil(whole.length / limit)));
  });
});
