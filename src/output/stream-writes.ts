// Writing a stream of items to stdout: at the reader's pace, and in as few writes as the items allow.
import type { Writable } from 'node:stream';

/** What ends a wait for stdout's reader: it read what was written, or it is gone. */
const CAUGHT_UP = ['drain', 'error', 'close'] as const;

/** Resolves when the reader of `out` has caught up with what was written (or is gone). */
export function caughtUp(out: Writable): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const event of CAUGHT_UP) out.off(event, done);
      resolve();
    };
    for (const event of CAUGHT_UP) out.on(event, done);
  });
}

/**
 * The text of items that arrive together (a page's), gathered into one write: a write to a pipe is a system
 * call, and a page of 500 items made 500 of them. What is gathered goes out when the next item is not there
 * at once (a page is being fetched: the items before it are not held back), when it reaches what the stream
 * itself buffers before it says the reader is behind, and at the end. A reader that is behind is waited for,
 * so memory stays flat however long the list.
 */
export class GatheredWrites {
  private parts: string[] = [];
  private size = 0;
  private flushSoon: NodeJS.Immediate | undefined;
  private readerBehind: Promise<void> | undefined;

  constructor(private readonly out: Writable) {}

  /** Adds an item's text. Returns a promise to wait on before the next item when the reader is behind. */
  add(text: string): Promise<void> | undefined {
    this.parts.push(text);
    this.size += text.length;
    if (!this.readerBehind && this.size >= this.out.writableHighWaterMark) return this.flush();
    // runs once the items already here are all added: the loop is then waiting for the next page (or done)
    this.flushSoon ??= setImmediate(() => void this.flush());
    return this.readerBehind;
  }

  /** Writes what was gathered; a promise when the reader is behind. */
  flush(): Promise<void> | undefined {
    if (this.flushSoon) clearImmediate(this.flushSoon);
    this.flushSoon = undefined;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    if (text === '' || this.out.destroyed || this.out.write(text)) return this.readerBehind;
    this.readerBehind ??= caughtUp(this.out).then(() => {
      this.readerBehind = undefined;
    });
    return this.readerBehind;
  }
}

/** A write in a stream of items: waits while the reader is behind, so memory stays flat however long the list. */
export async function writeInStream(out: Writable, text: string): Promise<void> {
  if (out.write(text) || out.destroyed) return;
  await caughtUp(out);
}

/**
 * Each record's line as it comes, gathered per page. The header goes out with the first record (or after an empty
 * list), so a failed request leaves stdout empty. Returns how many records were written.
 */
export async function writeEach(out: Writable, records: AsyncIterable<unknown> | Iterable<unknown>, line: (record: unknown) => string, header = ''): Promise<number> {
  let count = 0;
  const writes = new GatheredWrites(out);
  try {
    for await (const record of records) {
      // no promise for a write the reader keeps up with: on a list of 100,000 items that is time
      const readerBehind = writes.add(`${count === 0 ? header : ''}${line(record)}`);
      if (readerBehind) await readerBehind;
      count++;
    }
  } catch (error) {
    writes.flush();
    throw error;
  }
  if (count === 0) writes.add(header);
  await writes.flush();
  return count;
}
