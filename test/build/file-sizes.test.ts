// The house limit on the size of a source file: at most 300 lines, so that a file stays one thing read whole.
// Generated files (*.gen.ts, written from the API's documents) are not written by hand and are left out.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 300;

function handWritten(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return handWritten(file);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.gen.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const files = handWritten('src');
    // a pattern that matched nothing would pass vacuously
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file, lines: readFileSync(path.join(root, file), 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
