// Items written to stdout as they come: in one write when they come together, never held across a wait, and
// at the reader's pace.
import { PassThrough, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GatheredWrites } from '../../src/output/stream-writes.js';
import { Output } from '../../src/output/render.js';
import { IOStreams } from '../../src/io/streams.js';

/** A stdout that records each write; `slow` holds every write until released, as a reader that is behind. */
function recordingOut(options: { highWaterMark?: number; slow?: boolean } = {}) {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const out = new Writable({
    highWaterMark: options.highWaterMark ?? 16384,
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      if (options.slow) held.push(() => done());
      else done();
    },
  });
  return { out, writes, release: () => held.splice(0).forEach((done) => done()) };
}

describe('gathered writes', () => {
  it('what is added in one go goes out in one write', () => {
    const { out, writes } = recordingOut();
    const gathered = new GatheredWrites(out);
    for (let i = 0; i < 50; i++) expect(gathered.add(`item ${i}\n`)).toBeUndefined();
    expect(writes).toEqual([]);
    gathered.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0].split('\n')).toHaveLength(51);
  });

  it('is written when the next item keeps it waiting (a page being fetched), not held until the end', async () => {
    const { out, writes } = recordingOut();
    const gathered = new GatheredWrites(out);
    gathered.add('first page\n');
    await sleep(5);
    expect(writes).toEqual(['first page\n']);
    gathered.add('second page\n');
    gathered.flush();
    expect(writes).toEqual(['first page\n', 'second page\n']);
  });

  it("goes out at once when it reaches what the stream buffers before it says the reader is behind", () => {
    const { out, writes } = recordingOut({ highWaterMark: 100 });
    const gathered = new GatheredWrites(out);
    for (let i = 0; i < 10; i++) gathered.add('x'.repeat(30));
    // 4 items reach 100 characters: two writes of 4 items, 2 items still gathered
    expect(writes.map((text) => text.length)).toEqual([120, 120]);
    gathered.flush();
    expect(writes.join('')).toBe('x'.repeat(300));
  });

  it('a reader that is behind is waited for: the promise settles when it has caught up', async () => {
    const { out, writes, release } = recordingOut({ highWaterMark: 10, slow: true });
    const gathered = new GatheredWrites(out);
    const behind = gathered.add('more than ten characters');
    expect(behind).toBeInstanceOf(Promise);
    let settled = false;
    void behind?.then(() => (settled = true));
    await sleep(5);
    expect(settled).toBe(false);
    // what is added meanwhile is not written over a reader that is behind by the size rule, and gets the same wait
    expect(gathered.add('another item that is long')).toBe(behind);
    release();
    await behind;
    expect(settled).toBe(true);
    await sleep(5);
    release();
    expect(writes.join('')).toBe('more than ten charactersanother item that is long');
  });

  it('a closed stdout is not written to', () => {
    const { out, writes } = recordingOut();
    out.destroy();
    const gathered = new GatheredWrites(out);
    gathered.add('lost');
    expect(gathered.flush()).toBeUndefined();
    expect(writes).toEqual([]);
  });
});

describe('lists through the output layer', () => {
  const items = Array.from({ length: 50 }, (_, i) => ({ id: `d${i}`, name: `device ${i}` }));
  async function* page(): AsyncIterable<unknown> {
    yield* items;
  }

  it.each(['json', 'ndjson', 'csv', 'table'] as const)('a page of 50 items, piped with -o %s: one write', async (format) => {
    const { out, writes } = recordingOut();
    const io = new IOStreams({ out, err: new PassThrough(), in: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, env: {} });
    expect(await new Output(io, { format }).list(page(), ['id', 'name'])).toBe(50);
    expect(writes).toHaveLength(1);
    if (format === 'json') expect(JSON.parse(writes[0])).toEqual(items);
  });
});
