// Devices as columns, so a world of 1,000,000 devices starts in seconds and in well under 2 GB: the uuid as
// words, organization, fleet and vehicle as numbers, model, firmware and capabilities as small codes, times as
// epoch milliseconds. Hardware ids and names follow from the row unless a scenario named them. A row becomes
// a DeviceRecord (a fresh object) only when a request needs it; changes go through the table.
import { DEVICE_MODELS, FIRMWARE_VERSIONS } from '../common/catalog.js';
import { parseUuid } from '../common/prng.js';
import { isoString } from '../common/iso-time.js';
import { ColumnTable } from './column-table.js';
import type { Capability, DeviceRecord } from '../common/records.js';
import type { VehicleTable } from './vehicle-table.js';
import type { WorldRefs } from './world-refs.js';

const CAPABILITY_SETS: readonly Capability[][] = [[], ['reboot'], ['wake_up'], ['reboot', 'wake_up']];
export const capabilityCode = (caps: readonly Capability[]): number => (caps.includes('reboot') ? 1 : 0) | (caps.includes('wake_up') ? 2 : 0);

/** Where a device sits: organization (index), fleet (seq) and vehicle (row, or -1). */
export interface Placement {
  org: number;
  fleet: number;
  vehicle: number;
}

export interface DeviceInit {
  /** The uuid's four words, or its text. */
  id: Uint32Array | string;
  placement: Placement;
  model: number;
  firmware: number;
  capabilities: number;
  /** NaN: never reported. */
  lastSeenMs: number;
  createdMs: number;
  hasLivePosition: boolean;
  hardwareId?: string;
  name?: string;
}

export const defaultHardwareId = (row: number): string => `HW-${String(row + 1).padStart(6, '0')}`;

const deviceColumns = () => ({
  org: new Int32Array(0),
  fleet: new Int32Array(0),
  vehicle: new Int32Array(0),
  seedOrg: new Int32Array(0),
  seedFleet: new Int32Array(0),
  seedVehicle: new Int32Array(0),
  model: new Uint8Array(0),
  firmware: new Uint8Array(0),
  caps: new Uint8Array(0),
  live: new Uint8Array(0),
  lastSeen: new Float64Array(0),
  seedLastSeen: new Float64Array(0),
  created: new Float64Array(0),
});

export class DeviceTable extends ColumnTable<DeviceRecord, ReturnType<typeof deviceColumns>> {
  private readonly hardwareIds = new Map<number, string>();
  private readonly rowsByHardwareId = new Map<string, number>();
  private readonly names = new Map<number, string>();
  private readonly positions = new Map<number, { latitude: number; longitude: number }>();

  constructor(refs: WorldRefs, private readonly vehicles: VehicleTable) {
    super(refs, deviceColumns());
  }

  /** Adds a device where `placement` says; that is also where the world put it (its telemetry stays there). */
  append(init: DeviceInit): number {
    const row = this.count;
    // a named device must not take an existing id, nor a later default one that of a named device
    const taken = init.hardwareId !== undefined
      ? this.rowOfHardwareId(init.hardwareId) >= 0
      : this.rowsByHardwareId.size > 0 && this.rowsByHardwareId.has(defaultHardwareId(row));
    if (taken) throw new Error(`duplicate hardware id ${init.hardwareId ?? defaultHardwareId(row)}`);
    this.roomFor(row);
    if (typeof init.id !== 'string') this.ids.words.set(init.id, row * 4);
    else if (!parseUuid(init.id, this.ids.words, row * 4)) throw new Error(`device id ${init.id} is not a uuid`);
    if (this.ids.index(row) >= 0) throw new Error(`duplicate device id: ${this.ids.text(row)} is another device's id`);
    this.count++;
    const { org, fleet, vehicle } = init.placement;
    this.columns.org[row] = this.columns.seedOrg[row] = org;
    this.columns.fleet[row] = this.columns.seedFleet[row] = fleet;
    this.columns.vehicle[row] = this.columns.seedVehicle[row] = vehicle;
    this.columns.model[row] = init.model;
    this.columns.firmware[row] = init.firmware;
    this.columns.caps[row] = init.capabilities;
    this.columns.live[row] = init.hasLivePosition ? 1 : 0;
    this.columns.lastSeen[row] = this.columns.seedLastSeen[row] = init.lastSeenMs;
    this.columns.created[row] = init.createdMs;
    if (init.hardwareId !== undefined) {
      this.hardwareIds.set(row, init.hardwareId);
      this.rowsByHardwareId.set(init.hardwareId, row);
    }
    if (init.name !== undefined) this.names.set(row, init.name);
    if (vehicle >= 0 && this.vehicles.installedDevice(vehicle) < 0) this.vehicles.setInstalledDevice(vehicle, row);
    this.indexRow('org', org, row);
    this.indexRow('fleet', fleet, row);
    this.indexRow('seedFleet', fleet, row);
    return row;
  }

