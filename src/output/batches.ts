// Items grouped for a costly step (a jq run): as many as have already arrived, so a slow page is never waited
// for before the items before it are printed, and at most `max`, so memory stays flat.

type Records<T> = AsyncIterable<T> | Iterable<T>;

const WAITING = Symbol('waiting');

/** The next turn of the event loop: by then every item already fetched has been handed over. */
function nextTurn(): Promise<typeof WAITING> {
  return new Promise((resolve) => setImmediate(() => resolve(WAITING)));
}

export async function* batchesOf<T>(records: Records<T>, max: number): AsyncGenerator<T[]> {
  const iterator = Symbol.asyncIterator in records ? records[Symbol.asyncIterator]() : toAsync(records)[Symbol.asyncIterator]();
  let batch: T[] = [];
  let pending: Promise<IteratorResult<T>> | undefined;
  try {
    for (;;) {
      // The next item is asked for only when it is awaited, so a failing source never rejects unobserved.
      pending ??= iterator.next();
      let next: IteratorResult<T> | typeof WAITING;
      try {
        next = batch.length === 0 ? await pending : await Promise.race([pending, nextTurn()]);
      } catch (error) {
        // the items already here are printed before the failure is passed on
        if (batch.length > 0) yield batch;
        throw error;
      }
      if (next === WAITING) {
        yield batch;
        batch = [];
        continue;
      }
      pending = undefined;
      if (next.done) break;
      batch.push(next.value);
      if (batch.length >= max) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    if (pending === undefined) await iterator.return?.();
  }
}

async function* toAsync<T>(records: Iterable<T>): AsyncIterable<T> {
  yield* records;
}
