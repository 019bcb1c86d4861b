// Page sizes come only from src/shared/page-limits.ts: a literal 500 anywhere else in the code of src/ is read as a
// page size written by hand, unless its line says it is something else (an HTTP status, a duration). Comments may
// speak of "a page of 500"; the generated modules (*.gen.ts) quote the documents, and are left out.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LIMIT } from '../../src/shared/page-limits.js';

const root = path.resolve(import.meta.dirname, '../..');
const DEFINITION = 'src/shared/page-limits.ts';

/** What a 500 may be besides a page size, each known by its own line. */
const OTHER_MEANINGS: { meaning: string; line: RegExp }[] = [
  // `status >= 500`, FAULT_STATUSES, `problem(500, ...)`, `new HttpRefusal(500, ...)`, `500: 'Internal Server Error'`
  { meaning: 'an HTTP status', line: /status|\bproblem\(500\b|Refusal\(500\b|^\s*500: '/i },
  // `const IDLE_RESTART_MS = 500;`
  { meaning: 'a duration in milliseconds', line: /_MS = 500\b/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.gen.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The code of a module without its comments (a `//` after a colon, as in a URL, is not one). */
function codeOf(text: string): string[] {
  return text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, '')).split('\n').map((line) => line.replace(/(^|\s)\/\/.*$/, ''));
}

/** The lines of `text` where a 500 is neither of the other meanings: a page size. */
function pageSizeLiterals(text: string): string[] {
  return codeOf(text).filter((line) => /\b500\b/.test(line) && !OTHER_MEANINGS.some(({ line: other }) => other.test(line)));
}

const scanned = sourceFiles('src').filter((file) => file !== DEFINITION);

describe('the page-size literal', () => {
  it('is written once, in src/shared/page-limits.ts', () => {
    expect(MAX_LIMIT).toBe(500);
    expect(readFileSync(path.join(root, DEFINITION), 'utf8')).toMatch(/^export const MAX_LIMIT = 500;$/m);
  });

  it('appears nowhere else in src/ but as an HTTP status or a duration', () => {
    expect(scanned.length).toBeGreaterThan(100);
    const found = scanned.flatMap((file) => pageSizeLiterals(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('tells a page size from the other meanings (the rule above is not vacuous)', () => {
    const handWritten = ['{ limit: 500, all: true },', 'async function pick(max = 500) {', 'const MOST = 500;', "'page sizes are 1 to 500'"];
    expect(handWritten.flatMap(pageSizeLiterals)).toEqual(handWritten);
    const otherwise = ['if (status >= 500) retry();', "  500: 'internal.error',", "throw problem(500, 'internal.error', 'x');", 'const IDLE_RESTART_MS = 500;', '// a page of 500 devices', '/* 1 to 500 */ f();'];
    expect(otherwise.flatMap(pageSizeLiterals)).toEqual([]);
    // the scan reaches the modules where 500 is a status: errors.ts maps one to an exit code
    expect(scanned).toContain('src/errors.ts');
    expect(codeOf(readFileSync(path.join(root, 'src/errors.ts'), 'utf8')).some((line) => /\b500\b/.test(line))).toBe(true);
  });
});
