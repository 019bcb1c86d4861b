// Vehicles as columns (a 1,000,000-device world has about 900,000 vehicles): the uuid as words, organization
// and fleet as numbers, the make/model as an index into the catalog, the VIN and plate as letter indexes.
// A row becomes a VehicleRecord only when it is shown. Vehicles never change fleet (the API cannot move them).
import { LETTERS, VEHICLE_MODELS, VIN_ALPHABET } from '../seed/catalog.js';
import { parseUuid, type Prng } from '../seed/prng.js';
import { grown } from './id-column.js';
import { ColumnTable } from './column-table.js';
import type { VehicleRecord } from './records.js';
import type { WorldRefs } from './world-refs.js';

const VIN_LENGTH = 17;

export class VehicleTable extends ColumnTable<VehicleRecord> {
  private org = new Int32Array(0);
  private fleet = new Int32Array(0);
  private spec = new Uint8Array(0);
  private vin = new Uint8Array(0);
  private plateLetters = new Uint8Array(0);
  private plateNumber = new Uint16Array(0);
  private year = new Uint16Array(0);
  /** The device the world put in the vehicle (its telemetry is the vehicle's), or -1. */
  private installed = new Int32Array(0);
  private readonly names = new Map<number, string>();

  constructor(refs: WorldRefs) {
    super(refs);
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
    for (let i = 0; i < VIN_LENGTH; i++) this.vin[row * VIN_LENGTH + i] = Math.floor(rng.next() * VIN_ALPHABET.length);
    for (let i = 0; i < 3; i++) this.plateLetters[row * 3 + i] = Math.floor(rng.next() * LETTERS.length);
    this.plateNumber[row] = rng.int(1000, 9999);
    this.year[row] = rng.int(2015, 2024);
    this.spec[row] = spec;
    this.fleet[row] = fleetSeq;
    this.org[row] = this.refs.fleetOrgIndex(fleetSeq);
    this.installed[row] = -1;
    if (name !== undefined) this.names.set(row, name);
    this.indexRow('org', this.org[row]!, row);
    this.indexRow('fleet', fleetSeq, row);
    return row;
  }

  setInstalledDevice(row: number, deviceSeq: number): void {
    this.installed[row] = deviceSeq;
  }

  installedDevice(row: number): number {
    return this.installed[row]!;
  }

  fleetSeq(row: number): number {
    return this.fleet[row]!;
  }

  orgIndex(row: number): number {
    return this.org[row]!;
  }

  name(row: number): string {
    return this.names.get(row) ?? `${VEHICLE_MODELS[this.spec[row]!]!.kind} ${String(row + 1).padStart(4, '0')}`;
  }

  at(row: number): VehicleRecord {
    const spec = VEHICLE_MODELS[this.spec[row]!]!;
    let vin = '';
    for (let i = 0; i < VIN_LENGTH; i++) vin += VIN_ALPHABET[this.vin[row * VIN_LENGTH + i]!];
    const plate = LETTERS[this.plateLetters[row * 3]!]! + LETTERS[this.plateLetters[row * 3 + 1]!]! + LETTERS[this.plateLetters[row * 3 + 2]!]!;
    return {
      seq: row,
      id: this.ids.text(row),
      organization_id: this.refs.orgId(this.org[row]!),
      fleet_id: this.refs.fleetId(this.fleet[row]!),
      name: this.name(row),
      vin,
      license_plate: `${plate}-${this.plateNumber[row]}`,
      make: spec.make,
      model: spec.model,
      year: this.year[row]!,
    };
  }

  protected growColumns(rows: number): void {
    this.org = grown(this.org, rows);
    this.fleet = grown(this.fleet, rows);
    this.spec = grown(this.spec, rows);
    this.vin = grown(this.vin, rows * VIN_LENGTH);
    this.plateLetters = grown(this.plateLetters, rows * 3);
    this.plateNumber = grown(this.plateNumber, rows);
    this.year = grown(this.year, rows);
    this.installed = grown(this.installed, rows);
  }
}
