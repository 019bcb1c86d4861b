// Paging hints are for a person at a terminal: "More results" and "Stopped after" only when stdout is one.
import { describe, expect, it } from 'vitest';
import { devicesListRun } from '../../../src/commands/devices/list.js';
import { pagingFrom } from '../../../src/commands/shared/paging.js';
import { holdAll } from '../../../src/output/sort.js';
import { fakeDeps } from '../fake-deps.js';

const device = (n: number) => ({ id: `d${n}`, hardware_id: `HW-${n}`, name: `Truck ${n}` });
const firstPage = { method: 'GET', path: '/v1/devices?limit=2', body: { data: [device(1), device(2)], next_cursor: 'c2', has_more: true } } as const;
const failedPage = { method: 'GET', path: '/v1/devices?cursor=c2&limit=2', status: 400, body: { type: 'about:blank', title: 'bad', status: 400, detail: 'bad cursor', code: 'request.invalid' } } as const;

describe('paging hints', () => {
  it.each([
    [true, 'More results: add --cursor c2 for the next page, or --all for every page.\n'],
    [false, ''],
  ])('more pages left, stdout a terminal %s: the hint is %j', async (tty, hint) => {
    const f = fakeDeps({ tty, answers: [firstPage] });
    await devicesListRun(f.deps, { paging: { limit: 2, all: false } });
    expect(f.io.stdout()).toContain('HW-2');
    expect(f.io.stderr()).toBe(hint);
  });

  it.each([
    [true, 'Stopped after 2 items. To resume from there: the same command with --cursor c2\n'],
    [false, ''],
  ])('a page fails after items were printed, stdout a terminal %s: the resume hint is %j', async (tty, hint) => {
    const f = fakeDeps({ tty, answers: [firstPage, failedPage] });
    await expect(devicesListRun(f.deps, { paging: { limit: 2, all: true } })).rejects.toMatchObject({ exitCode: 2 });
    expect(f.io.stderr()).toBe(hint);
  });
});

describe('--sort with --max-items', () => {
  const seen = (n: number, at: string) => ({ id: `d${n}`, hardware_id: `HW-${n}`, last_seen_at: at });
  const pages = [
    { method: 'GET', path: '/v1/devices?limit=2', body: { data: [seen(1, '2024-05-01T00:00:00Z'), seen(2, '2024-05-04T00:00:00Z')], next_cursor: 'c2', has_more: true } },
    { method: 'GET', path: '/v1/devices?cursor=c2&limit=2', body: { data: [seen(3, '2024-05-02T00:00:00Z'), seen(4, '2024-05-03T00:00:00Z')], next_cursor: null, has_more: false } },
  ] as const;
  const printed = (stdout: string) => stdout.trim().split('\n').map((line) => (JSON.parse(line) as { hardware_id: string }).hardware_id);

  it('--all: cuts after sorting every item fetched (the 2 most recently seen, not the first 2 fetched)', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [...pages] });
    await devicesListRun(f.deps, { paging: pagingFrom({ limit: '2', all: true, sort: '-last_seen_at', maxItems: '2' }) });
    expect(printed(f.io.stdout())).toEqual(['HW-2', 'HW-4']);
    expect(f.io.stderr()).toBe('--sort holds every item in memory before printing the first (only the 2 first in order are kept: --max-items).\n');
  });

  it('without --all: sorts the page fetched and says so on stderr, piped or not', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [pages[0]] });
    await devicesListRun(f.deps, { paging: pagingFrom({ limit: '2', sort: 'last_seen_at', maxItems: '1' }) });
    expect(printed(f.io.stdout())).toEqual(['HW-1']);
    expect(f.io.stderr()).toBe('--sort sorted only the 2 items of the page fetched, not the whole list: add --all to sort every item.\n');
  });

  it('without --sort, --max-items still stops the pager at N', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [pages[0]] });
    await devicesListRun(f.deps, { paging: pagingFrom({ limit: '2', maxItems: '2' }) });
    expect(printed(f.io.stdout())).toEqual(['HW-1', 'HW-2']);
  });

  it('holds about 2N items, not every item, and keeps ties in the order they came', async () => {
    // 5000 items in 50 ranks: the 3 first in order are the first 3 of rank 0 to arrive
    const items = Array.from({ length: 5000 }, (_, i) => ({ rank: i % 50, n: i }));
    const kept = await holdAll(items, { reason: '--sort', maxItems: 3, sort: [{ field: 'rank', descending: false }], say: () => undefined });
    expect(kept.map((item) => item.n)).toEqual([0, 50, 100]);
  });
});
