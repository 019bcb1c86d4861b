// Builds the world of a scenario: the seeded world first (base seed), then the scenario's organizations,
// fleets, vehicles, devices and drivers, in document order, with ids drawn from the seed (so the same
// scenario and seed always give the same world, which is what lets a state file record only changes).
// Mistakes the schema cannot see are ScenarioErrors naming the member.
import { prngFor, type Prng } from '../common/prng.js';
import { DEVICE_MODELS, FIRMWARE_VERSIONS } from '../common/catalog.js';
import { SEED_EPOCH_MS, countVehicles } from '../seed/world.js';
import { capabilityCode } from '../store/device-table.js';
import { WorldStore, type WorldChanges } from '../world-store.js';
import type { Capability, FleetRecord } from '../common/records.js';
import { ScenarioError, fail, type Scenario, type ScenarioDevices } from './scenario.js';
import { scenarioClients, scenarioWebhooks, type WebhookSeed } from './access.js';
import type { SandboxClient } from '../auth/clients.js';

export interface WorldParams {
  seed: number;
  /** Devices of the seeded world (base seed). */
  devices: number;
  anchorMs: number;
  scenario: Scenario | null;
  /** Changes made through the API, from a state file. */
  changes?: WorldChanges;
  allowPrivateWebhooks: boolean;
}

export interface BuiltWorld {
  world: WorldStore;
  clients: SandboxClient[];
  /** Webhook configurations the scenario starts with. */
  webhooks: WebhookSeed[];
}

/** At most this many devices (and vehicles) from one scenario: a world of millions starts from --devices. */
export const MAX_SCENARIO_DEVICES = 1_000_000;
const BOTH: Capability[] = ['reboot', 'wake_up'];
const SEEDED_ORGANIZATION_KEYS = { root: 'root', north: 'north', south: 'south', 'north-depot': 'northDepot', unrelated: 'unrelated' } as const;
const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function buildWorld(p: WorldParams): BuiltWorld {
  const world = new WorldStore(p.seed, p.anchorMs);
  const scenario = p.scenario ?? {};
  if ((scenario.base ?? 'seed') === 'seed') world.addSeed(p.devices);
  const refs = new ScenarioRefs(world);
  if (p.scenario) new WorldBuilder(world, refs, p.scenario, prngFor(p.seed, 'scenario'), p.anchorMs).build();
  world.finishBuilding(p.changes);
  return {
    world,
    clients: scenarioClients(scenario, world, refs, p.seed),
    webhooks: scenarioWebhooks(scenario, refs, p.allowPrivateWebhooks),
  };
}

/** What a scenario key names: an organization by its id, a fleet, a vehicle by its row. */
type Named = { organization: string; fleet: FleetRecord; vehicle: number };

/** Scenario keys (and seeded ids) to the organizations, fleets and vehicles they name. */
export class ScenarioRefs {
  private readonly names = { organization: new Map<string, string>(), fleet: new Map<string, FleetRecord>(), vehicle: new Map<string, number>() };

  constructor(private readonly world: WorldStore) {
    const seeded = world.orgs;
    if (seeded) for (const [key, role] of Object.entries(SEEDED_ORGANIZATION_KEYS)) this.names.organization.set(key, seeded[role].id);
  }

  /** A key names one thing of its kind only. */
  define<K extends keyof Named>(kind: K, key: string, value: Named[K], member: string): void {
    const names = this.names[kind] as Map<string, Named[K]>;
    if (names.has(key)) fail(member, `${key} names another ${kind} already`);
    names.set(key, value);
  }

  organization(ref: string, member: string): string {
    const id = this.names.organization.get(ref) ?? (this.world.organizations.has(ref.toLowerCase()) ? ref.toLowerCase() : undefined);
    return id ?? fail(member, `no organization ${ref} (define it under organizations, before it is used)`);
  }

