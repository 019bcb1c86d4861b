// Every function declaration of the bundle, written as a parenthesized function expression that V8 compiles with
// the file. V8 compiles a function declaration only when it is first called, and Node's compile cache (Node 22+)
// keeps the code of a file as it was compiled, before it ran: every function a call runs was compiled again on
// every run (commander's, undici's, fleetctl's own). A parenthesized function expression is compiled at once, so
// the cache keeps it. Cached single requests took 2% to 10% less CPU time on Node 22, 24 and 26 (medians of 31 to
// 61 interleaved runs); Node 20, which has no compile cache, compiles more on every run: 3% to 9% more, still
// about three quarters of the bare script's (bench/latency.mjs). The first run after a build pays the same.
//   function name(a) { ... }   becomes   var name = (function name(a) { ... });
// (let in a block that is no function's body, whose declarations are its own), moved to the start of the body it
// was declared in (after its directives), so that it exists from the start of its scope, as a declaration did. One difference remains: a declaration exists before its module runs, which
// matters only to a module that calls it from an import cycle between files; test/build/startup.test.ts holds
// dist/ free of such cycles. Switched off with esbuild's helper rewrites (FLEETCTL_BUILD_HELPER_REWRITES=off).
import MagicString from 'magic-string';

/**
 * Chunks off the path of a single request (the sandbox and its certificate maker, the webhook, status, history,
 * media and guided commands, --jq): left as written, they keep the package within its 1 MB (.ci/smoke-installed).
 */
export const LEFT_AS_WRITTEN_CHUNKS = ['sandbox', 'selfsigned', 'tls-certificate', 'state-file', 'state-changes', 'webhook-config', 'webhook', 'webhooks', 'status', 'history', 'media', 'guided', 'jq'];
// a chunk's name is its entry's, with esbuild's hash of it when it came from a dynamic import
const LEFT_AS_WRITTEN = new RegExp(`^(${LEFT_AS_WRITTEN_CHUNKS.join('|')})(-[A-Z0-9]+)?$`);

/** The Rollup plugin: each chunk rewritten as it is written, but those of LEFT_AS_WRITTEN. */
export function eagerFunctions() {
  return {
    name: 'eager-functions',
    renderChunk(code, chunk, options) {
      if (LEFT_AS_WRITTEN.test(chunk.name)) return null;
      const edited = eagerFunctionDeclarations(code, (text) => this.parse(text));
      if (!edited) return null;
      return { code: edited.toString(), map: options.sourcemap ? edited.generateMap({ hires: 'boundary' }) : undefined };
    },
  };
}

/** `code` with its named function declarations hoisted as function expressions (a MagicString); null when it has none. */
export function eagerFunctionDeclarations(code, parse) {
  const edited = new MagicString(code);
  let rewritten = 0;
  // `kind`: var in a function's body or a module's, where a declaration is; let in any other block, whose
  // declarations are the block's own
  const hoist = (statements, start, kind) => {
    for (const statement of statements) {
      if (statement.type !== 'FunctionDeclaration' || !statement.id) continue;
      // the first statement of its body is where the others go: it stays in place
      if (statement.start !== start) edited.move(statement.start, statement.end, start);
      edited.prependRight(statement.start, `${kind} ${statement.id.name} = (`);
      edited.appendLeft(statement.end, ');\n');
      rewritten++;
    }
  };
  visit(parse(code), (node, parent) => {
    if (node.type === 'Program') hoist(node.body, 0, 'var');
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
