// The build's Rollup stage reads esbuild's output: which CommonJS wrappers stand for Node's built-in modules.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// a build script: plain JavaScript, typed here
const { builtinWrapperNames } = (await import(pathToFileURL(path.join(root, 'src/build/commonjs-runtime.mjs')).href)) as { builtinWrapperNames: (code: string[]) => Set<string> };

const wrapper = (name: string, id: string) => `var ${name} = __commonJS({\n  "${id}"(exports, module) {\n    module.exports = 1;\n  }\n});\n`;

describe("the built-in modules' stand-ins, by the name esbuild gives them", () => {
  it('are told from the bundled modules of dependencies', () => {
    const names = builtinWrapperNames([wrapper('require_node_fs', 'builtin:node:fs') + wrapper('require_commander', 'node_modules/commander/index.js')]);
    expect([...names]).toEqual(['require_node_fs']);
  });

  it('a name two files give to two built-ins counts (node:fs/promises and node:stream/promises)', () => {
    const names = builtinWrapperNames([wrapper('require_promises', 'builtin:node:fs/promises'), wrapper('require_promises', 'builtin:node:stream/promises')]);
    expect([...names]).toEqual(['require_promises']);
  });

  it("a name another file gives to a dependency's module does not: its imports keep esbuild's own interop", () => {
    const names = builtinWrapperNames([wrapper('require_promises', 'builtin:node:fs/promises'), wrapper('require_promises', 'node_modules/some-lib/promises.js')]);
    expect([...names]).toEqual([]);
  });
});
