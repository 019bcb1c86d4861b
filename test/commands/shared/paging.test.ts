// "More results" is for a person at a terminal; "Stopped after" is said whatever stdout is (in the JSON error with
// -o json); a cursor too long for a line of the terminal is read from a file the hint names.
import { describe, expect, it } from 'vitest';
import { devicesListRun } from '../../../src/commands/devices/list.js';
import { pagingFrom } from '../../../src/commands/shared/paging.js';
import { holdAll } from '../../../src/output/sort.js';
import { readFileSync } from 'node:fs';
import { fakeDeps } from '../fake-deps.js';
import { ApiError } from '../../../src/errors.js';
import { cursorFile } from '../../../src/commands/shared/cursor-hint.js';
import { tempDir } from '../../support/temp-dir.js';

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

  it.each([true, false])('a page fails after items were printed, stdout a terminal %s: the resume hint is said all the same', async (tty) => {
    const f = fakeDeps({ tty, answers: [firstPage, failedPage] });
    await expect(devicesListRun(f.deps, { paging: { limit: 2, all: true } })).rejects.toMatchObject({ exitCode: 2 });
    expect(f.io.stderr()).toBe('Stopped after 2 items. To resume from there: the same command with --cursor c2\n');
    // on a terminal too, the 2 items are shown: resuming after them skips nothing unseen
    expect(f.io.stdout()).toContain('HW-1');
    expect(f.io.stdout()).toContain('HW-2');
  });

  it('with --max-items: the resume line asks for what is left of them', async () => {
    const f = fakeDeps({ answers: [firstPage, { ...failedPage, path: '/v1/devices?cursor=c2&limit=2' }] });
    await expect(devicesListRun(f.deps, { paging: { limit: 2, all: false, maxItems: 5 } })).rejects.toMatchObject({ exitCode: 2 });
    expect(f.io.stderr()).toBe('Stopped after 2 items. To resume from there: the same command with --cursor c2 --max-items 3\n');
  });

  it.each(['json', 'ndjson', 'csv', 'yaml'] as const)('-o %s: the problem document printed as JSON carries the cursor as its resume member, and no line is added', async (format) => {
    const f = fakeDeps({ format, answers: [firstPage, failedPage] });
    const failure = await devicesListRun(f.deps, { paging: { limit: 2, all: true } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).resume).toEqual({ cursor: 'c2', items_printed: 2 });
    expect(f.io.stderr()).toBe('');
  });

  it('a cursor a shell would split is quoted, so the line runs as printed', async () => {
    const f = fakeDeps({ answers: [{ ...firstPage, body: { ...firstPage.body, next_cursor: 'a+b/c d==' } }] });
    await devicesListRun(f.deps, { paging: { limit: 2, all: false } });
    expect(f.io.stderr()).toBe('');
    const t = fakeDeps({ tty: true, answers: [{ ...firstPage, body: { ...firstPage.body, next_cursor: 'a+b/c d==' } }] });
    await devicesListRun(t.deps, { paging: { limit: 2, all: false } });
    expect(t.io.stderr()).toBe("More results: add --cursor 'a+b/c d==' for the next page, or --all for every page.\n");
  });
});

describe('a cursor too long for a line of the terminal', () => {
  const long = `${'Q'.repeat(1500)}.sig`;
  const longPage = { ...firstPage, body: { ...firstPage.body, next_cursor: long } };

  it.each([80, 160])('at %i columns, "More results" reads it from a file it names, not 20 lines of cursor', async (width) => {
    const configDir = tempDir('fleetctl-cursor-');
    const f = fakeDeps({ tty: true, configDir, answers: [longPage] });
    (f.io as { columns: number | undefined }).columns = width;
    await devicesListRun(f.deps, { paging: { limit: 2, all: false } });
    const file = cursorFile(configDir, long);
    expect(f.io.stderr()).toBe(`More results: add --cursor "$(cat ${file})" for the next page (the cursor, 1504 characters, is in ${file}), or --all for every page.\n`);
    expect(readFileSync(file, 'utf8')).toBe(`${long}\n`);
  });

  it('"Stopped after" too, on a terminal; in a log (stderr not a terminal) the cursor is written whole', async () => {
    const configDir = tempDir('fleetctl-cursor-');
    const failing = { ...failedPage, path: `/v1/devices?cursor=${long}&limit=2` };
    const t = fakeDeps({ tty: true, configDir, answers: [longPage, failing] });
    await expect(devicesListRun(t.deps, { paging: { limit: 2, all: true } })).rejects.toMatchObject({ exitCode: 2 });
    const file = cursorFile(configDir, long);
    expect(t.io.stderr()).toBe(`Stopped after 2 items. To resume from there: the same command with --cursor "$(cat ${file})" (the cursor, 1504 characters, is in ${file})\n`);
    const piped = fakeDeps({ tty: false, configDir, answers: [longPage, failing] });
    await expect(devicesListRun(piped.deps, { paging: { limit: 2, all: true } })).rejects.toMatchObject({ exitCode: 2 });
    expect(piped.io.stderr()).toBe(`Stopped after 2 items. To resume from there: the same command with --cursor ${long}\n`);
  });

  it('a cursor that fits is shown whole at 80 columns', async () => {
    const fits = 'Z'.repeat(80 - '--cursor '.length);
    const f = fakeDeps({ tty: true, answers: [{ ...firstPage, body: { ...firstPage.body, next_cursor: fits } }] });
    (f.io as { columns: number | undefined }).columns = 80;
    await devicesListRun(f.deps, { paging: { limit: 2, all: false } });
    expect(f.io.stderr()).toBe(`More results: add --cursor ${fits} for the next page, or --all for every page.\n`);
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
