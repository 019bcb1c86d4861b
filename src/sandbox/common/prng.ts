// Deterministic pseudo-random numbers for the seed data: the same --seed always yields the same world.
// mulberry32 is tiny, fast and good enough for test data; it is not for secrets.
import { isUuid } from '../../shared/uuid.js';

/** A 32-bit hash of a string (FNV-1a followed by a murmur3 finalizer to spread the bits). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uint32. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A random version-4 shaped uuid (lower-case hex). */
  uuid(): string {
    this.uuidWords(UUID_SCRATCH, 0);
    return formatUuid(UUID_SCRATCH, 0);
  }

  /** The four 32-bit words of a random version-4 uuid, written to out[at..at+3] (compact tables keep these). */
  uuidWords(out: Uint32Array, at: number): void {
    out[at] = this.nextUint32();
    out[at + 1] = (this.nextUint32() & 0xffff0fff) | 0x00004000; // version 4
    out[at + 2] = (this.nextUint32() & 0x3fffffff) | 0x80000000; // RFC 4122 variant
    out[at + 3] = this.nextUint32();
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** A generator for one named stream of the world, e.g. prngFor(seed, 'device', 17). */
export function prngFor(seed: number, ...parts: (string | number)[]): Prng {
  return new Prng(hash32(`${seed}:${parts.join(':')}`));
}

const UUID_SCRATCH = new Uint32Array(4);

// two hex digits per byte: Number#toString(16) is slow for values above 2^31, which half the words are
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex4 = (w: number) => HEX[(w >>> 8) & 255]! + HEX[w & 255]!;
const hex8 = (w: number) => hex4(w >>> 16) + hex4(w);

/** The uuid text of the four words at words[at..at+3]. */
export function formatUuid(words: Uint32Array, at: number): string {
  const w1 = words[at + 1]!;
  const w2 = words[at + 2]!;
  return `${hex8(words[at]!)}-${hex4(w1 >>> 16)}-${hex4(w1)}-${hex4(w2 >>> 16)}-${hex4(w2)}${hex8(words[at + 3]!)}`;
}

/** Writes the words of a uuid text to out[at..at+3]; false when the text is not a uuid. */
export function parseUuid(text: string, out: Uint32Array, at: number): boolean {
  if (!isUuid(text)) return false;
  const hex = text.replaceAll('-', '');
  for (let i = 0; i < 4; i++) out[at + i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16);
  return true;
}
