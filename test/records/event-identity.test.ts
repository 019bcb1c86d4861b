// Which event a record is across a whole list: the spec's composite event id (base64url of the hardware id and the
// event id joined by a separator), never a per-device event id that repeats across devices.
import { describe, expect, it } from 'vitest';
import { compositeEventIdOf, eventIdOf, eventKey, isCompositeEventId } from '../../src/records/event-identity.js';
import { encodeEventId } from '../../src/sandbox/seed/telemetry.js';
import { eventRef } from '../support/second-service/records.js';

const uuid = '2e7f6c1f-1dae-45ed-a366-adae182c1269';
const composite = (hw: string, sep: string, id: string) => Buffer.from(`${hw}${sep}${id}`, 'utf8').toString('base64url');

describe('isCompositeEventId', () => {
  it('reads the sandbox\'s and the second service\'s ids, and any separator the spec leaves open', () => {
    expect(isCompositeEventId(encodeEventId('HW-000001', uuid), 'HW-000001')).toBe(true);
    expect(isCompositeEventId(eventRef('TLM-00001', 'ev00'), 'TLM-00001')).toBe(true);
    expect(isCompositeEventId(composite('359881234567890', ':', '17'))).toBe(true);
    expect(isCompositeEventId(composite('HW-1', '/', '17'), 'HW-1')).toBe(true);
  });

  it('refuses what is not one: another device\'s, a uuid, a plain id, text, non-canonical base64url', () => {
    expect(isCompositeEventId(composite('HW-2', '~', '17'), 'HW-1')).toBe(false);
    // HW-10 is not HW-1 followed by a separator
    expect(isCompositeEventId(composite('HW-10', '~', '17'), 'HW-1')).toBe(false);
    expect(isCompositeEventId(uuid)).toBe(false);
    expect(isCompositeEventId('17')).toBe(false);
    expect(isCompositeEventId('ev00')).toBe(false);
    expect(isCompositeEventId(`${composite('HW-1', '~', '17')}==`)).toBe(false);
    expect(isCompositeEventId(Buffer.from([0, 1, 2, 255, 254, 7]).toString('base64url'))).toBe(false);
    expect(isCompositeEventId(42)).toBe(false);
  });
});

describe('event identity across devices', () => {
  it('a composite id is found whatever its member is called, and preferred to a per-device id', () => {
    const record = { id: '17', hardware_id: 'HW-1', link_key: composite('HW-1', '~', '17') };
    expect(compositeEventIdOf(record)).toBe(composite('HW-1', '~', '17'));
    expect(eventIdOf(record)).toBe(composite('HW-1', '~', '17'));
    expect(eventKey(record)).toBe(composite('HW-1', '~', '17'));
  });

  it('a list of one device whose records do not repeat its hardware id: the hardware id comes from the list', () => {
    const record = { ref: eventRef('TLM-00001', 'ev00'), occurred_at: '2026-11-20T10:00:00Z' };
    expect(compositeEventIdOf(record, 'TLM-00001')).toBe(record.ref);
    expect(compositeEventIdOf(record, 'TLM-00002')).toBeUndefined();
    // and without it, a composite of some hardware id is still one
    expect(eventKey(record)).toBe(record.ref);
  });

  it('the same per-device event id on two devices is two events', () => {
    const a = { event_id: '17', hardware_id: 'HW-1' };
    const b = { event_id: '17', hardware_id: 'HW-2' };
    expect(eventKey(a)).not.toBe(eventKey(b));
    expect(eventKey(a)).toBe(eventKey({ ...a }));
    // what a picker passes on is still the id the record carries: the service decides what it takes
    expect(eventIdOf(a)).toBe('17');
  });

  it('a record with no id: a digest of it, the same for the same record', () => {
    expect(eventKey({ kind: 'x' })).toMatch(/^sha256:/);
    expect(eventKey({ kind: 'x' })).toBe(eventKey({ kind: 'x' }));
    expect(eventKey({ kind: 'x' })).not.toBe(eventKey({ kind: 'y' }));
  });
});
