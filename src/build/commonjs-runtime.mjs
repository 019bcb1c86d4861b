// The Rollup plugin that rewrites esbuild's runtime helpers in the bundle (chunks.mjs applies it to every file
// it writes), and what it reads of esbuild's output to do so.
import MagicString from 'magic-string';
import { MODULE_BODY, functionKey, visit } from './eager-functions.mjs';

/**
 * esbuild's runtime helpers for the CommonJS dependencies it bundles (commander, undici...), made cheap at
 * start-up. These match the text esbuild writes (its helpers' names and shapes), which a new esbuild may
 * change: FLEETCTL_BUILD_HELPER_REWRITES=off builds without them (test/build/helper-rewrites.test.ts).
 * - each bundled module's body, `__commonJS({ "path"(exports, module) {...} })`, written as a function
 *   expression, parenthesized when a single request runs it (hot-functions.json): V8 compiles those at once
 *   with the chunk, and so the compile cache (Node 22+) keeps them; a method is compiled only when first
 *   called, and so again on every run (the cache is made when the chunk is compiled, not after it ran).
 * - an ES import of a built-in module (`builtinWrappers`, the names of their stand-ins) seen through an
 *   object that inherits from the module, where esbuild's __toESM copies each of its exports into a getter of
 *   a new object: fs, crypto and process have a hundred or more, copied again in every file that imports them,
 *   a few milliseconds of every command. The module's members read the same either way; a built-in's getters
 *   do not depend on the object they are read through.
 */
export function commonJsRuntime(builtinWrappers, hot) {
  return {
    name: 'commonjs-runtime',
    transform(code) {
      // most chunks call neither helper: not parsed a second time
      if (!code.includes('__commonJS(') && !code.includes('__toESM(')) return null;
      const ast = this.parse(code);
      const edited = new MagicString(code);
      let importsBuiltin = false;
      visit(ast, (node) => {
        if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') return;
        if (node.callee.name === '__toESM') {
          const [wrapped] = node.arguments;
          if (wrapped?.type === 'CallExpression' && wrapped.callee.type === 'Identifier' && builtinWrappers.has(wrapped.callee.name)) {
            edited.overwrite(node.callee.start, node.callee.end, BUILTIN_NAMESPACE);
            importsBuiltin = true;
          }
          return;
        }
        if (node.callee.name !== '__commonJS') return;
        for (const member of node.arguments[0]?.properties ?? []) {
          if (!member.method) continue;
          const eager = hot.has(functionKey(member.key.value, MODULE_BODY));
          edited.appendLeft(member.key.end, eager ? ': (function' : ': function');
          if (eager) edited.appendRight(member.value.end, ')');
        }
      });
      if (importsBuiltin) edited.prepend(`const ${BUILTIN_NAMESPACE} = (builtin) => Object.create(builtin, { default: { value: builtin, enumerable: true } });\n`);
      return edited.hasChanged() ? { code: edited.toString(), map: edited.generateMap({ hires: 'boundary' }) } : null;
    },
  };
}

/**
 * The names esbuild gives the CommonJS stand-ins bundle.mjs makes for Node's built-in modules, in its output
 * files' `code`. A name is not unique across files (node:fs/promises and node:stream/promises are both
 * require_promises): it counts only when every module wrapped under it, in any file, is a built-in's stand-in.
 */
export function builtinWrapperNames(code) {
  const wrapped = new Map();
  for (const text of code) {
    for (const [, name, id] of text.matchAll(COMMONJS_WRAPPER)) wrapped.set(name, [...(wrapped.get(name) ?? []), id]);
  }
  return new Set([...wrapped].filter(([, ids]) => ids.every((id) => id.startsWith('builtin:'))).map(([name]) => name));
}

/** How esbuild wraps a CommonJS module, such as a built-in's stand-in: `var require_node_fs = __commonJS({ "builtin:node:fs"...`. */
const COMMONJS_WRAPPER = /^var (\w+) = __commonJS\(\{\s*"([^"]+)"/gm;
const BUILTIN_NAMESPACE = '__builtinNamespace';
