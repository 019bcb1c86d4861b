// Paging hints are for a person at a terminal: "More results" and "Stopped after" only when stdout is one.
import { describe, expect, it } from 'vitest';
import { devicesListRun } from '../../../src/commands/devices/list.js';
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
