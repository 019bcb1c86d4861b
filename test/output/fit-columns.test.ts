// Column widths on a terminal: measured in cells; the view's other columns give way first (their text cut, then
// the rightmost left out), then its task's; the identifier is never cut nor left out.
import { describe, expect, it } from 'vitest';
import { fitTable, frameWidth, Part, Stiffness } from '../../src/output/table-layout.js';
import { cutToWidth, displayWidth } from '../../src/output/text-width.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';
const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + frameWidth(widths.length);
const shownWidths = ({ widths, shown }: { widths: number[]; shown: number[] }) => shown.map((i) => widths[i]!);

describe('fitTable (tables on a terminal)', () => {
  it('keeps natural widths when the table fits', () => {
    expect(fitTable(['ID', 'NAME'], [[uuid, 'Truck 1']], 120)).toEqual({ widths: [36, 7], shown: [0, 1], fits: true });
  });

  it('shrinks the widest text columns to fit, and keeps an identifier column whole', () => {
    const rows = [[uuid, 'x'.repeat(50), 'y'.repeat(30)]];
    const fitted = fitTable(['ID', 'NAME', 'MODEL'], rows, 80, [Stiffness.identifier, Stiffness.text, Stiffness.text]);
    expect(fitted.widths[0]).toBe(36);
    expect(total(shownWidths(fitted))).toBe(80);
  });

  it('cuts text before lists, and never cuts rigid columns', () => {
    const rows = [['HW-000001', 'Truck 0001 unit', 'reboot,wake_up', '2026-11-21 03:44']];
    const stiffness = [Stiffness.identifier, Stiffness.text, Stiffness.list, Stiffness.rigid];
    const fitted = fitTable(['HARDWARE ID', 'NAME', 'CAPABILITIES', 'LAST SEEN AT'], rows, 64, stiffness);
    expect(fitted.widths).toEqual([11, 10, 14, 16]);
    expect(total(shownWidths(fitted))).toBe(64);
  });

  it('leaves out the other columns, rightmost first, before the task columns, whatever their values', () => {
    const rows = [['HW-000001', 'failed', '422', 'device.capability_missing', 'fleetctl-run-20261125T210800Z-abcdef:HW-000001']];
    const headers = ['HARDWARE ID', 'STATUS', 'HTTP STATUS', 'CODE', 'IDEMPOTENCY KEY'];
    const stiffness = [Stiffness.identifier, Stiffness.rigid, Stiffness.rigid, Stiffness.rigid, Stiffness.identifier];
    const parts = [Part.identifier, Part.task, Part.other, Part.task, Part.other];
    const fitted = fitTable(headers, rows, 80, stiffness, parts);
    expect(fitted.shown).toEqual([0, 1, 2, 3]);
    expect(fitTable(headers, rows, 60, stiffness, parts).shown).toEqual([0, 1, 3]);
    // narrower still: the task's rightmost column goes, the identifier stays whole
    const narrow = fitTable(headers, rows, 30, stiffness, parts);
    expect(narrow.shown).toEqual([0, 1]);
    expect(narrow.widths[0]).toBe(11);
    expect(narrow.fits).toBe(true);
  });

  it('brings back a column left out for a wider one when it fits in the room left', () => {
    const rows = [['SFctMDAwMDAxfmI3YmY4MzdjLTE4MzAtNGEwYi04ZjQ4LTg1YzZiNjYxYzhlZQ', '2026-11-21 00:22', 'HW-000001', 'false']];
    const stiffness = [Stiffness.identifier, Stiffness.rigid, Stiffness.identifier, Stiffness.rigid];
    const fitted = fitTable(['EVENT ID', 'TRIGGERED AT', 'HARDWARE ID', 'IS ACCIDENT'], rows, 80, stiffness, [Part.identifier, Part.other, Part.other, Part.other]);
    expect(fitted.shown).toEqual([0, 2]);
    expect(total(shownWidths(fitted))).toBeLessThanOrEqual(80);
  });

  it('never cuts nor leaves out the identifier: alone wider than the terminal, the table does not fit', () => {
    const fitted = fitTable(['ID', 'KEY', 'NAME'], [[uuid, uuid, 'z'.repeat(40)]], 20, [Stiffness.identifier, Stiffness.identifier, Stiffness.text]);
    expect(fitted.shown).toEqual([0]);
    expect(shownWidths(fitted)).toEqual([36]);
    expect(fitted.fits).toBe(false);
  });

  it('measures wide characters as two cells', () => {
    expect(fitTable(['NAME'], [['東京のトラック']], 80).widths).toEqual([14]);
  });
});

describe('cutToWidth', () => {
  it('cuts with an ellipsis, in terminal cells', () => {
    expect(cutToWidth('Truck 0001 unit', 10)).toBe('Truck 000…');
    expect(displayWidth(cutToWidth('東京のトラック', 7))).toBeLessThanOrEqual(7);
    expect(cutToWidth('東京のトラック', 7)).toBe('東京の…');
  });

  it('never splits a surrogate pair or an emoji sequence', () => {
    const cut = cutToWidth('🚚🚚🚚🚚', 5);
    expect(cut).toBe('🚚🚚…');
    expect(cutToWidth('👩‍🔧👩‍🔧👩‍🔧', 4)).toBe('👩‍🔧…');
    expect(cutToWidth('a👍🏽b', 3)).toBe('a…');
  });

  it('leaves text that fits alone', () => {
    expect(cutToWidth('short', 5)).toBe('short');
    expect(cutToWidth('short', 5, 'end')).toBe('short');
  });

  it("keeping the end (a file path's file name), the ellipsis starts it, in terminal cells and whole graphemes", () => {
    expect(cutToWidth('/opt/tools/bin/fleetctl-hello', 18, 'end')).toBe('…in/fleetctl-hello');
    expect(cutToWidth('/opt/トラック/fleetctl-x', 14, 'end')).toBe('…ク/fleetctl-x');
    expect(displayWidth(cutToWidth('/opt/トラック/fleetctl-x', 14, 'end'))).toBeLessThanOrEqual(14);
    expect(cutToWidth('/a/👩‍🔧👩‍🔧', 4, 'end')).toBe('…👩‍🔧');
  });
});

describe('tableHeads: which columns keep their end when cut', () => {
  it('a column of file paths (POSIX, home, Windows) keeps its end; text, and a column only partly paths, do not', async () => {
    const { tableHeads } = await import('../../src/output/cells.js');
    const { endKept } = await tableHeads(
      ['path', 'home', 'windows', 'name', 'mixed', 'url'],
      [
        ['/usr/local/bin/fleetctl-a', '~/bin/fleetctl-b', 'C:\\Tools\\fleetctl-c.exe', 'hello', '/a/b', 'https://x.example/a'],
        ['/opt/bin/fleetctl-d', null, 'D:/bin/fleetctl-e', 'world', 'not a path', 'https://y.example/b'],
      ],
    );
    expect(endKept).toEqual([true, true, true, false, false, false]);
  });
});
