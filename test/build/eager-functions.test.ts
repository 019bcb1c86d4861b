// The build writes the function declarations a single request runs as parenthesized function expressions at the
// start of their scope (src/build/eager-functions.mjs), so that V8 compiles them with their file and the compile
// cache keeps them: the code must behave as before, the functions existing from the start of their scope. Which
// ones: those V8's coverage saw run (src/build/gen-hot-functions.mjs), named by module and name.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAst } from 'rollup/parseAst';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// build scripts: plain JavaScript, typed here
const { eagerFunctionDeclarations, functionKey } = (await import(pathToFileURL(path.join(root, 'src/build/eager-functions.mjs')).href)) as {
  eagerFunctionDeclarations: (code: string, parse: (code: string) => unknown, isHot?: (key: string) => boolean) => { toString(): string } | null;
  functionKey: (module: string | undefined, name: string) => string;
};
const { ranFunctions } = (await import(pathToFileURL(path.join(root, 'src/build/gen-hot-functions.mjs')).href)) as {
  ranFunctions: (code: string, functions: { ranges: { startOffset: number; count: number }[] }[]) => Set<string>;
};

const rewrite = (code: string, isHot?: (key: string) => boolean) => eagerFunctionDeclarations(code, (text) => parseAst(text), isHot)?.toString();
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

  it("keep a file's own directives first: a CommonJS chunk stays strict ('use strict' before the hoisted expressions)", () => {
    const rewritten = rewrite(`'use strict';\n\nvar core = require('./core.js');\nfunction hot() { return this; }\nmodule.exports = hot;\n`)!;
    expect(rewritten.startsWith("'use strict';")).toBe(true);
    expect(rewritten).toMatch(/^'use strict';\s*var hot = \(function hot\(/);
    // strict, so a plain call has no `this`
    const module = { exports: undefined as unknown as () => unknown };
    new Function('module', 'require', rewritten)(module, () => ({}));
    const hot = module.exports;
    expect(hot()).toBeUndefined();
  });

  it('leaves code without declarations as it is, and exported ones to their module', () => {
    expect(rewrite('const f = () => 1;\nexport { f };\n')).toBeUndefined();
    expect(rewrite('export function f() { return 1; }\n')).toBeUndefined();
  });
});

// two modules of a bundle as esbuild writes them: each after the line naming it, a CommonJS one in its wrapper
const BUNDLE = `// src/one.ts
function shared() { return 1; }
function coldInOne() { return 2; }

// node_modules/lib/two.js
var require_two = __commonJS({
  "node_modules/lib/two.js"(exports, module) {
    function shared2() { return 3; }
    module.exports = shared2;
  }
});
`;

describe('only the functions that run', () => {
  it('are named by their module and name, without the number a bundler appends to a name two modules share', () => {
    expect(functionKey('src/one.ts', 'logFormatOf2')).toBe('src/one.ts:logFormatOf');
    expect(functionKey('src/one.ts', 'import_node_crypto$1')).toBe('src/one.ts:import_node_crypto');
    expect(functionKey('node_modules/lib/two.js', 'IPv4')).toBe('node_modules/lib/two.js:IPv');
  });

  it('are rewritten, each by the module it is in: a function of the same name in another module stays a declaration', () => {
    const rewritten = rewrite(BUNDLE, (key) => key === 'node_modules/lib/two.js:shared')!;
    expect(rewritten).toContain('var shared2 = (function shared2(');
    expect(rewritten).toMatch(/^function shared\(\) \{/m);
    expect(rewritten).toMatch(/^function coldInOne\(\) \{/m);
    expect(rewrite(BUNDLE, () => false)).toBeUndefined();
  });

  it("are read from V8's coverage: a declaration that ran, and a CommonJS module's body that ran", () => {
    const at = (text: string) => BUNDLE.indexOf(text);
    const fn = (startOffset: number, count: number) => ({ ranges: [{ startOffset, count }] });
    const ran = ranFunctions(BUNDLE, [fn(0, 1), fn(at('function shared()'), 3), fn(at('function coldInOne'), 0), fn(at('"node_modules/lib/two.js"('), 1), fn(at('function shared2'), 0)]);
    expect([...ran].sort()).toEqual(['node_modules/lib/two.js:(module)', 'src/one.ts:shared']);
  });
});
