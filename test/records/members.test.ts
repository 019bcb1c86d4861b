// What a member of a record means, whatever the service calls it: identifiers, hardware ids, names, times.
import { describe, expect, it } from 'vitest';
import { FieldRank, hardwareIdOf, isIdentifierColumn, rankField, recordId } from '../../src/records/members.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';

describe('field ranks and identifiers', () => {
  it.each([
    ['id', [uuid], FieldRank.identifier],
    ['vehicle_ref', [uuid], FieldRank.identifier],
    ['hardwareId', ['HW-1'], FieldRank.identifier],
    ['idempotency_key', ['k'], FieldRank.identifier],
    ['title', ['North'], FieldRank.name],
    ['given_name', ['Ada'], FieldRank.name],
    ['observed', ['2026-11-20T10:00:00Z'], FieldRank.time],
    ['opened_at', [null], FieldRank.time],
    ['count', [3], FieldRank.scalar],
    ['firmware', [{ v: 1 }], FieldRank.nested],
  ] as const)('%s is ranked %i', (field, values, rank) => {
    expect(rankField(field, values)).toBe(rank);
  });

  it('a column of uuids is an identifier, whatever its name', () => {
    expect(isIdentifierColumn('owner', [uuid, null, ''])).toBe(true);
    expect(isIdentifierColumn('owner', ['Ada'])).toBe(false);
  });
});

describe('recordId: a record\'s identifier, whatever the service calls it', () => {
  it.each([
    [{ id: 'a', media_id: 'b' }, 'media', 'a'],
    [{ media_id: 'b', hardware_id: 'HW-1' }, 'media', 'b'],
    [{ mediaId: 'c' }, 'media', 'c'],
    [{ media_ref: 'md-00', hw: 'HW-1' }, 'media', 'md-00'],
    [{ event_id: 'ZXY', vehicle_id: 'v' }, 'event', 'ZXY'],
    [{ live_stream_id: 's1' }, 'live stream', 's1'],
    [{ liveStreamId: 's2' }, 'live-stream', 's2'],
    [{ uuid: 'u', name: 'x' }, 'fleet', 'u'],
    [{ id: 42 }, 'driver', '42'],
  ])('%j (%s): %s', (record, noun, expected) => expect(recordId(record, noun)).toBe(expected));

  it.each([[{ fleet_id: 'f', vehicle_id: 'v' }], [{ id: '  ' }], [{ id: null }], [{ id: { value: 'x' } }], [null], [['id']], ['id']])('%j has none', (record) => {
    expect(recordId(record, 'device')).toBeUndefined();
  });
});

describe('hardwareIdOf: the hardware id a record carries', () => {
  it.each([
    [{ hardware_id: 'HW-1', hw: 'x' }, 'HW-1'],
    [{ hardwareId: 'HW-2' }, 'HW-2'],
    [{ ref: 'r', device_hw: 'TLM-00001' }, 'TLM-00001'],
    [{ hw: 'TLM-00002', observed_at: '2026-11-20T10:00:00Z' }, 'TLM-00002'],
    [{ deviceHardwareId: 'HW-3' }, 'HW-3'],
  ])('%j: %s', (record, expected) => expect(hardwareIdOf(record)).toBe(expected));

  it.each([[{ hardware_id: '' }], [{ hw: 'a', device_hw: 'b' }], [{ serial: 'S-1' }], [{ hardware_id: 7 }], [null], ['HW-1']])('%j has none (two candidates are not guessed between)', (record) => {
    expect(hardwareIdOf(record)).toBeUndefined();
  });
});
