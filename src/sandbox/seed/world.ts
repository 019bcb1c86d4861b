// The seeded world: organizations, fleets, vehicles and devices, deterministic for (seed, device count).
// Built with one sequential generator per kind and no per-item hashing, so 100,000 devices take well
// under a second. Telemetry (events, media, journeys) is derived lazily per device in telemetry.ts.
import { Prng, prngFor } from '../common/prng.js';
import { DEVICE_MODELS, FIRMWARE_VERSIONS, FLEET_KINDS, ORGANIZATION_NAMES } from '../common/catalog.js';
import { capabilityCode, type DeviceInit, type DeviceTable } from '../store/device-table.js';
import type { IndexedCollection } from '../store/collection.js';
import type { VehicleTable } from '../store/vehicle-table.js';
import type { WorldRefs } from '../store/world-refs.js';
import type { FleetRecord, OrganizationRecord } from '../common/records.js';

export interface SeedOrganizations {
  root: OrganizationRecord;
  north: OrganizationRecord;
  south: OrganizationRecord;
  northDepot: OrganizationRecord;
  unrelated: OrganizationRecord;
  all: OrganizationRecord[];
}

// Share of the devices each organization gets, in SeedOrganizations order (root, north, south,
// northDepot, unrelated).
const DEVICE_SHARE = [0.3, 0.25, 0.2, 0.1, 0.15];
const DEVICES_PER_FLEET = 100;
export const SEED_EPOCH_MS = Date.UTC(2024, 0, 1);

// Device traits follow the hardware number (device i is HW-(i+1)), so every world of 13+ devices has each kind
// of device and docs can name examples: HW-000004 lacks wake_up (i % 10 = 3), HW-000008 lacks reboot
// (i % 10 = 7), HW-000006 never reported (i % 13 = 5), HW-000005 has no live position (i % 11 = 4),
// HW-000009 is unassigned (i % 9 = 8).
const BOTH = capabilityCode(['reboot', 'wake_up']);
const REBOOT_ONLY = capabilityCode(['reboot']);
const WAKE_UP_ONLY = capabilityCode(['wake_up']);

export function seedOrganizations(seed: number): SeedOrganizations {
  const rng = prngFor(seed, 'organizations');
  const make = (name: string, parent: OrganizationRecord | null): OrganizationRecord => ({
    id: rng.uuid(),
    name,
    parent_id: parent ? parent.id : null,
  });
  const root = make(ORGANIZATION_NAMES.root, null);
  const north = make(ORGANIZATION_NAMES.north, root);
  const south = make(ORGANIZATION_NAMES.south, root);
  const northDepot = make(ORGANIZATION_NAMES.northDepot, north);
  const unrelated = make(ORGANIZATION_NAMES.unrelated, null);
  return { root, north, south, northDepot, unrelated, all: [root, north, south, northDepot, unrelated] };
}

/** The tables a world is built into (world-store.ts owns them). */
export interface WorldTables {
  refs: WorldRefs;
  fleets: IndexedCollection<FleetRecord>;
  vehicles: VehicleTable;
  devices: DeviceTable;
}

/**
 * Fills the tables with the seeded world; `anchorMs` is its "now" (start-up time): last reports and telemetry
 * are recent to it. The draws and their order are those of every earlier version: a seed keeps its world.
 */
export function seedWorld(tables: WorldTables, seed: number, deviceCount: number, anchorMs: number): SeedOrganizations {
  const organizations = seedOrganizations(seed);
  const orgIndexes = organizations.all.map((org) => tables.refs.addOrganization(org));
  const fleets = generateFleets(seed, organizations.all, deviceCount, tables.fleets.size);
  for (const fleet of fleets) tables.fleets.add(fleet);
  const fleetsByOrg = organizations.all.map((org) => fleets.filter((f) => f.organization_id === org.id).map((f) => f.seq));
  const rng = prngFor(seed, 'devices');
  const vehicleRng = prngFor(seed, 'vehicles');
  const id = new Uint32Array(4);
  const firstVehicle = tables.vehicles.size;
  tables.devices.reserve(tables.devices.size + deviceCount);
  tables.vehicles.reserve(firstVehicle + deviceCount + fleets.length);
  // one object for every device (the table copies what it keeps): a million devices, no garbage
  const init: DeviceInit = { id, placement: { org: 0, fleet: 0, vehicle: -1 }, model: 0, firmware: 0, capabilities: 0, lastSeenMs: 0, createdMs: 0, hasLivePosition: true };
  for (let i = 0; i < deviceCount; i++) {
    const orgIndex = pickWeighted(rng, DEVICE_SHARE);
    const fleet = rng.pick(fleetsByOrg[orgIndex]!);
    init.placement.vehicle = i % 9 === 8 ? -1 : tables.vehicles.appendRandom(vehicleRng, fleet);
    init.placement.org = orgIndexes[orgIndex]!;
    init.placement.fleet = fleet;
    rng.uuidWords(id, 0);
    init.model = Math.floor(rng.next() * DEVICE_MODELS.length);
    init.firmware = Math.floor(rng.next() * FIRMWARE_VERSIONS.length);
    init.capabilities = i % 10 === 3 ? REBOOT_ONLY : i % 10 === 7 ? WAKE_UP_ONLY : BOTH;
    init.lastSeenMs = lastSeenMs(rng, anchorMs, i % 13 === 5);
    init.createdMs = SEED_EPOCH_MS + i * 7 * 60_000;
    init.hasLivePosition = i % 11 !== 4;
    tables.devices.append(init);
  }
  // one spare vehicle per fleet, so there is always a free vehicle to assign a device to
  for (const fleet of fleets) tables.vehicles.appendRandom(vehicleRng, fleet.seq);
  countVehicles(tables, firstVehicle);
  return organizations;
}

/** Adds the vehicles from row `from` on to their fleets' vehicle_count. */
export function countVehicles(tables: WorldTables, from: number): void {
  for (let row = from; row < tables.vehicles.size; row++) tables.fleets.items[tables.vehicles.fleetSeq(row)]!.vehicle_count++;
}

function lastSeenMs(rng: Prng, anchorMs: number, neverReported: boolean): number {
  // drawn for every device so the stream stays aligned whatever the traits
  const minutes = rng.int(2, 2880);
  return neverReported ? Number.NaN : anchorMs - minutes * 60_000;
}

function generateFleets(seed: number, orgs: OrganizationRecord[], deviceCount: number, firstSeq: number): FleetRecord[] {
  const rng = prngFor(seed, 'fleets');
  const fleets: FleetRecord[] = [];
  orgs.forEach((org, orgIndex) => {
    const expected = deviceCount * DEVICE_SHARE[orgIndex]!;
    const count = Math.max(2, Math.ceil(expected / DEVICES_PER_FLEET));
    for (let n = 0; n < count; n++) {
      const seq = firstSeq + fleets.length;
      fleets.push({
        seq,
        id: rng.uuid(),
        organization_id: org.id,
        name: `${org.name.replace(/^Acme Logistics ?/, '') || 'HQ'} ${FLEET_KINDS[n % FLEET_KINDS.length]} ${Math.floor(n / FLEET_KINDS.length) + 1}`.trim(),
        vehicle_count: 0,
        created_at: new Date(SEED_EPOCH_MS - (400 - ((seq - firstSeq) % 365)) * 86_400_000).toISOString(),
      });
    }
  });
  return fleets;
}

function pickWeighted(rng: Prng, weights: readonly number[]): number {
  let r = rng.next();
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r < 0) return i;
  }
  return weights.length - 1;
}
