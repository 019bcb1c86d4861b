// The build writes every function declaration as a parenthesized function expression at the start of its scope
// (src/build/eager-functions.mjs), so that V8 compiles it with its file and the compile cache keeps it: the code
// must behave as before, the functions existing from the start of their scope.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAst } from 'rollup/parseAst';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// build scripts: plain JavaScript, typed here
const { eagerFunctionDeclarations } = (await import(pathToFileURL(path.join(root, 'src/build/eager-functions.mjs')).href)) as {
  eagerFunctionDeclarations: (code: string, parse: (code: string) => unknown) => { toString(): string } | null;
};

const rewrite = (code: string) => eagerFunctionDeclarations(code, (text) => parseAst(text))?.toString();
/** What a module body hands to answer(), run as a strict function body. */
function run(code: string): unknown {
  let answered: unknown;
  new Function('answer', `'use strict';\n${code}`)((value: unknown) => (answered = value));
  return answered;
}

const SAMPLE = `
const early = twice(2);
function twice(n) { return inner(n); function inner(m) { 'use strict'; return helper(m) * 2; function helper(k) { return k; } } }
let fromBlock;
{
  fromBlock = inBlock();
  function inBlock() { return 'block'; }
}
async function later() { return 'async'; }
function* counting() { yield 1; yield 2; }
function recursive(n) { return n <= 0 ? 0 : n + recursive(n - 1); }
answer([early, fromBlock, typeof later, [...counting()], recursive(3), twice.name, twice.length, typeof inBlock]);
`;

describe('function declarations as expressions compiled with their file', () => {
  it('behave as the declarations did: callable before the line that declared them, in every scope', () => {
    const rewritten = rewrite(SAMPLE)!;
    expect(run(rewritten)).toEqual(run(SAMPLE));
    expect(run(rewritten)).toEqual([4, 'block', 'function', [1, 2], 6, 'twice', 1, 'undefined']);
  });

  it('leave no declaration: each is a parenthesized function expression, after the directives of its body', () => {
    const rewritten = rewrite(SAMPLE)!;
    for (const name of ['twice', 'inner', 'helper', 'recursive']) expect(rewritten).toContain(`var ${name} = (function ${name}(`);
    // a block's own, as its declaration was
    expect(rewritten).toContain('let inBlock = (function inBlock(');
    expect(rewritten).toContain('var later = (async function later(');
    expect(rewritten).toContain('var counting = (function* counting(');
    expect(rewritten).toMatch(/\{ 'use strict'; var helper = \(function helper/);
    expect(rewritten).not.toMatch(/(^|[;{}]\s*)(async\s+)?function\*?\s+\w+\s*\(/m);
  });

  it('leaves code without declarations as it is, and exported ones to their module', () => {
    expect(rewrite('const f = () => 1;\nexport { f };\n')).toBeUndefined();
    expect(rewrite('export function f() { return 1; }\n')).toBeUndefined();
  });
});
