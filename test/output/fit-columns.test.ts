// Column widths on a terminal: measured in cells, free text gives way first, then columns are dropped; an
// identifier is never cut.
import { describe, expect, it } from 'vitest';
import { fitTable, frameWidth, Stiffness } from '../../src/output/table-layout.js';
import { cutToWidth, displayWidth } from '../../src/output/text-width.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';
const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + frameWidth(widths.length);
const shownWidths = ({ widths, shown }: { widths: number[]; shown: number[] }) => shown.map((i) => widths[i]!);

describe('fitTable (tables on a terminal)', () => {
  it('keeps natural widths when the table fits', () => {
    expect(fitTable(['ID', 'NAME'], [[uuid, 'Truck 1']], 120)).toEqual({ widths: [36, 7], shown: [0, 1] });
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

  it('drops the rightmost rigid column, then lists and text, before cutting an identifier', () => {
    const rows = [['fleetctl-run-20261125-HW-000001', 'device.capability_missing', 'reboot,wake_up', 'a long free text value']];
    const stiffness = [Stiffness.identifier, Stiffness.rigid, Stiffness.list, Stiffness.text];
    const fitted = fitTable(['IDEMPOTENCY KEY', 'CODE', 'CAPABILITIES', 'NOTE'], rows, 60, stiffness);
    expect(fitted.shown).toEqual([0, 2, 3]);
    expect(fitted.widths[0]).toBe(31);
    expect(total(shownWidths(fitted))).toBeLessThanOrEqual(60);
  });

  it('never cuts or drops identifiers, even when they alone are wider than the terminal', () => {
    const fitted = fitTable(['ID', 'KEY', 'NAME'], [[uuid, uuid, 'z'.repeat(40)]], 20, [Stiffness.identifier, Stiffness.identifier, Stiffness.text]);
    expect(fitted.shown).toEqual([0, 1]);
    expect(shownWidths(fitted)).toEqual([36, 36]);
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
  });
});
