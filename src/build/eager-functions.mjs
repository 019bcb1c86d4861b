// The functions a single request runs, written as parenthesized function expressions that V8 compiles with the
// file. V8 compiles a function declaration only when it is first called. fleetctl's compile cache
// (src/compile-cache.ts) keeps the code of a run after it ran, but on Node 20 it keeps a file's code as compiled,
// before it ran (as Node's own compile cache does): there every function a call runs was compiled again on every
// run (commander's, undici's, fleetctl's own). A parenthesized function expression is compiled at once, so the
// cache keeps it; elsewhere it spares the first run of each kind those compiles.
//   function name(a) { ... }   becomes   var name = (function name(a) { ... });
// (let in a block that is no function's body, whose declarations are its own), moved to the start of the body it
// was declared in (after its directives), so that it exists from the start of its scope, as a declaration did.
// One difference remains: a declaration exists before its module runs, which matters only to a module that calls
// it from an import cycle between files; test/build/startup.test.ts holds dist/ free of such cycles.
// Only the functions hot-functions.json names are rewritten: those V8's coverage saw run in the calls scripts
// make in loops (bench/hot-functions.mjs writes the list). Compiling every function of the bundle at once made
// the cache twice the size, and reading it back cost more than the functions that never run saved. A function
// the list does not name (new, renamed) is compiled when first called, as any declaration is. Switched off with
// esbuild's helper rewrites (FLEETCTL_BUILD_HELPER_REWRITES=off).
import { readFileSync } from 'node:fs';
import MagicString from 'magic-string';

/** The names of hot-functions.json, a Set of functionKey()s. */
export function hotFunctions() {
  return new Set(JSON.parse(readFileSync(new URL('./hot-functions.json', import.meta.url), 'utf8')).functions);
}

/**
 * What names a function across builds: the module it was written in (as esbuild's `// path` line before that
 * module's code says) and its name, without the number esbuild or Rollup append to a name two modules share
 * (logFormatOf2, $1). A CommonJS module's body, which has no name, is `(module)`.
 */
export function functionKey(module, name) {
  return `${module ?? '?'}:${name.replace(/\$?\d+$/, '')}`;
}

/** The `// path` lines esbuild writes before each module's code: [offset, path], in order. */
export function moduleMarkers(code) {
  return [...code.matchAll(MODULE_MARKER)].map((match) => [match.index, match[1]]);
}

/** The module whose code holds `offset`: the last marker before it. */
export function moduleAt(markers, offset) {
  let low = 0;
  let high = markers.length - 1;
  let found;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (markers[middle][0] <= offset) {
      found = markers[middle][1];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The name functionKey() gives a CommonJS module's body, `__commonJS({ "path"(exports, module) {...} })`. */
export const MODULE_BODY = '(module)';

const MODULE_MARKER = /^\/\/ ((?:src|node_modules)\/\S+|builtin:\S+)$/gm;

/** The Rollup plugin: each chunk's hot function declarations rewritten as it is written. */
export function eagerFunctions(hot) {
  return {
    name: 'eager-functions',
    renderChunk(code, chunk, options) {
      const edited = eagerFunctionDeclarations(code, (text) => this.parse(text), (key) => hot.has(key));
      if (!edited) return null;
      return { code: edited.toString(), map: options.sourcemap ? edited.generateMap({ hires: 'boundary' }) : undefined };
    },
  };
}

/**
 * `code` with its named function declarations for which `isHot(functionKey)` holds (all, by default) hoisted as
 * function expressions (a MagicString); null when it has none.
 */
export function eagerFunctionDeclarations(code, parse, isHot = () => true) {
  const edited = new MagicString(code);
  const markers = moduleMarkers(code);
  let rewritten = 0;
  // `kind`: var in a function's body or a module's, where a declaration is; let in any other block, whose
  // declarations are the block's own
  const hoist = (statements, start, kind) => {
    for (const statement of statements) {
      if (statement.type !== 'FunctionDeclaration' || !statement.id) continue;
      if (!isHot(functionKey(moduleAt(markers, statement.start), statement.id.name))) continue;
      // the first statement of its body is where the others go: it stays in place
      if (statement.start !== start) edited.move(statement.start, statement.end, start);
      edited.prependRight(statement.start, `${kind} ${statement.id.name} = (`);
      edited.appendLeft(statement.end, ');\n');
      rewritten++;
    }
  };
  visit(parse(code), (node, parent) => {
    if (node.type === 'Program') hoist(node.body, node.body.find((statement) => statement.directive === undefined)?.start ?? 0, 'var');
    else if (node.type === 'BlockStatement' || node.type === 'StaticBlock') {
      const first = node.body.find((statement) => statement.directive === undefined);
      const body = node.type === 'StaticBlock' || (FUNCTIONS.has(parent?.type) && parent.body === node);
      if (first) hoist(node.body, first.start, body ? 'var' : 'let');
    }
  });
  return rewritten > 0 ? edited : null;
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Calls `see(node, parent)` for every node of a syntax tree, depth first (chunks.mjs reads the bundle with it too). */
export function visit(node, see, parent = undefined) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((child) => visit(child, see, parent));
  if (typeof node.type === 'string') see(node, parent);
  const next = typeof node.type === 'string' ? node : parent;
  for (const key of Object.keys(node)) if (key !== 'type' && typeof node[key] === 'object') visit(node[key], see, next);
}
