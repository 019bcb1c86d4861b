// The record boundary by resource: what readers ask (records.device.idOf(r) ...), for records shaped as the
// bundled document says and as another service names them.
import { describe, expect, it } from 'vitest';
import { idOf, records } from '../../src/records/resources.js';

const V = '2e7f6c1f-1dae-45ed-a366-adae182c1269';

describe('records.device', () => {
  it('its id, hardware id, vehicle and capabilities, whatever the service calls them', () => {
    const bundled = { id: 'd1', hardware_id: 'HW-1', vehicle_id: V, capabilities: ['reboot', 'wake_up'] };
    const other = { device_id: 'd2', hw: 'TLM-2', vehicle: { id: V.toUpperCase(), name: 'Van' } };
    expect([records.device.idOf(bundled), records.device.hardwareIdOf(bundled), records.device.vehiclesOf(bundled), records.device.capabilitiesOf(bundled)]).toEqual(['d1', 'HW-1', [V], ['reboot', 'wake_up']]);
    expect([records.device.idOf(other), records.device.hardwareIdOf(other), records.device.vehiclesOf(other), records.device.capabilitiesOf(other)]).toEqual(['d2', 'TLM-2', [V], undefined]);
  });

  it('capabilities not in the form fleetctl reads are unknown, never "none": a guess never withholds a command', () => {
    expect(records.device.capabilitiesOf({ capabilities: 'reboot' })).toBeUndefined();
    expect(records.device.capabilitiesOf({ capabilities: [] })).toEqual([]);
    expect(records.device.capabilitiesOf({ capabilities: ['wake_up', 'gps'] })).toEqual(['wake_up', 'gps']);
    // a list with something that is not a name, or of another vocabulary, is not read as lacking reboot
    expect(records.device.capabilitiesOf({ capabilities: ['gps', 3, null] })).toBeUndefined();
    expect(records.device.capabilitiesOf({ capabilities: ['GPS', 'VIDEO'] })).toBeUndefined();
  });
});

describe('idOf: each resource by its own noun', () => {
  it.each([
    ['fleet', { fleet_id: 'f1', name: 'North' }, 'f1'],
    ['driver', { driverId: 'r1' }, 'r1'],
    ['vehicle', { vehicle_ref: 'v1' }, 'v1'],
    ['organization', { id: 'o1', parent_id: 'o0' }, 'o1'],
    ['journey', { journey_uuid: 'j1' }, 'j1'],
    ['media', { media_ref: 'md-00', hw: 'TLM-1' }, 'md-00'],
  ] as const)('%s %j: %s', (resource, record, expected) => expect(idOf(resource, record)).toBe(expected));

  it('an event by its composite id first', () => {
    const composite = Buffer.from('HW-1~7', 'utf8').toString('base64url');
    expect(idOf('event', { id: '7', hardware_id: 'HW-1', key: composite })).toBe(composite);
  });
});
