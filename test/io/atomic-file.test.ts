// Caches (completion lookups, the served API document) and the sandbox state are written by writeFileAtomically:
// many writers of one file at once leave one whole version, and a reader never sees half of one.
import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
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
});
