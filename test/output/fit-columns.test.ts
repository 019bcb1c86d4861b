// Column widths on a terminal: measured in cells, the least stiff columns give way first, nothing wraps.
import { describe, expect, it } from 'vitest';
import { fitColumns, frameWidth, Stiffness } from '../../src/output/table-layout.js';
import { cutToWidth, displayWidth } from '../../src/output/text-width.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';
const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + frameWidth(widths.length);

describe('fitColumns (tables on a terminal)', () => {
  it('keeps natural widths when the table fits', () => {
    expect(fitColumns(['ID', 'NAME'], [[uuid, 'Truck 1']], 120)).toEqual([36, 7]);
  });

  it('shrinks the widest text columns to fit, and keeps a rigid uuid column whole', () => {
    const rows = [[uuid, 'x'.repeat(50), 'y'.repeat(30)]];
    const widths = fitColumns(['ID', 'NAME', 'MODEL'], rows, 80, [Stiffness.rigid, Stiffness.text, Stiffness.text]);
    expect(widths[0]).toBe(36);
    expect(total(widths)).toBe(80);
  });

  it('cuts text before lists, and lists before rigid columns', () => {
    const rows = [['HW-000001', 'Truck 0001 unit', 'reboot,wake_up', '2026-11-21 03:44']];
    const stiffness = [Stiffness.rigid, Stiffness.text, Stiffness.list, Stiffness.rigid];
    const widths = fitColumns(['HARDWARE ID', 'NAME', 'CAPABILITIES', 'LAST SEEN AT'], rows, 64, stiffness);
    expect(widths).toEqual([11, 10, 14, 16]);
    expect(total(widths)).toBe(64);
  });

  it('never wraps: when rigid columns alone are too wide, they are cut too', () => {
    const widths = fitColumns(['ID', 'NAME'], [[uuid, 'z'.repeat(40)]], 20, [Stiffness.rigid, Stiffness.text]);
    expect(total(widths)).toBeLessThanOrEqual(20);
  });

  it('measures wide characters as two cells', () => {
    expect(fitColumns(['NAME'], [['東京のトラック']], 80)).toEqual([14]);
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
  });
});
