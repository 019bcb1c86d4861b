// The column tables behind devices and vehicles: uuid look-ups, hardware ids (default and named), moves
// between index buckets, and the records they show.
import { describe, expect, it } from 'vitest';
import { IdColumn } from '../../src/sandbox/store/id-column.js';
import { WorldStore } from '../../src/sandbox/world-store.js';
import { Prng, formatUuid } from '../../src/sandbox/common/prng.js';
import { isoString } from '../../src/sandbox/common/iso-time.js';

describe('IdColumn', () => {
  it('finds every id it indexed, through growth and rehashing, and nothing else', () => {
    const ids = new IdColumn();
    const rng = new Prng(3);
    const texts: string[] = [];
    for (let row = 0; row < 5000; row++) {
      ids.reserve(row + 1);
      rng.uuidWords(ids.words, row * 4);
      expect(ids.index(row)).toBe(-1);
      texts.push(ids.text(row));
    }
    texts.forEach((text, row) => expect(ids.find(text)).toBe(row));
    expect(ids.find(texts[17]!.toUpperCase())).toBe(17);
    expect(ids.find('00000000-0000-4000-8000-000000000000')).toBe(-1);
    expect(ids.find('not-a-uuid')).toBe(-1);
  });

  it('reports the earlier row of a duplicate id', () => {
    const ids = new IdColumn();
    ids.reserve(2);
    ids.words.set([1, 2, 3, 4, 1, 2, 3, 4]);
    expect(ids.index(0)).toBe(-1);
    expect(ids.index(1)).toBe(0);
    expect(formatUuid(ids.words, 0)).toBe('00000001-0000-0002-0000-000300000004');
  });
});

describe('device and vehicle tables', () => {
  const world = () => WorldStore.seeded(5, 300, Date.UTC(2026, 0, 1));

  it('look devices up by id, hardware id and seed vehicle', () => {
    const w = world();
    expect(w.devices.size).toBe(300);
    const d = w.devices.at(41);
    expect(d.hardware_id).toBe('HW-000042');
    expect(w.devices.get(d.id)?.seq).toBe(41);
    expect(w.deviceByHardwareId('HW-000042')?.id).toBe(d.id);
    for (const missing of ['HW-000301', 'HW-42', 'HW-0000042', 'hw-000042', 'HW-000000']) expect(w.deviceByHardwareId(missing)).toBeUndefined();
    expect(w.deviceBySeedVehicle(d.vehicle_id!)?.seq).toBe(41);
    expect(w.vehicles.get(d.vehicle_id!)?.fleet_id).toBe(d.fleet_id);
    expect(d.name).toBe(`${w.vehicles.get(d.vehicle_id!)!.name} unit`);
  });

  it('keep a device in its seed fleet index but move it between org and fleet buckets when assigned', () => {
    const w = world();
    const device = w.devices.at(0);
    const other = w.fleets.items.find((f) => f.organization_id !== device.organization_id)!;
    const vehicle = w.vehicles.at(w.vehicles.seqs('fleet', other.id)[0]!);
    w.assignDevice(device, vehicle);
    const moved = w.devices.at(0);
    expect(moved).toMatchObject({ vehicle_id: vehicle.id, fleet_id: other.id, organization_id: other.organization_id, seedFleetId: device.fleet_id });
    expect(w.devices.seqs('fleet', other.id)).toContain(0);
    expect(w.devices.seqs('fleet', device.fleet_id)).not.toContain(0);
    expect(w.devices.seqs('seedFleet', device.fleet_id)).toContain(0);
    expect(w.devices.seqs('org', other.organization_id)).toContain(0);
    expect(w.getChanges().assignments[device.id]).toEqual({ vehicle_id: vehicle.id, fleet_id: other.id, organization_id: other.organization_id });
    // the saved change applies to a fresh world of the same seed
    const again = WorldStore.seeded(5, 300, Date.UTC(2026, 0, 1), w.getChanges());
    expect(again.devices.at(0)).toEqual(moved);
  });

  it('refuse a named hardware id that another device has, whether named or by default', () => {
    const w = world();
    const init = { id: '00000000-0000-4000-8000-0000000000aa', placement: { ...w.devices.placement(0), vehicle: -1 }, model: 0, firmware: 0, capabilities: 3, lastSeenMs: Number.NaN, createdMs: 0, hasLivePosition: false };
    expect(() => w.devices.append({ ...init, hardwareId: 'HW-000007' })).toThrow('duplicate hardware id HW-000007');
    expect(() => w.devices.append({ ...init, id: w.devices.at(3).id, hardwareId: 'X-1' })).toThrow('duplicate device id');
    const row = w.devices.append({ ...init, hardwareId: 'HW-000302' });
    expect(w.deviceByHardwareId('HW-000302')?.seq).toBe(row);
    expect(w.devices.at(row)).toMatchObject({ last_seen_at: null, capabilities: ['reboot', 'wake_up'], name: 'Spare unit HW-000302' });
    // the next default id would be HW-000302 too
    expect(() => w.devices.append({ ...init, id: '00000000-0000-4000-8000-0000000000bb' })).toThrow('duplicate hardware id HW-000302');
  });

  it('scan pages of a table through index buckets, in seq order', () => {
    const w = world();
    const org = w.orgs!.north.id;
    const all = w.devices.seqs('org', org);
    const first = w.devices.scan([all], -1, 5, () => true);
    expect(first.items.map((d) => d.seq)).toEqual(all.slice(0, 5));
    expect(first.hasMore).toBe(true);
    const rest = w.devices.scan([all], first.items.at(-1)!.seq, 1000, (d) => d.capabilities.includes('wake_up'));
    expect(rest.hasMore).toBe(false);
    expect(rest.items.every((d) => d.organization_id === org && d.capabilities.includes('wake_up'))).toBe(true);
  });
});

describe('isoString', () => {
  it('writes what Date#toISOString writes, faster', () => {
    const rng = new Prng(9);
    const samples = [0, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2000, 2, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), -1, 1.5, 8.64e15];
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor(rng.next() * Date.UTC(9999, 0, 1)));
    for (const ms of samples) expect(isoString(ms)).toBe(new Date(ms).toISOString());
  });
});
