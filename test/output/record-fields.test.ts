// The one rule for which fields a view shows when the records are shaped otherwise than fleetctl guessed:
// preferred columns the records carry, then the records' own (identifiers, names, times, other scalars).
import { describe, expect, it } from 'vitest';
import { carries, chooseColumns, everyField, recordCells, recordLabel } from '../../src/output/record-fields.js';
import { firstBatch } from '../../src/output/first-batch.js';
import { RECORD_VIEWS } from '../../src/records/views.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';

describe('chooseColumns', () => {
  it('keeps the preferred columns when the records carry them (null counts as carried)', () => {
    const records = [{ id: uuid, name: 'Truck', vehicle_id: null, extra: 1 }];
    expect(chooseColumns(['id', 'name', 'vehicle_id'], records)).toEqual(['id', 'name', 'vehicle_id']);
  });

  it('leaves out what no record carries and fills from the records: two ids, names, times, scalars, other ids, nested last', () => {
    const records = [{ notes: 'n', firmware: { version: '1' }, reported_at: '2026-11-20T10:00:00Z', label: 'Cab 1', serial: 'S-1', id: uuid, hardware_id: 'HW-1' }];
    expect(chooseColumns(['hardware_id', 'name', 'model', 'capabilities', 'last_seen_at'], records)).toEqual(['hardware_id', 'serial', 'label', 'reported_at', 'notes']);
    // the hardware id (what the device commands take) leads, whatever else identifies the record
    expect(chooseColumns(['name', 'x', 'y', 'z', 'w', 'v', 'u'], records)).toEqual(['hardware_id', 'serial', 'id', 'label', 'reported_at', 'notes', 'firmware']);
    // and a renamed one is not pushed out by identifiers the view prefers by name (a reference such as vehicle_id)
    const renamed = [{ id: uuid, vehicle_id: uuid, label: 'Cab 1', reported_at: '2026-11-20T10:00:00Z', power: 'obd', x_note: 'n', rank: 7, hw_id: 'HW-1' }];
    expect(chooseColumns(['id', 'hardware_id', 'vehicle_id', 'name'], renamed).slice(0, 3)).toEqual(['id', 'vehicle_id', 'hw_id']);
  });

  it('no records: the preferences as they are', () => {
    expect(chooseColumns(['id', 'name'], [])).toEqual(['id', 'name']);
  });
});

describe('every field, carried fields', () => {
  it('-o wide: the union over every record, nested members dotted, arrays whole', () => {
    expect(everyField([{ a: 1, b: { c: 2, d: { e: 3 } } }, { f: [1, 2], b: { g: null }, h: {} }])).toEqual(['a', 'b.c', 'b.d.e', 'f', 'b.g', 'h']);
  });

  it('carries walks dotted paths over own members only', () => {
    expect(carries({ a: { b: null } }, 'a.b')).toBe(true);
    expect(carries({ a: { b: 1 } }, 'a.c')).toBe(false);
    expect(carries({}, 'constructor')).toBe(false);
  });
});

describe('picker cells and completion labels', () => {
  it('cells: lists as words, a set flag as its name, missing preferred fields replaced by the record\'s own', () => {
    expect(recordCells({ hardware_id: 'HW-1', name: 'Van', capabilities: ['reboot', 'wake_up'] }, ['hardware_id', 'name', 'capabilities'])).toEqual(['HW-1', 'Van', 'reboot wake_up']);
    expect(recordCells({ at: '2026-01-01T00:00:00Z', is_accident: true, is_important: false }, ['at', 'is_accident', 'is_important'])).toEqual(['2026-01-01T00:00:00Z', 'accident', '']);
    expect(recordCells({ id: uuid, title: 'North' }, ['name', 'vehicle_count'])).toEqual([uuid, 'North']);
  });

  it('label: the preferred field, else a name-like field, never an identifier or an object', () => {
    expect(recordLabel({ id: uuid, name: 'Van 1' }, ['name'])).toBe('Van 1');
    expect(recordLabel({ id: uuid, serial: 'S-1', meta: { a: 1 }, title: 'North' }, ['name'])).toBe('North');
    expect(recordLabel({ id: uuid }, ['name'])).toBeUndefined();
  });

  it('label by a view\'s picker preferences: identifiers among them passed over, then the next the record has, else its own', () => {
    const device = RECORD_VIEWS.device.picker;
    expect(recordLabel({ hardware_id: 'HW-1', name: 'Truck', model: 'X1' }, device)).toBe('Truck');
    expect(recordLabel({ hardware_id: 'HW-1', model: 'X1' }, device)).toBe('X1');
    // a service whose devices are named otherwise: its own name-like field, never the hardware id
    expect(recordLabel({ hw: 'HW-1', serial: 'S-1', label: 'Cab 1' }, device)).toBe('Cab 1');
    expect(recordLabel({ id: uuid, title: 'Northern haulage', unit_total: 3 }, RECORD_VIEWS.fleet.picker)).toBe('Northern haulage');
    expect(recordLabel({ id: uuid, name: 'Acme' }, RECORD_VIEWS.organization.picker)).toBe('Acme');
  });
});

describe('firstBatch', () => {
  it('takes what arrives together, and streams the rest in order without losing any', async () => {
    let pulled = 0;
    async function* pages() {
      for (const page of [[1, 2, 3], [4, 5]]) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        for (const item of page) {
          pulled++;
          yield item;
        }
      }
    }
    const { head, rest } = await firstBatch(pages());
    expect(head).toEqual([1, 2, 3]);
    expect(pulled).toBe(3);
    const all: unknown[] = [];
    for await (const item of rest) all.push(item);
    expect(all).toEqual([1, 2, 3, 4, 5]);
  });

  it('an empty list, and a failing first page, are passed on', async () => {
    async function* none() {}
    expect((await firstBatch(none())).head).toEqual([]);
    async function* failing(): AsyncIterable<unknown> {
      throw new Error('page failed');
    }
    await expect(firstBatch(failing())).rejects.toThrow('page failed');
  });
});
