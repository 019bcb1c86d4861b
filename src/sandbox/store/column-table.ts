// What the device and vehicle tables share: rows with a uuid each (IdColumn), typed-array columns grown
// together, index buckets and the paging scan. A subclass says how a row is shown (`at`) and which columns
// it has (`growColumns`).
import { IdColumn } from './id-column.js';
import { SeqIndexes, scanRecords, type ScanResult, type SeqTable, type Sequenced } from './collection.js';

export abstract class ColumnTable<T extends Sequenced> implements SeqTable<T> {
  readonly ids = new IdColumn();
  protected count = 0;
  private capacity = 0;
  protected readonly indexes: SeqIndexes;

  constructor(indexNames: readonly string[]) {
    this.indexes = new SeqIndexes(indexNames);
  }

  get size(): number {
    return this.count;
  }

  abstract at(row: number): T;

  /** Room for `rows` rows: a world built from a known size allocates once. */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = rows;
    this.ids.reserve(rows);
    this.growColumns(rows);
  }

  /** The row of an id, or -1. */
  rowOf(id: string): number {
    return this.ids.find(id);
  }

  get(id: string): T | undefined {
    const row = this.ids.find(id);
    return row < 0 ? undefined : this.at(row);
  }

  seqs(name: string, key: string): readonly number[] {
    return this.indexes.seqs(name, key);
  }

  scan(sources: readonly (readonly number[])[] | null, afterSeq: number, limit: number, accept: (item: T) => boolean): ScanResult<T> {
    return scanRecords(sources, this.count, afterSeq, limit, (row) => this.at(row), accept);
  }

  /** Makes room for the row about to be added (doubling). */
  protected roomFor(row: number): void {
    if (row >= this.capacity) this.reserve(Math.max(16, row * 2));
  }

  protected abstract growColumns(rows: number): void;
}
