// fleetctl's code reaches node:crypto only through src/shared/node-crypto.ts, at the call that needs it: an import
// of it at a module's top would load it (4 to 9 ms on Node 22 to 26) with every command that loads the module. The
// sandbox, a server that signs and hashes on every request, imports it as it likes.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeCrypto } from '../../src/shared/node-crypto.js';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return file === 'src/sandbox' ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** An import of node:crypto that loads it: `import type` and `typeof import(...)` are erased, and load nothing. */
const LOADING_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+['"](?:node:)?crypto['"]|\brequire\(\s*['"](?:node:)?crypto['"]\s*\)|(?<!typeof )\bimport\(\s*['"](?:node:)?crypto['"]\s*\)/m;

describe('node:crypto', () => {
  it('is imported by no module of src/ outside the sandbox but src/shared/node-crypto.ts, which loads it when called', () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => LOADING_IMPORT.test(readFileSync(path.join(root, file), 'utf8')))).toEqual([]);
  });

  it('the scan finds the imports it forbids, and lets a type import pass', () => {
    for (const line of ["import { createHash } from 'node:crypto';", "import crypto from 'crypto';", "export { randomUUID } from 'node:crypto';", "const c = require('node:crypto');", "await import('node:crypto')"]) expect(LOADING_IMPORT.test(line), line).toBe(true);
    expect(LOADING_IMPORT.test("import type { KeyObject } from 'node:crypto';")).toBe(false);
    expect(LOADING_IMPORT.test("function nodeCrypto(): typeof import('node:crypto') {")).toBe(false);
  });

  it('nodeCrypto() is the module itself', () => {
    expect(nodeCrypto().createHash('sha256').update('x').digest('hex')).toHaveLength(64);
  });
});
