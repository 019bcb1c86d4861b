// Vehicles as columns (a 1,000,000-device world has about 900,000 vehicles): the uuid as words, organization
// and fleet as numbers, the make/model as an index into the catalog, the VIN and plate as letter indexes.
// A row becomes a VehicleRecord only when it is shown. Vehicles never change fleet (the API cannot move them).
import { LETTERS, VEHICLE_MODELS, VIN_ALPHABET } from '../common/catalog.js';
import { parseUuid, type Prng } from '../common/prng.js';
import { ColumnTable } from './column-table.js';
import type { VehicleRecord } from '../common/records.js';
import type { WorldRefs } from './world-refs.js';

const VIN_LENGTH = 17;

const vehicleColumns = () => ({
  org: new Int32Array(0),
  fleet: new Int32Array(0),
  spec: new Uint8Array(0),
  vin: new Uint8Array(0),
  plateLetters: new Uint8Array(0),
  plateNumber: new Uint16Array(0),
  year: new Uint16Array(0),
  /** The device the world put in the vehicle (its telemetry is the vehicle's), or -1. */
  installed: new Int32Array(0),
});

export class VehicleTable extends ColumnTable<VehicleRecord, ReturnType<typeof vehicleColumns>> {
  private readonly names = new Map<number, string>();

  constructor(refs: WorldRefs) {
    super(refs, vehicleColumns(), { vin: VIN_LENGTH, plateLetters: 3 });
  }

  /** A vehicle of the catalog in a fleet, drawn from `rng` (the draws the seed has always made, in order). */
  appendRandom(rng: Prng, fleetSeq: number, name?: string, id?: string): number {
    const row = this.count;
    this.roomFor(row);
    const spec = Math.floor(rng.next() * VEHICLE_MODELS.length);
    if (id === undefined) rng.uuidWords(this.ids.words, row * 4);
    else if (!parseUuid(id, this.ids.words, row * 4)) throw new Error(`vehicle id ${id} is not a uuid`);
    if (this.ids.index(row) >= 0) throw new Error(`${this.ids.text(row)} is another vehicle's id`);
    this.count++;
    for (let i = 0; i < VIN_LENGTH; i++) this.columns.vin[row * VIN_LENGTH + i] = Math.floor(rng.next() * VIN_ALPHABET.length);
    for (let i = 0; i < 3; i++) this.columns.plateLetters[row * 3 + i] = Math.floor(rng.next() * LETTERS.length);
    this.columns.plateNumber[row] = rng.int(1000, 9999);
    this.columns.year[row] = rng.int(2015, 2024);
    this.columns.spec[row] = spec;
    this.columns.fleet[row] = fleetSeq;
    this.columns.org[row] = this.refs.fleetOrgIndex(fleetSeq);
    this.columns.installed[row] = -1;
    if (name !== undefined) this.names.set(row, name);
    this.indexRow('org', this.columns.org[row]!, row);
    this.indexRow('fleet', fleetSeq, row);
    return row;
  }

  setInstalledDevice(row: number, deviceSeq: number): void {
    this.columns.installed[row] = deviceSeq;
  }

  installedDevice(row: number): number {
    return this.columns.installed[row]!;
  }

  fleetSeq(row: number): number {
    return this.columns.fleet[row]!;
  }

  orgIndex(row: number): number {
    return this.columns.org[row]!;
  }

  name(row: number): string {
    return this.names.get(row) ?? `${VEHICLE_MODELS[this.columns.spec[row]!]!.kind} ${String(row + 1).padStart(4, '0')}`;
  }

  at(row: number): VehicleRecord {
    const spec = VEHICLE_MODELS[this.columns.spec[row]!]!;
    let vin = '';
    for (let i = 0; i < VIN_LENGTH; i++) vin += VIN_ALPHABET[this.columns.vin[row * VIN_LENGTH + i]!];
    const plate = LETTERS[this.columns.plateLetters[row * 3]!]! + LETTERS[this.columns.plateLetters[row * 3 + 1]!]! + LETTERS[this.columns.plateLetters[row * 3 + 2]!]!;
    return {
      seq: row,
      id: this.ids.text(row),
      organization_id: this.refs.orgId(this.columns.org[row]!),
      fleet_id: this.refs.fleetId(this.columns.fleet[row]!),
      name: this.name(row),
      vin,
      license_plate: `${plate}-${this.columns.plateNumber[row]}`,
      make: spec.make,
      model: spec.model,
      year: this.columns.year[row]!,
    };
  }
}