  /** Moves a device (assignment); its telemetry stays where the world put it. */
  place(row: number, next: Placement): void {
    this.moveRow('org', this.columns.org[row]!, next.org, row);
    this.moveRow('fleet', this.columns.fleet[row]!, next.fleet, row);
    this.columns.org[row] = next.org;
    this.columns.fleet[row] = next.fleet;
    this.columns.vehicle[row] = next.vehicle;
  }

  placement(row: number): Placement {
    return { org: this.columns.org[row]!, fleet: this.columns.fleet[row]!, vehicle: this.columns.vehicle[row]! };
  }

  /** Where the device is (a scenario's live_position): its telemetry stays around it. */
  fixPosition(row: number, at: { latitude: number; longitude: number }): void {
    this.positions.set(row, { latitude: at.latitude, longitude: at.longitude });
  }

  /** A new report from the device (live telemetry): last_seen_at moves forward, never back. */
  reported(row: number, atMs: number): void {
    if (!(this.columns.lastSeen[row]! >= atMs)) this.columns.lastSeen[row] = atMs;
  }

  lastSeenMs(row: number): number {
    return this.columns.lastSeen[row]!;
  }

  hardwareId(row: number): string {
    return this.hardwareIds.get(row) ?? defaultHardwareId(row);
  }

  /** The row of a hardware id, or -1. */
  rowOfHardwareId(hardwareId: string): number {
    const named = this.rowsByHardwareId.get(hardwareId);
    if (named !== undefined) return named;
    const m = /^HW-(\d{6,})$/.exec(hardwareId);
    if (!m) return -1;
    const row = Number(m[1]) - 1;
    return row >= 0 && row < this.count && !this.hardwareIds.has(row) && defaultHardwareId(row) === hardwareId ? row : -1;
  }

  /** The device the world installed in a vehicle, or -1. */
  rowOfSeedVehicle(vehicleRow: number): number {
    return this.vehicles.installedDevice(vehicleRow);
  }

  at(row: number): DeviceRecord {
    const hardwareId = this.hardwareId(row);
    const seedVehicle = this.columns.seedVehicle[row]!;
    const vehicle = this.columns.vehicle[row]!;
    const lastSeen = this.columns.lastSeen[row]!;
    const seedLastSeen = this.columns.seedLastSeen[row]!;
    return {
      seq: row,
      id: this.ids.text(row),
      hardware_id: hardwareId,
      organization_id: this.refs.orgId(this.columns.org[row]!),
      fleet_id: this.refs.fleetId(this.columns.fleet[row]!),
      vehicle_id: vehicle < 0 ? null : this.vehicles.ids.text(vehicle),
      name: this.names.get(row) ?? (seedVehicle < 0 ? `Spare unit ${hardwareId}` : `${this.vehicles.name(seedVehicle)} unit`),
      model: DEVICE_MODELS[this.columns.model[row]!]!,
      firmware_version: FIRMWARE_VERSIONS[this.columns.firmware[row]!]!,
      capabilities: CAPABILITY_SETS[this.columns.caps[row]!]!,
      last_seen_at: Number.isNaN(lastSeen) ? null : isoString(lastSeen),
      created_at: isoString(this.columns.created[row]!),
      seedOrganizationId: this.refs.orgId(this.columns.seedOrg[row]!),
      seedFleetId: this.refs.fleetId(this.columns.seedFleet[row]!),
      seedVehicleId: seedVehicle < 0 ? null : this.vehicles.ids.text(seedVehicle),
      seedLastSeenAt: Number.isNaN(seedLastSeen) ? null : isoString(seedLastSeen),
      hasLivePosition: this.columns.live[row] === 1,
      fixedPosition: this.positions.get(row) ?? null,
    };
  }
}
