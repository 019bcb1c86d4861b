// The one pager: --all, --cursor, --max-items (asking for no more than needed), --limit checked before any request.
import { describe, expect, it } from 'vitest';
import { lookupPaging, PageParameterError, paginate, parseLimit, type Page } from '../../src/api/paginate.js';
import { newMockAgent, page, queryOf, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';

const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: `d${from + i}` }));

/** A fake server of `total` items, answering with the limit asked and a cursor that is the next offset. */
function fakeServer(total: number) {
  const asked: { cursor: string | undefined; limit: number }[] = [];
  const fetchPage = async (cursor: string | undefined, limit: number): Promise<Page<{ id: string }>> => {
    asked.push({ cursor, limit });
    const offset = cursor ? Number(cursor.slice(1)) : 0;
    const data = items(offset, Math.min(limit, total - offset));
    const next = offset + data.length;
    return { data, next_cursor: next < total ? `c${next}` : null, has_more: next < total };
  };
  return { asked, fetchPage };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('paginate', () => {
  it('with --all asks for the next page while this one is being read, and only when there is one to follow', async () => {
    const server = fakeServer(5);
    const seen: number[] = [];
    for await (const item of paginate(server.fetchPage, { limit: 2, all: true })) {
      // when the first item of a page is read, that page's successor is already asked for
      if (item.id === 'd0') seen.push(server.asked.length);
    }
    expect(seen).toEqual([2]);
    expect(server.asked.map((a) => a.cursor)).toEqual([undefined, 'c2', 'c4']);
  });

  it("a next page that fails fails after this page's items, where it is awaited", async () => {
    const read: string[] = [];
    const fetchPage = async (cursor: string | undefined): Promise<Page<{ id: string }>> => {
      if (cursor) throw new Error('page 2 failed');
      return { data: items(0, 2), next_cursor: 'c2', has_more: true };
    };
    await expect(
      (async () => {
        for await (const item of paginate(fetchPage, { limit: 2, all: true })) read.push(item.id);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(read).toEqual(['d0', 'd1']);
  });

  it('without --all reads one page and remembers the next cursor', async () => {
    const server = fakeServer(7);
    const pager = paginate(server.fetchPage, { limit: 3, all: false });
    expect((await collect(pager)).map((d) => d.id)).toEqual(['d0', 'd1', 'd2']);
    expect(pager.hasMore).toBe(true);
    expect(pager.nextCursor).toBe('c3');
    expect(server.asked).toEqual([{ cursor: undefined, limit: 3 }]);
  });

  it('--all follows next_cursor until has_more is false', async () => {
    const server = fakeServer(7);
    const pager = paginate(server.fetchPage, { limit: 3, all: true });
    expect(await collect(pager)).toHaveLength(7);
    expect(server.asked).toEqual([
      { cursor: undefined, limit: 3 },
      { cursor: 'c3', limit: 3 },
      { cursor: 'c6', limit: 3 },
    ]);
    expect(pager.hasMore).toBe(false);
    expect(pager.nextCursor).toBeUndefined();
  });

  it('--cursor starts there', async () => {
    const server = fakeServer(7);
    const pager = paginate(server.fetchPage, { limit: 3, all: true, cursor: 'c5' });
    expect((await collect(pager)).map((d) => d.id)).toEqual(['d5', 'd6']);
    expect(server.asked[0]).toEqual({ cursor: 'c5', limit: 3 });
  });

  it('--max-items stops after N items, asking for no more than needed', async () => {
    const server = fakeServer(100);
    const pager = paginate(server.fetchPage, { limit: 3, all: false, maxItems: 7 });
    expect(await collect(pager)).toHaveLength(7);
    expect(server.asked.map((a) => a.limit)).toEqual([3, 3, 1]);
    expect(pager.hasMore).toBe(true);
  });

  it('--max-items never yields more than N even when the server answers with more', async () => {
    const pager = paginate(async () => ({ data: items(0, 10), next_cursor: 'x', has_more: true }), { limit: 10, all: false, maxItems: 4 });
    expect(await collect(pager)).toHaveLength(4);
  });

  it('stops on has_more without a cursor', async () => {
    let calls = 0;
    const noCursor = paginate(async () => (calls++, { data: items(0, 2), next_cursor: null, has_more: true }), { limit: 2, all: true });
    expect(await collect(noCursor)).toHaveLength(2);
    expect(calls).toBe(1);
  });

  it.each([
    ['0', 'must be from 1 to 500, got 0'],
    ['501', 'must be from 1 to 500, got 501'],
    ['abc', 'must be a whole number from 1 to 500, got "abc"'],
    ['-5', 'must be a whole number from 1 to 500, got "-5"'],
    ['2.5', 'must be a whole number from 1 to 500, got "2.5"'],
  ])('limit %s is refused, naming the parameter, for the command to name its flag', (value, problem) => {
    let error: unknown;
    try {
      parseLimit(value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PageParameterError);
    expect(error).toMatchObject({ parameter: 'limit', problem, message: `limit ${problem}` });
    expect((error as PageParameterError).as('--limit').message).toBe(`--limit ${problem}`);
  });

  it('--limit defaults to 50 and accepts 1 and 500', () => {
    expect([parseLimit(undefined), parseLimit('1'), parseLimit('500')]).toEqual([50, 1, 500]);
  });
});

describe('paging through a list command', () => {
  it.each(['0', '501', 'abc'])('--limit %s exits 2 before any request', async (limit) => {
    const result = await runCli(['devices', 'list', '--limit', limit], { env: ciEnv(tempConfigDir()), agent: newMockAgent(), clock: new FakeClock() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: --limit must be/);
    expect(result.stdout).toBe('');
  });

  it('--all requests every page with the cursor of the one before', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const first = stubApi(agent, { path: '/v1/devices', body: page(items(0, 2), 'cur-2') });
    const second = stubApi(agent, { path: '/v1/devices', body: page(items(2, 2), 'cur-4') });
    const last = stubApi(agent, { path: '/v1/devices', body: page(items(4, 1)) });
    const result = await runCli(['devices', 'list', '--all', '--limit', '2', '-o', 'json'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((d: { id: string }) => d.id)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
    expect(Object.fromEntries(queryOf(first[0]))).toEqual({ limit: '2' });
    expect(Object.fromEntries(queryOf(second[0]))).toEqual({ limit: '2', cursor: 'cur-2' });
    expect(Object.fromEntries(queryOf(last[0]))).toEqual({ limit: '2', cursor: 'cur-4' });
    expect(result.stderr).toBe('');
  });

  it('--cursor starts at that page and, on a terminal, the hint gives the next one', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const seen = stubApi(agent, { path: '/v1/devices', body: page(items(10, 2), 'cur-12') });
    const result = await runCli(['devices', 'list', '--cursor', 'cur-10', '--limit', '2'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock(), tty: true });
    expect(queryOf(seen[0]).get('cursor')).toBe('cur-10');
    expect(result.stderr).toBe('More results: add --cursor cur-12 for the next page, or --all for every page.\n');
    expect(result.stdout).not.toContain('cur-12');
  });

  it('--max-items 120 with --limit 50 asks for 50, 50, then 20', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const a = stubApi(agent, { path: '/v1/devices', body: page(items(0, 50), 'c50') });
    const b = stubApi(agent, { path: '/v1/devices', body: page(items(50, 50), 'c100') });
    const c = stubApi(agent, { path: '/v1/devices', body: page(items(100, 20), 'c120') });
    const result = await runCli(['devices', 'list', '--max-items', '120', '-o', 'ndjson'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(120);
    expect([a, b, c].map((s) => queryOf(s[0]).get('limit'))).toEqual(['50', '50', '20']);
  });

  it('no hint when the last page has been read', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page(items(0, 1)) });
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.stderr).toBe('');
  });
});

describe('answers that are not a proper page', () => {
  it('--all goes on past an empty page that says has_more (the server decides, not the page size)', async () => {
    const answers: Page<{ id: string }>[] = [
      { data: [{ id: 'a' }], next_cursor: 'c1', has_more: true },
      { data: [], next_cursor: 'c2', has_more: true },
      { data: [{ id: 'b' }], next_cursor: null, has_more: false },
    ];
    const pager = paginate(async () => answers.shift()!, { limit: 1, all: true });
    expect((await collect(pager)).map((d) => d.id)).toEqual(['a', 'b']);
  });

  it('one page asked for: an empty first page that says has_more is not the end; the next is read until one has items', async () => {
    const answers: Page<{ id: string }>[] = [
      { data: [], next_cursor: 'c1', has_more: true },
      { data: [], next_cursor: 'c2', has_more: true },
      { data: [{ id: 'a' }], next_cursor: 'c3', has_more: true },
      { data: [{ id: 'b' }], next_cursor: null, has_more: false },
    ];
    const asked: (string | undefined)[] = [];
    const pager = paginate(async (cursor) => (asked.push(cursor), answers.shift()!), { limit: 1, all: false });
    expect((await collect(pager)).map((d) => d.id)).toEqual(['a']);
    expect(asked).toEqual([undefined, 'c1', 'c2']);
    expect([pager.hasMore, pager.nextCursor]).toEqual([true, 'c3']);
  });

  it('an empty page repeating its cursor still stops with the loop error', async () => {
    const pager = paginate(async () => ({ data: [], next_cursor: 'same', has_more: true }), { limit: 1, all: false });
    await expect(collect(pager)).rejects.toThrow('the API answered the same next_cursor twice (same); stopped to avoid a loop');
  });

  it('a lookup (lookupPaging) follows has_more until it has what it needs, past empty and short pages', async () => {
    const answers: Page<{ id: string }>[] = [
      { data: [], next_cursor: 'c1', has_more: true },
      { data: [{ id: 'a' }], next_cursor: 'c2', has_more: true },
      { data: [{ id: 'b' }], next_cursor: 'c3', has_more: true },
    ];
    const pager = paginate(async () => answers.shift()!, lookupPaging(2));
    expect((await collect(pager)).map((d) => d.id)).toEqual(['a', 'b']);
    expect(answers).toHaveLength(0);
  });

  it('the same next_cursor twice stops with a clear error instead of looping for ever', async () => {
    const pager = paginate(async () => ({ data: [{ id: 'x' }], next_cursor: 'same', has_more: true }), { limit: 1, all: true });
    await expect(collect(pager)).rejects.toThrow('the API answered the same next_cursor twice (same); stopped to avoid a loop');
  });

  it.each([
    ['text', 'oops'],
    ['an array', [{ id: 'x' }]],
    ['an object with items', { items: [] }],
    ['nothing', undefined],
  ])('a page that is %s is a clear error (exit 9), not a crash', async (what, body) => {
    const pager = paginate(async () => body as unknown as Page<unknown>, { limit: 1, all: false });
    const error = (await collect(pager).then(() => undefined, (e: unknown) => e)) as Error & { exitCode: number };
    expect(error.message).toBe(`the API answered a list request with ${what}, not the collection envelope {data, next_cursor, has_more}`);
    expect(error.exitCode).toBe(9);
  });

  it('end to end: a 200 whose body is not an envelope exits 9 with one clear error line', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: { items: [] } });
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe('Error: the API answered a list request with an object with items, not the collection envelope {data, next_cursor, has_more}');
    expect(result.stderr).not.toContain('unexpected failure');
  });
});
