// What the device and vehicle tables share: rows with a uuid each (IdColumn), typed-array columns grown
// together, index buckets and the paging scan. A subclass says how a row is shown (`at`) and which columns
// it has (`columns`). Index buckets are keyed by number (organization index, fleet seq), not by uuid
// text: a million devices are indexed without a million Map look-ups.
import { IdColumn, grown } from './id-column.js';
import { insertSorted, removeSorted, scanRecords, type ScanResult, type SeqTable, type Sequenced } from './collection.js';
import type { WorldRefs } from './world-refs.js';

/** org: by organization index; fleet: by fleet seq; seedFleet: by the fleet the world put the row in. */
export type RowIndexName = 'org' | 'fleet' | 'seedFleet';

type Column = Int32Array | Uint8Array | Uint16Array | Float64Array;

export abstract class ColumnTable<T extends Sequenced, C extends Record<string, Column>> implements SeqTable<T> {
  readonly ids = new IdColumn();
  protected count = 0;
  private capacity = 0;
  /** Per index, per key number, the rows in order. */
  private readonly rowIndex: Record<RowIndexName, number[][]> = { org: [], fleet: [], seedFleet: [] };

  /** `columns` are grown together, `widths` giving those with several elements a row (1 otherwise). */
  constructor(
    protected readonly refs: WorldRefs,
    protected readonly columns: C,
    private readonly widths: Partial<Record<keyof C, number>> = {},
  ) {}

  get size(): number {
    return this.count;
  }

  abstract at(row: number): T;

  /** Room for `rows` rows: a world built from a known size allocates once. */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = rows;
    this.ids.reserve(rows);
    for (const name in this.columns) this.columns[name] = grown(this.columns[name], rows * (this.widths[name] ?? 1));
  }

  /** The row of an id, or -1. */
  rowOf(id: string): number {
    return this.ids.find(id);
  }

  get(id: string): T | undefined {
    const row = this.ids.find(id);
    return row < 0 ? undefined : this.at(row);
  }

  /** The rows whose `name` is the organization or fleet of id `key`. */
  seqs(name: string, key: string): readonly number[] {
    const number = name === 'org' ? this.refs.findOrgIndex(key) : (this.refs.fleets.get(key)?.seq ?? -1);
    return number < 0 ? [] : (this.rowIndex[name as RowIndexName]?.[number] ?? []);
  }

  /** Adds a row (larger than every row indexed so far) to a bucket. */
  protected indexRow(name: RowIndexName, key: number, row: number): void {
    (this.rowIndex[name][key] ??= []).push(row);
  }

  protected moveRow(name: RowIndexName, from: number, to: number, row: number): void {
    if (from === to) return;
    const buckets = this.rowIndex[name];
    if (buckets[from]) removeSorted(buckets[from], row);
    insertSorted((buckets[to] ??= []), row);
  }

  scan(sources: readonly (readonly number[])[], afterSeq: number, limit: number, accept: (item: T) => boolean): ScanResult<T> {
    return scanRecords(sources, afterSeq, limit, (row) => this.at(row), accept);
  }

  /** Makes room for the row about to be added (doubling). */
  protected roomFor(row: number): void {
    if (row >= this.capacity) this.reserve(Math.max(16, row * 2));
  }
}
