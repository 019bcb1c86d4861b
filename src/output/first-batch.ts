// The records that arrive together first (a page of a list), taken before any is printed: they decide which
// columns a table or CSV has, since the spec leaves the fields of every record unshown. The rest stream on.

import { MAX_LIMIT } from '../shared/page-limits.js';

type Records = AsyncIterable<unknown> | Iterable<unknown>;

export interface FirstBatch {
  head: unknown[];
  /** Every record, the head included, in order. */
  rest: AsyncIterable<unknown>;
}

/** Beyond this many, the first page is looked at no further: the API's largest page. */
const MOST = MAX_LIMIT;

const WAITING = Symbol('waiting');

/**
 * The first record, and every record after it that is already there (no wait beyond the current turn of the
 * event loop: the rest of a fetched page), at most MOST. Nothing is fetched ahead that would not be anyway.
 */
export async function firstBatch(records: Records): Promise<FirstBatch> {
  if (Array.isArray(records)) return { head: records.slice(0, MOST), rest: fromArray(records) };
  const iterator = Symbol.asyncIterator in records ? (records as AsyncIterable<unknown>)[Symbol.asyncIterator]() : toAsync((records as Iterable<unknown>)[Symbol.iterator]());
  const head: unknown[] = [];
  let pending: Promise<IteratorResult<unknown>> | undefined = iterator.next();
  let done = false;
  const first = await pending;
  pending = undefined;
  if (first.done) done = true;
  else head.push(first.value);
  while (!done && head.length < MOST) {
    const next = iterator.next();
    let result: IteratorResult<unknown> | typeof WAITING;
    try {
      result = await Promise.race([next, nextTurn()]);
    } catch {
      // a later page failed at once: the records before it are printed first, then the failure is passed on
      pending = next;
      break;
    }
    if (result === WAITING) {
      pending = next;
      break;
    }
    if (result.done) done = true;
    else head.push(result.value);
  }
  return { head, rest: rest(head, pending, done ? undefined : iterator) };
}

async function* rest(head: unknown[], pending: Promise<IteratorResult<unknown>> | undefined, iterator: AsyncIterator<unknown> | undefined): AsyncIterable<unknown> {
  yield* head;
  if (!iterator) return;
  if (pending) {
    const result = await pending;
    if (result.done) return;
    yield result.value;
  }
  for (;;) {
    const result = await iterator.next();
    if (result.done) return;
    yield result.value;
  }
}

function nextTurn(): Promise<typeof WAITING> {
  return new Promise((resolve) => setImmediate(() => resolve(WAITING)));
}

async function* fromArray(records: unknown[]): AsyncIterable<unknown> {
  yield* records;
}

function toAsync(iterator: Iterator<unknown>): AsyncIterator<unknown> {
  return { next: async () => iterator.next() };
}
