// The live world: the seed plus every change made through the API (device assignments, drivers).
// Only the changes are persisted (WorldChanges); the seed is regenerated from (seed, devices) at start.
import { seedWorld, type SeedOrganizations } from './seed/world.js';
import { generateDrivers } from './seed/drivers.js';
import { TelemetryCache } from './seed/telemetry.js';
import { IndexedCollection } from './store/collection.js';
import { DeviceTable } from './store/device-table.js';
import { VehicleTable } from './store/vehicle-table.js';
import { WorldRefs } from './store/world-refs.js';
import { ignoreChange, type StateChangeSink } from './store/state-changes.js';
import type { DeviceRecord, DriverRecord, FleetRecord, OrganizationRecord, VehicleRecord } from './common/records.js';

export interface DeviceAssignment {
  vehicle_id: string | null;
  fleet_id: string;
  organization_id: string;
}

/** What the API changed, as saved in the state file. */
export interface WorldChanges {
  assignments: Record<string, DeviceAssignment>;
  /** Seeded drivers as last updated, by id. */
  updatedDrivers: Record<string, DriverRecord>;
  /** Drivers created through the API, in creation order, as last updated. */
  createdDrivers: DriverRecord[];
}

export const emptyWorldChanges = (): WorldChanges => ({ assignments: {}, updatedDrivers: {}, createdDrivers: [] });

const byOrgAndFleet = {
  org: (r: { organization_id: string }) => r.organization_id,
  fleet: (r: { fleet_id: string }) => r.fleet_id,
};

export class WorldStore {
  /** The seeded organizations by role, when the world was seeded (null for a scenario with base empty). */
  orgs: SeedOrganizations | null = null;
  readonly organizations = new Map<string, OrganizationRecord>();
  readonly fleets = new IndexedCollection<FleetRecord>({ org: (f) => f.organization_id });
  readonly refs = new WorldRefs(this.fleets);
  readonly vehicles = new VehicleTable(this.refs);
  /** Indexed by org, fleet and seedFleet (where the world put the device: events and journeys are attributed there). */
  readonly devices = new DeviceTable(this.refs, this.vehicles);
  readonly drivers = new IndexedCollection<DriverRecord>(byOrgAndFleet);
  readonly telemetry: TelemetryCache;
  private changes: WorldChanges = emptyWorldChanges();
  /** Told of each change made through the API, as the state file keeps it (in its world member). */
  onChange: StateChangeSink = ignoreChange;
  /** Drivers the world was built with (seeded or from a scenario); later ones were created through the API. */
  private builtDriverCount = 0;

  /** An empty world; `anchorMs` is its "now" (start-up time): last reports and telemetry are recent to it. */
  constructor(readonly seed: number, readonly anchorMs: number) {
    this.telemetry = new TelemetryCache(seed, anchorMs);
  }

  /** The world of `seed` with `deviceCount` devices, as every version has made it. */
  static seeded(seed: number, deviceCount: number, anchorMs: number, changes?: WorldChanges): WorldStore {
    const world = new WorldStore(seed, anchorMs);
    world.addSeed(deviceCount);
    world.finishBuilding(changes);
    return world;
  }

  /** Adds the seeded organizations, fleets, vehicles, devices and drivers. */
  addSeed(deviceCount: number): void {
    this.orgs = seedWorld(this, this.seed, deviceCount, this.anchorMs);
    for (const org of this.orgs.all) this.organizations.set(org.id, org);
    for (const d of generateDrivers(this.seed, this.fleets.items)) this.drivers.add(d);
  }

  addOrganization(org: OrganizationRecord): void {
    this.organizations.set(org.id, org);
    this.refs.addOrganization(org);
  }

  /** What the world was built with is its own; changes made through the API are recorded (and applied) from here. */
  finishBuilding(changes?: WorldChanges): void {
    this.builtDriverCount = this.drivers.size;
    if (changes) this.applyChanges(changes);
  }

  deviceByHardwareId(hardwareId: string): DeviceRecord | undefined {
    const row = this.devices.rowOfHardwareId(hardwareId);
    return row < 0 ? undefined : this.devices.at(row);
  }

  /** The device the seed installed in a vehicle (telemetry of that vehicle comes from it). */
  deviceBySeedVehicle(vehicleId: string): DeviceRecord | undefined {
    const vehicle = this.vehicles.rowOf(vehicleId);
    const row = vehicle < 0 ? -1 : this.devices.rowOfSeedVehicle(vehicle);
    return row < 0 ? undefined : this.devices.at(row);
  }

  /** spec: a device is assigned only to a vehicle within the caller's tenant; it then belongs where the vehicle does. */
  assignDevice(device: DeviceRecord, vehicle: VehicleRecord | null): void {
    const next: DeviceAssignment = vehicle
      ? { vehicle_id: vehicle.id, fleet_id: vehicle.fleet_id, organization_id: vehicle.organization_id }
      : { vehicle_id: null, fleet_id: device.fleet_id, organization_id: device.organization_id };
    this.placeDevice(device.seq, next);
    this.changes.assignments[device.id] = next;
    this.onChange({ path: ['world', 'assignments', device.id], value: next });
  }

  addDriver(driver: DriverRecord): void {
    this.drivers.add(driver);
    this.changes.createdDrivers.push(driver);
    this.onChange({ path: ['world', 'createdDrivers', this.changes.createdDrivers.length - 1], value: driver });
  }

  updateDriver(driver: DriverRecord, patch: Partial<DriverRecord>): void {
    this.drivers.update(driver, (d) => Object.assign(d, patch));
    if (driver.seq < this.builtDriverCount) {
      this.changes.updatedDrivers[driver.id] = driver;
      this.onChange({ path: ['world', 'updatedDrivers', driver.id], value: driver });
      return;
    }
    // created drivers are the same objects as in changes.createdDrivers: already up to date there
    const index = this.changes.createdDrivers.indexOf(driver);
    if (index >= 0) this.onChange({ path: ['world', 'createdDrivers', index], value: driver });
  }

  getChanges(): WorldChanges {
    return this.changes;
  }

  private placeDevice(row: number, to: DeviceAssignment): void {
    const vehicle = to.vehicle_id === null ? -1 : this.vehicles.rowOf(to.vehicle_id);
    const fleet = this.fleets.get(to.fleet_id);
    if (!fleet || (to.vehicle_id !== null && vehicle < 0)) throw new Error(`assignment to unknown fleet ${to.fleet_id} or vehicle ${to.vehicle_id}`);
    this.devices.place(row, { org: this.refs.orgIndex(to.organization_id), fleet: fleet.seq, vehicle });
  }

  private applyChanges(changes: WorldChanges): void {
    for (const [id, assignment] of Object.entries(changes.assignments)) {
      const row = this.devices.ids.find(id);
      if (row >= 0) this.placeDevice(row, assignment);
    }
    for (const driver of Object.values(changes.updatedDrivers)) {
      const current = this.drivers.get(driver.id);
      if (current && current.seq < this.builtDriverCount) {
        this.drivers.update(current, (d) => Object.assign(d, driver, { seq: current.seq }));
      }
    }
    for (const driver of changes.createdDrivers) {
      const record = { ...driver, seq: this.drivers.size };
      this.drivers.add(record);
      this.changes.createdDrivers.push(record);
    }
    for (const [id, a] of Object.entries(changes.assignments)) this.changes.assignments[id] = a;
    for (const id of Object.keys(changes.updatedDrivers)) {
      const current = this.drivers.get(id);
      if (current) this.changes.updatedDrivers[id] = current;
    }
  }
}