  fleet(ref: string, member: string): FleetRecord {
    return this.names.fleet.get(ref) ?? this.world.fleets.get(ref.toLowerCase()) ?? fail(member, `no fleet ${ref} (define it under fleets)`);
  }

  vehicle(ref: string, member: string): number {
    const row = this.names.vehicle.get(ref) ?? this.world.vehicles.rowOf(ref);
    return row >= 0 ? row : fail(member, `no vehicle ${ref} (define it under vehicles, before the devices)`);
  }
}

class WorldBuilder {
  constructor(
    private readonly world: WorldStore,
    private readonly refs: ScenarioRefs,
    private readonly scenario: Scenario,
    private readonly rng: Prng,
    private readonly anchorMs: number,
  ) {}

  build(): void {
    const { world, refs, rng } = this;
    const firstVehicle = world.vehicles.size;
    (this.scenario.organizations ?? []).forEach((o, i) => {
      const member = `organizations[${i}]`;
      const id = o.id?.toLowerCase() ?? rng.uuid();
      if (world.organizations.has(id)) fail(`${member}.id`, `${id} is another organization's id`);
      const parent = o.parent == null ? null : refs.organization(o.parent, `${member}.parent`);
      refs.define('organization', o.key, id, `${member}.key`);
      world.addOrganization({ id, name: o.name, parent_id: parent });
    });
    (this.scenario.fleets ?? []).forEach((f, i) => {
      const member = `fleets[${i}]`;
      const id = f.id?.toLowerCase() ?? rng.uuid();
      if (world.fleets.get(id)) fail(`${member}.id`, `${id} is another fleet's id`);
      const fleet: FleetRecord = {
        seq: world.fleets.size, id, organization_id: refs.organization(f.organization, `${member}.organization`), name: f.name, vehicle_count: 0,
        created_at: new Date(this.anchorMs).toISOString(),
      };
      refs.define('fleet', f.key, fleet, `${member}.key`);
      world.fleets.add(fleet);
    });
    this.addVehicles();
    this.addDevices();
    countVehicles(world, firstVehicle);
    this.addDrivers();
  }

  private addVehicles(): void {
    (this.scenario.vehicles ?? []).forEach((v, i) => {
      const member = `vehicles[${i}]`;
      const count = v.count ?? 1;
      if (count > 1) for (const single of ['key', 'name', 'id'] as const) if (v[single] !== undefined) fail(`${member}.${single}`, 'names a single vehicle: leave it out, or leave count out');
      if (this.world.vehicles.size + count > MAX_SCENARIO_DEVICES * 2) fail(`${member}.count`, `would make more than ${MAX_SCENARIO_DEVICES * 2} vehicles`);
      const fleet = this.refs.fleet(v.fleet, `${member}.fleet`);
      for (let n = 0; n < count; n++) {
        const row = this.attempt(`${member}.id`, () => this.world.vehicles.appendRandom(this.rng, fleet.seq, v.name, v.id));
        if (v.key !== undefined) this.refs.define('vehicle', v.key, row, `${member}.key`);
      }
    });
  }

  private addDevices(): void {
    let made = 0;
    (this.scenario.devices ?? []).forEach((d, i) => {
      const member = `devices[${i}]`;
      const count = d.count ?? 1;
      if (count > 1) for (const single of ['hardware_id', 'name', 'id'] as const) if (d[single] !== undefined) fail(`${member}.${single}`, 'names a single device: leave it out, or leave count out');
      if ((made += count) > MAX_SCENARIO_DEVICES) fail(`${member}.count`, `would make more than ${MAX_SCENARIO_DEVICES} devices in all; start with --devices for larger worlds`);
      const fleet = this.refs.fleet(d.fleet, `${member}.fleet`);
      const lastSeen = this.lastSeenOf(d, `${member}.last_seen_at`);
      for (let n = 0; n < count; n++) this.addDevice(d, fleet, member, lastSeen);
    });
  }

