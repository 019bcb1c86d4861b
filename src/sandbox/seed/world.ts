// The seeded world: organizations, fleets, vehicles and devices, deterministic for (seed, device count).
// Built with one sequential generator per kind and no per-item hashing, so 100,000 devices take well
// under a second. Telemetry (events, media, journeys) is derived lazily per device in telemetry.ts.
import { Prng, prngFor } from './prng.js';
import {
  DEVICE_MODELS, FIRMWARE_VERSIONS, FLEET_KINDS, LETTERS, ORGANIZATION_NAMES, VEHICLE_MODELS, VIN_ALPHABET,
} from './catalog.js';
import type { Capability, DeviceRecord, FleetRecord, OrganizationRecord, VehicleRecord } from '../store/records.js';

export interface SeedOrganizations {
  root: OrganizationRecord;
  north: OrganizationRecord;
  south: OrganizationRecord;
  northDepot: OrganizationRecord;
  unrelated: OrganizationRecord;
  all: OrganizationRecord[];
}

export interface SeedWorld {
  organizations: SeedOrganizations;
  fleets: FleetRecord[];
  vehicles: VehicleRecord[];
  devices: DeviceRecord[];
}

// Share of the devices each organization gets, in SeedOrganizations order (root, north, south,
// northDepot, unrelated).
const DEVICE_SHARE = [0.3, 0.25, 0.2, 0.1, 0.15];
const DEVICES_PER_FLEET = 100;
const SEED_EPOCH_MS = Date.UTC(2024, 0, 1);

// Device traits follow the hardware number, so every world of 13+ devices has each kind of device and
// docs can name examples: HW-000004 lacks wake_up, HW-000008 lacks reboot, HW-000006 never reported,
// HW-000005 has no live position, HW-000009 is unassigned.
const REBOOT_ONLY: Capability[] = ['reboot'];
const WAKE_UP_ONLY: Capability[] = ['wake_up'];
const BOTH: Capability[] = ['reboot', 'wake_up'];
// (the arrays are shared between devices and never mutated)
export const deviceTraits = (index: number) => ({
  capabilities: index % 10 === 3 ? REBOOT_ONLY : index % 10 === 7 ? WAKE_UP_ONLY : BOTH,
  neverReported: index % 13 === 5,
  noLivePosition: index % 11 === 4,
  unassigned: index % 9 === 8,
});

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

/** `anchorMs` is the world's "now" (start-up time): last reports and telemetry are recent to it. */
export function generateWorld(seed: number, deviceCount: number, anchorMs: number): SeedWorld {
  const organizations = seedOrganizations(seed);
  const fleets = generateFleets(seed, organizations.all, deviceCount);
  const fleetsByOrg = organizations.all.map((org) => fleets.filter((f) => f.organization_id === org.id));
  const vehicles: VehicleRecord[] = [];
  const devices: DeviceRecord[] = [];
  const rng = prngFor(seed, 'devices');
  const vehicleRng = prngFor(seed, 'vehicles');
  for (let i = 0; i < deviceCount; i++) {
    const orgIndex = pickWeighted(rng, DEVICE_SHARE);
    const fleet = rng.pick(fleetsByOrg[orgIndex]!);
    const traits = deviceTraits(i);
    const vehicle = traits.unassigned ? null : makeVehicle(vehicleRng, vehicles.length, fleet);
    if (vehicle) vehicles.push(vehicle);
    const hardwareId = `HW-${String(i + 1).padStart(6, '0')}`;
    devices.push({
      seq: i,
      id: rng.uuid(),
      hardware_id: hardwareId,
      organization_id: fleet.organization_id,
      fleet_id: fleet.id,
      vehicle_id: vehicle ? vehicle.id : null,
      name: vehicle ? `${vehicle.name} unit` : `Spare unit ${hardwareId}`,
      model: rng.pick(DEVICE_MODELS),
      firmware_version: rng.pick(FIRMWARE_VERSIONS),
      capabilities: traits.capabilities,
      last_seen_at: lastSeenAt(rng, anchorMs, traits.neverReported),
      created_at: new Date(SEED_EPOCH_MS + i * 7 * 60_000).toISOString(),
      seedOrganizationId: fleet.organization_id,
      seedFleetId: fleet.id,
      seedVehicleId: vehicle ? vehicle.id : null,
      hasLivePosition: !traits.noLivePosition,
    });
  }
  // one spare vehicle per fleet, so there is always a free vehicle to assign a device to
  for (const fleet of fleets) vehicles.push(makeVehicle(vehicleRng, vehicles.length, fleet));
  const fleetById = new Map(fleets.map((f) => [f.id, f]));
  for (const vehicle of vehicles) fleetById.get(vehicle.fleet_id)!.vehicle_count++;
  return { organizations, fleets, vehicles, devices };
}

function lastSeenAt(rng: Prng, anchorMs: number, neverReported: boolean): string | null {
  // drawn for every device so the stream stays aligned whatever the traits
  const minutes = rng.int(2, 2880);
  return neverReported ? null : new Date(anchorMs - minutes * 60_000).toISOString();
}

function generateFleets(seed: number, orgs: OrganizationRecord[], deviceCount: number): FleetRecord[] {
  const rng = prngFor(seed, 'fleets');
  const fleets: FleetRecord[] = [];
  orgs.forEach((org, orgIndex) => {
    const expected = deviceCount * DEVICE_SHARE[orgIndex]!;
    const count = Math.max(2, Math.ceil(expected / DEVICES_PER_FLEET));
    for (let n = 0; n < count; n++) {
      const seq = fleets.length;
      fleets.push({
        seq,
        id: rng.uuid(),
        organization_id: org.id,
        name: `${org.name.replace(/^Acme Logistics ?/, '') || 'HQ'} ${FLEET_KINDS[n % FLEET_KINDS.length]} ${Math.floor(n / FLEET_KINDS.length) + 1}`.trim(),
        vehicle_count: 0,
        created_at: new Date(SEED_EPOCH_MS - (400 - (seq % 365)) * 86_400_000).toISOString(),
      });
    }
  });
  return fleets;
}

function makeVehicle(rng: Prng, seq: number, fleet: FleetRecord): VehicleRecord {
  const spec = rng.pick(VEHICLE_MODELS);
  return {
    seq,
    id: rng.uuid(),
    organization_id: fleet.organization_id,
    fleet_id: fleet.id,
    name: `${spec.kind} ${String(seq + 1).padStart(4, '0')}`,
    vin: rng.chars(VIN_ALPHABET, 17),
    license_plate: `${rng.chars(LETTERS, 3)}-${rng.int(1000, 9999)}`,
    make: spec.make,
    model: spec.model,
    year: rng.int(2015, 2024),
  };
}

function pickWeighted(rng: Prng, weights: readonly number[]): number {
  let r = rng.next();
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r < 0) return i;
  }
  return weights.length - 1;
}
