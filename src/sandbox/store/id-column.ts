// Uuids kept as four 32-bit words per row, with an open-addressing hash index from uuid to row. A million
// ids as strings in a Map cost about 100 MB and seconds of garbage collection at start-up; as words, 16 bytes
// a row plus 8 in the index. The text of an id is made only when a record is shown.
import { formatUuid, parseUuid } from '../common/prng.js';

const EMPTY = 0; // table slots hold row + 1

export class IdColumn {
  /** Row r's uuid is words[4r .. 4r+3]. */
  words = new Uint32Array(0);
  private table = new Int32Array(0);
  private mask = 0;
  private indexed = 0;
  private readonly scratch = new Uint32Array(4);

  /** Room for `rows` rows, keeping what is there. */
  reserve(rows: number): void {
    if (rows * 4 > this.words.length) {
      const next = new Uint32Array(Math.max(rows, this.words.length / 2, 16) * 4);
      next.set(this.words);
      this.words = next;
    }
    if (rows * 2 > this.table.length) this.rehash(rows);
  }

  /** Indexes the id already written at `row`; the row of an earlier holder of the same id, or -1. */
  index(row: number): number {
    if ((this.indexed + 1) * 2 > this.table.length) this.rehash(this.indexed + 1);
    const existing = this.findWords(this.words, row * 4);
    if (existing >= 0) return existing;
    this.insert(row);
    this.indexed++;
    return -1;
  }

  /** The row of a uuid text, or -1 (also for text that is not a uuid). */
  find(text: string): number {
    return parseUuid(text, this.scratch, 0) ? this.findWords(this.scratch, 0) : -1;
  }

  text(row: number): string {
    return formatUuid(this.words, row * 4);
  }

  private findWords(words: Uint32Array, at: number): number {
    if (this.table.length === 0) return -1;
    for (let slot = hashOf(words, at) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.table[slot]!;
      if (entry === EMPTY) return -1;
      const row = entry - 1;
      const w = row * 4;
      const own = this.words;
      if (own[w] === words[at] && own[w + 1] === words[at + 1] && own[w + 2] === words[at + 2] && own[w + 3] === words[at + 3]) return row;
    }
  }

  private insert(row: number): void {
    let slot = hashOf(this.words, row * 4) & this.mask;
    while (this.table[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    this.table[slot] = row + 1;
  }

  private rehash(rows: number): void {
    let size = 16;
    while (size < rows * 2) size *= 2;
    const old = this.table;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    for (const entry of old) if (entry !== EMPTY) this.insert(entry - 1);
  }
}

function hashOf(words: Uint32Array, at: number): number {
  let h = Math.imul(words[at]! ^ 0x9e3779b9, 0x85ebca6b);
  h ^= Math.imul(words[at + 1]!, 0xc2b2ae35) ^ words[at + 2]! ^ Math.imul(words[at + 3]!, 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}

/** A copy of a typed array with room for `length` elements (at least doubling, so appends stay cheap). */
export function grown<T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(array: T, length: number): T {
  if (length <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(length, array.length * 2, 16));
  next.set(array);
  return next;
}
