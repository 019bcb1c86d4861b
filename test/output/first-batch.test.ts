// The first page decides a table's or CSV's columns; a page that fails at once after it must not take the
// records before it down with it.
import { describe, expect, it } from 'vitest';
import { firstBatch } from '../../src/output/first-batch.js';

describe('firstBatch when a later page fails', () => {
  it('the records already there are the head, and the failure comes after them from the rest', async () => {
    // a pager whose next page was fetched ahead and was refused before the first page was even read
    const refused = Promise.reject(new Error('HTTP 400 on page 2'));
    refused.catch(() => undefined);
    async function* pages() {
      yield 1;
      yield 2;
      await refused;
    }
    const { head, rest } = await firstBatch(pages());
    expect(head).toEqual([1, 2]);
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const item of rest) seen.push(item);
      })(),
    ).rejects.toThrow('HTTP 400 on page 2');
    expect(seen).toEqual([1, 2]);
  });
});
