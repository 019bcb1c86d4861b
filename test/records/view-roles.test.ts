// The member of a list's records that plays a part a view declares: found by the record boundary's rules for the
// service in use (the sandbox's names, the second service's), never assumed.
import { describe, expect, it } from 'vitest';
import { memberFor } from '../../src/records/view-roles.js';
import { eventRef } from '../support/second-service.js';

const IDENTIFIER = { role: 'identifier' } as const;

describe('memberFor', () => {
  it('the identifier: the member the resource rule reads, as each service names it', async () => {
    expect(await memberFor(IDENTIFIER, [{ id: 'v1', name: 'Truck' }], { resource: 'vehicle' })).toBe('id');
    expect(await memberFor(IDENTIFIER, [{ vehicle_ref: 'v1', title: 'Truck' }], { resource: 'vehicle' })).toBe('vehicle_ref');
    expect(await memberFor(IDENTIFIER, [{ media_ref: 'md-00', hw: 'TLM-00001' }], { resource: 'media' })).toBe('media_ref');
    expect(await memberFor(IDENTIFIER, [{ id: 'a', first_name: 'Ada' }], {})).toBeUndefined();
  });

  it("an event's: the composite the spec describes, whatever holds it, not a per-device id that repeats", async () => {
    const second = [0, 1].map((k) => ({ id: k + 1, ref: eventRef('TLM-00001', `ev0${k}`), device_hw: 'TLM-00001' }));
    expect(await memberFor(IDENTIFIER, second, { resource: 'event' })).toBe('ref');
    const sandbox = [{ event_id: Buffer.from('HW-000001~e1').toString('base64url'), hardware_id: 'HW-000001' }];
    expect(await memberFor(IDENTIFIER, sandbox, { resource: 'event' })).toBe('event_id');
  });

  it('the hardware id, and the report time, under the names the records give them', async () => {
    expect(await memberFor({ role: 'hardware-id' }, [{ hw: 'TLM-00001', kind: 'video/mp4' }])).toBe('hw');
    expect(await memberFor({ role: 'hardware-id' }, [{ id: 'd', hardware_id: 'HW-000001' }])).toBe('hardware_id');
    const devices = [
      { hardware_id: 'TLM-00001', reported_at: '2026-11-21T03:36:00Z', enrolled_on: '2023-05-04T00:00:00Z' },
      { hardware_id: 'TLM-00002', reported_at: null, enrolled_on: '2023-05-04T00:00:00Z' },
    ];
    expect(await memberFor({ role: 'report-time' }, devices)).toBe('reported_at');
  });

  it('the member most records hold the part in; a column by name is that name', async () => {
    const mixed = [{ id: 'a' }, { vehicle_id: 'b', vehicle_ref: 'b' }, { id: 'c' }];
    expect(await memberFor(IDENTIFIER, mixed, { resource: 'vehicle' })).toBe('id');
    expect(await memberFor({ field: 'status' }, [])).toBe('status');
  });
});
