// An in-memory collection ordered by `seq`, with secondary indexes (e.g. organization, fleet) kept as
// sorted arrays of seqs. A page is found by binary search plus a k-way merge of the index arrays that
// apply, so listing cost grows with the page size, not with the collection.

export interface Sequenced {
  seq: number;
  id: string;
}

export type IndexKeys<T> = Record<string, (item: T) => string | null>;

export interface ScanResult<T> {
  items: T[];
  hasMore: boolean;
}

export class IndexedCollection<T extends Sequenced> {
  /** Every item, at position `seq`. */
  readonly items: T[] = [];
  private readonly byId = new Map<string, T>();
  private readonly indexes = new Map<string, Map<string, number[]>>();
  // [index name, key function, buckets] once, so add() allocates nothing but index slots (100k items at start)
  private readonly keyList: [string, (item: T) => string | null, Map<string, number[]>][];

  constructor(private readonly keys: IndexKeys<T>) {
    this.keyList = Object.entries(keys).map(([name, keyOf]) => {
      const buckets = new Map<string, number[]>();
      this.indexes.set(name, buckets);
      return [name, keyOf, buckets];
    });
  }

  get size(): number {
    return this.items.length;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Appends an item; its seq must be the next one. */
  add(item: T): void {
    if (item.seq !== this.items.length) throw new Error(`seq ${item.seq} out of order`);
    this.items.push(item);
    this.byId.set(item.id, item);
    for (let i = 0; i < this.keyList.length; i++) {
      const [, keyOf, buckets] = this.keyList[i]!;
      const key = keyOf(item);
      if (key === null) continue;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(item.seq);
      else buckets.set(key, [item.seq]);
    }
  }

  /** Applies a change to an item, moving it between index buckets when its keys change. */
  update(item: T, change: (item: T) => void): void {
    const before = Object.entries(this.keys).map(([name, keyOf]) => [name, keyOf(item)] as const);
    change(item);
    for (const [name, oldKey] of before) {
      const newKey = this.keys[name]!(item);
      if (oldKey === newKey) continue;
      if (oldKey !== null) removeSorted(this.bucket(name, oldKey), item.seq);
      if (newKey !== null) insertSorted(this.bucket(name, newKey), item.seq);
    }
  }

  /** The sorted seqs of the items whose index `name` has value `key`. */
  seqs(name: string, key: string): readonly number[] {
    return this.indexes.get(name)?.get(key) ?? [];
  }

  /**
   * Up to `limit` items with seq > afterSeq that satisfy `accept`, in seq order, drawn from the union of
   * `sources` (sorted seq arrays) or from the whole collection when `sources` is null.
   */
  scan(sources: readonly (readonly number[])[] | null, afterSeq: number, limit: number, accept: (item: T) => boolean): ScanResult<T> {
    const items: T[] = [];
    const take = (seq: number): boolean => {
      const item = this.items[seq]!;
      if (!accept(item)) return true;
      if (items.length === limit) return false; // one more exists: stop
      items.push(item);
      return true;
    };
    if (sources === null) {
      for (let seq = Math.max(0, afterSeq + 1); seq < this.items.length; seq++) {
        if (!take(seq)) return { items, hasMore: true };
      }
      return { items, hasMore: false };
    }
    const cursors = sources.map((arr) => ({ arr, at: upperBound(arr, afterSeq) }));
    for (;;) {
      let best = -1;
      for (let i = 0; i < cursors.length; i++) {
        const c = cursors[i]!;
        if (c.at < c.arr.length && (best < 0 || c.arr[c.at]! < cursors[best]!.arr[cursors[best]!.at]!)) best = i;
      }
      if (best < 0) return { items, hasMore: false };
      const c = cursors[best]!;
      if (!take(c.arr[c.at++]!)) return { items, hasMore: true };
    }
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

function insertSorted(arr: number[], value: number): void {
  arr.splice(upperBound(arr, value), 0, value);
}

function removeSorted(arr: number[], value: number): void {
  const at = upperBound(arr, value) - 1;
  if (at >= 0 && arr[at] === value) arr.splice(at, 1);
}