  private addDevice(d: ScenarioDevices, fleet: FleetRecord, member: string, lastSeen: number | null): void {
    const { world, rng } = this;
    const vehicle = this.vehicleFor(d, fleet, member);
    const id = d.id ?? new Uint32Array(4);
    if (typeof id !== 'string') rng.uuidWords(id, 0);
    const model = Math.floor(rng.next() * DEVICE_MODELS.length);
    const firmware = Math.floor(rng.next() * FIRMWARE_VERSIONS.length);
    // drawn for every device, so a device's telemetry does not depend on its neighbours' settings
    const minutesAgo = rng.int(2, 2880);
    const row = this.attempt(d.hardware_id !== undefined ? `${member}.hardware_id` : `${member}.id`, () =>
      world.devices.append({
        id,
        placement: { org: world.refs.orgIndex(fleet.organization_id), fleet: fleet.seq, vehicle },
        model,
        firmware,
        capabilities: capabilityCode(d.capabilities ?? BOTH),
        lastSeenMs: lastSeen === null ? this.anchorMs - minutesAgo * 60_000 : lastSeen,
        createdMs: SEED_EPOCH_MS + world.devices.size * 7 * 60_000,
        hasLivePosition: d.live_position !== false,
        hardwareId: d.hardware_id,
        name: d.name,
      }),
    );
    if (typeof d.live_position === 'object') world.devices.fixPosition(row, d.live_position);
  }

  private vehicleFor(d: ScenarioDevices, fleet: FleetRecord, member: string): number {
    const { world } = this;
    if (d.vehicle === null) return -1;
    if (d.vehicle === undefined || d.vehicle === 'new') return world.vehicles.appendRandom(this.rng, fleet.seq);
    const row = this.refs.vehicle(d.vehicle, `${member}.vehicle`);
    if (world.vehicles.fleetSeq(row) !== fleet.seq) fail(`${member}.vehicle`, `${d.vehicle} is a vehicle of another fleet`);
    const installed = world.devices.rowOfSeedVehicle(row);
    if (installed >= 0) fail(`${member}.vehicle`, `${d.vehicle} already holds ${world.devices.hardwareId(installed)}`);
    return row;
  }

  /** NaN (never reported), epoch ms, or null for the default (some time in the last two days). */
  private lastSeenOf(d: ScenarioDevices, member: string): number | null {
    const value = d.last_seen_at;
    if (value === undefined) return null;
    if (value === null) return Number.NaN;
    const duration = DURATION.exec(value);
    if (duration) return this.anchorMs - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
    const ms = Date.parse(value);
    // the start-up minute is the world's "now": a report after it has not happened yet
    if (ms > this.anchorMs + 60_000) fail(member, `${value} is in the future`);
    return ms;
  }

  private addDrivers(): void {
    const at = new Date(this.anchorMs).toISOString();
    (this.scenario.drivers ?? []).forEach((d, i) => {
      const member = `drivers[${i}]`;
      const fleet = this.refs.fleet(d.fleet, `${member}.fleet`);
      const id = d.id?.toLowerCase() ?? this.rng.uuid();
      if (this.world.drivers.get(id)) fail(`${member}.id`, `${id} is another driver's id`);
      this.world.drivers.add({
        seq: this.world.drivers.size, id, organization_id: fleet.organization_id, fleet_id: fleet.id, first_name: d.first_name,
        last_name: d.last_name, email: d.email ?? null, phone: d.phone ?? null, license_number: d.license_number ?? null,
        employee_id: d.employee_id ?? null, status: d.status ?? 'active', created_at: at, updated_at: at,
      });
    });
  }

  /** Runs a table operation, turning its refusal (a duplicate id) into a mistake at `member`. */
  private attempt<T>(member: string, action: () => T): T {
    try {
      return action();
    } catch (err) {
      if (err instanceof ScenarioError) throw err;
      return fail(member, (err as Error).message);
    }
  }
}
