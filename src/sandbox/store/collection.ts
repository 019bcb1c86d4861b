// Collections ordered by `seq`, with secondary indexes (e.g. organization, fleet) kept as sorted arrays of
// seqs. A page is found by binary search plus a k-way merge of the index arrays that apply, so listing cost
// grows with the page size, not with the collection. IndexedCollection holds objects (fleets, drivers); the
// device and vehicle tables hold columns (store/device-table.ts) and share the indexes and the scan.

export interface Sequenced {
  seq: number;
  id: string;
}

export type IndexKeys<T> = Record<string, (item: T) => string | null>;

export interface ScanResult<T> {
  items: T[];
  hasMore: boolean;
}

/** What the list routes need of a collection, whatever its representation. */
export interface SeqTable<T extends Sequenced> {
  readonly size: number;
  at(seq: number): T;
  get(id: string): T | undefined;
  seqs(name: string, key: string): readonly number[];
  scan(sources: readonly (readonly number[])[], afterSeq: number, limit: number, accept: (item: T) => boolean): ScanResult<T>;
}

/** Named indexes: for each name, key → sorted seqs. */
export class SeqIndexes {
  private readonly indexes = new Map<string, Map<string, number[]>>();

  constructor(names: readonly string[]) {
    for (const name of names) this.indexes.set(name, new Map());
  }

  /** Appends a seq larger than every seq indexed so far. */
  append(name: string, key: string, seq: number): void {
    this.bucket(name, key).push(seq);
  }

  move(name: string, oldKey: string | null, newKey: string | null, seq: number): void {
    if (oldKey === newKey) return;
    if (oldKey !== null) removeSorted(this.bucket(name, oldKey), seq);
    if (newKey !== null) insertSorted(this.bucket(name, newKey), seq);
  }

  seqs(name: string, key: string): readonly number[] {
    return this.indexes.get(name)?.get(key) ?? [];
  }

  private bucket(name: string, key: string): number[] {
    const index = this.indexes.get(name)!;
    let arr = index.get(key);
    if (!arr) {
      arr = [];
      index.set(key, arr);
    }
    return arr;
  }
}

/**
 * Up to `limit` rows after `afterSeq` that `accept` admits, in seq order, drawn from the union of `sources`
 * (sorted seq arrays), each shown as a record by `at` once; hasMore when one more exists.
 */
export function scanRecords<T>(
  sources: readonly (readonly number[])[], afterSeq: number, limit: number, at: (seq: number) => T, accept: (item: T) => boolean,
): ScanResult<T> {
  const items: T[] = [];
  const cursors = sources.map((arr) => ({ arr, at: upperBound(arr, afterSeq) }));
  for (;;) {
    let best = -1;
    for (let i = 0; i < cursors.length; i++) {
      const c = cursors[i]!;
      if (c.at < c.arr.length && (best < 0 || c.arr[c.at]! < cursors[best]!.arr[cursors[best]!.at]!)) best = i;
    }
    if (best < 0) return { items, hasMore: false };
    const c = cursors[best]!;
    const item = at(c.arr[c.at++]!);
    if (!accept(item)) continue;
    if (items.length === limit) return { items, hasMore: true }; // one more exists: stop
    items.push(item);
  }
}

export class IndexedCollection<T extends Sequenced> implements SeqTable<T> {
  /** Every item, at position `seq`. */
  readonly items: T[] = [];
  private readonly byId = new Map<string, T>();
  private readonly indexes: SeqIndexes;
  private readonly keyList: [string, (item: T) => string | null][];

  constructor(keys: IndexKeys<T>) {
    this.keyList = Object.entries(keys);
    this.indexes = new SeqIndexes(Object.keys(keys));
  }

  get size(): number {
    return this.items.length;
  }

  at(seq: number): T {
    return this.items[seq]!;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Appends an item; its seq must be the next one. */
  add(item: T): void {
    if (item.seq !== this.items.length) throw new Error(`seq ${item.seq} out of order`);
    this.items.push(item);
    this.byId.set(item.id, item);
    for (const [name, keyOf] of this.keyList) {
      const key = keyOf(item);
      if (key !== null) this.indexes.append(name, key, item.seq);
    }
  }

  /** Applies a change to an item, moving it between index buckets when its keys change. */
  update(item: T, change: (item: T) => void): void {
    const before = this.keyList.map(([, keyOf]) => keyOf(item));
    change(item);
    this.keyList.forEach(([name, keyOf], i) => this.indexes.move(name, before[i]!, keyOf(item), item.seq));
  }

  seqs(name: string, key: string): readonly number[] {
    return this.indexes.seqs(name, key);
  }

  scan(sources: readonly (readonly number[])[], afterSeq: number, limit: number, accept: (item: T) => boolean): ScanResult<T> {
    return scanRecords(sources, afterSeq, limit, (seq) => this.items[seq]!, accept);
  }
}

/** The first position in a sorted array whose value is greater than `value`. */
export function upperBound(arr: readonly number[], value: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insertSorted(arr: number[], value: number): void {
  arr.splice(upperBound(arr, value), 0, value);
}

export function removeSorted(arr: number[], value: number): void {
  const at = upperBound(arr, value) - 1;
  if (at >= 0 && arr[at] === value) arr.splice(at, 1);
}
