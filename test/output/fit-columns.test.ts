import { describe, expect, it } from 'vitest';
import { fitColumns } from '../../src/output/render.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';

describe('fitColumns (tables on a terminal)', () => {
  it('keeps natural widths when the table fits', () => {
    expect(fitColumns(['ID', 'NAME'], [[uuid, 'Truck 1']], 120)).toEqual([36, 7]);
  });

  it('shrinks the widest non-identifier columns to fit, and never cuts a uuid column', () => {
    const rows = [[uuid, 'x'.repeat(50), 'y'.repeat(30)]];
    const widths = fitColumns(['ID', 'NAME', 'MODEL'], rows, 80);
    expect(widths[0]).toBe(36);
    expect(widths.reduce((a, b) => a + b, 0) + 3 * 3 + 1).toBeLessThanOrEqual(80);
    expect(widths[1]).toBeGreaterThanOrEqual(8);
  });

  it('stops at 8 characters a column when the terminal is too narrow for anything', () => {
    expect(fitColumns(['ID', 'NAME'], [[uuid, 'z'.repeat(40)]], 20)).toEqual([36, 8]);
  });
});

describe('fitColumns: headers and identifier columns', () => {
  it('keeps a header readable, and keeps a column named like an identifier whole', () => {
    const rows = [['HW-000001', 'a'.repeat(60), 'b'.repeat(60)]];
    const widths = fitColumns(['HARDWARE ID', 'LICENSE PLATE', 'NOTES'], rows, 40, [true, false, false]);
    expect(widths[0]).toBe(9 + 2);
    expect(widths[1]).toBe('LICENSE PLATE'.length);
    expect(widths[2]).toBe(8);
  });
});
