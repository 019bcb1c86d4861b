// Caches (completion lookups, the served API document) and the sandbox state are written by writeFileAtomically:
// many writers of one file at once leave one whole version, and a reader never sees half of one.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../src/io/atomic-file.js';
import { tempDir } from '../support/temp-dir.js';

const SIZE = 512 * 1024;
/** Version n: SIZE copies of one letter, so a mix of two versions or a cut is seen at once. */
const version = (n: number) => String.fromCharCode(97 + (n % 26)).repeat(SIZE);

describe('writeFileAtomically', () => {
  it('writers and readers of one file at once: every read is one whole version, no temporary file is left', async () => {
    const dir = tempDir('fleetctl-atomic-');
    const file = path.join(dir, 'cache', 'listing.json');
    await writeFileAtomically(file, version(0));
    const seen: string[] = [];
    const readers = Array.from({ length: 60 }, async () => {
      const text = await readFile(file, 'utf8');
      seen.push(text);
    });
    const writers = Array.from({ length: 60 }, (_, n) => writeFileAtomically(file, version(n + 1)));
    await Promise.all([...writers, ...readers]);
    for (const text of seen) {
      expect(text.length).toBe(SIZE);
      expect(text).toBe(text[0]!.repeat(SIZE));
    }
    const last = await readFile(file, 'utf8');
    expect(last).toBe(last[0]!.repeat(SIZE));
    expect(readdirSync(path.dirname(file))).toEqual(['listing.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('temporaries left by writers killed mid-write are removed by the next write once a minute old; a recent one, another file\'s, are left', async () => {
    const dir = tempDir('fleetctl-atomic-');
    const file = path.join(dir, 'state.json');
    mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, '.state.json.4242.0badc0de.tmp');
    const recent = path.join(dir, '.state.json.4243.feedf00d.tmp');
    const another = path.join(dir, '.other.json.4242.0badc0de.tmp');
    const lookalike = path.join(dir, '.state.json.backup.tmp');
    const old = new Date(Date.now() - 120_000);
    for (const leftover of [stale, recent, another, lookalike]) {
      writeFileSync(leftover, '{"half":');
      if (leftover !== recent) utimesSync(leftover, old, old);
    }
    await writeFileAtomically(file, '{"whole":true}');
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.other.json.4242.0badc0de.tmp', '.state.json.4243.feedf00d.tmp', '.state.json.backup.tmp', 'state.json']);
  });
});
