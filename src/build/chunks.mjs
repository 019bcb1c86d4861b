// The second half of the build: esbuild's split output, regrouped into fewer, larger chunks by Rollup.
// esbuild makes one chunk for every set of entry points that reach a module, and every `import()` is an entry
// point: a cached `devices get` loaded 49 files. Node's ES-module loader spends about half a millisecond on each
// file (resolve, URL and package-scope work) whatever its size, a fifth of the command's own time on Node 22
// and 24. Rollup's manualChunks puts together what is always loaded together; what loads on demand (the other
// groups, the sandbox, prompts, tables, YAML, jq) stays apart. test/build/startup.test.ts holds the line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rollup } from '@rollup/wasm-node';
import MagicString from 'magic-string';

/** The modules a request loads at once (src/factory.ts, buildApiClient and createTransport): one chunk. */
const REQUEST_ENTRIES = [
  'src/api/client.ts',
  'src/auth/tokens.ts',
  'src/auth/secure-url.ts',
  'src/openapi/operations.ts',
  'src/shared/undici.ts',
  'src/http/transport.ts',
  'src/http/dispatcher.ts',
];
/** Loaded by request modules on demand (a proxy set): kept apart, but what they share with a request is the request's. */
const LOADED_BY_REQUESTS = ['node_modules/undici/lib/dispatcher/env-http-proxy-agent.js'];
const COMMAND_GROUP = /^src\/commands\/[^/]+\/index\.ts$/;
const SHARED_BY_GROUPS = 4;

/**
 * Rebundles the esbuild output in `stageDir` (with its metafile) into `outDir`, and returns a metafile of the
 * same shape for the new files: each output with the source inputs it holds.
 */
export async function regroupChunks({ root, stageDir, stageMeta, outDir }) {
  const outputs = Object.fromEntries(Object.entries(stageMeta.outputs).map(([key, output]) => [path.resolve(root, key), output]));
  const entryFile = (entryPoint) => Object.keys(outputs).find((file) => outputs[file].entryPoint === entryPoint);
  const closure = (starts) => {
    const seen = new Set();
    const pending = [...starts];
    while (pending.length > 0) {
      const file = pending.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const imported of outputs[file]?.imports ?? []) {
        const target = path.resolve(root, imported.path);
        if (imported.kind === 'import-statement' && outputs[target]) pending.push(target);
      }
    }
    return seen;
  };
  const boot = closure([entryFile('src/compile-cache.ts')]);
  const core = closure([entryFile('src/main.ts')]);
  // for each module, the entry points (each import() target) whose static imports reach it
  const reachers = new Map();
  for (const entry of Object.keys(outputs).filter((file) => outputs[file].entryPoint)) {
    for (const file of closure([entry])) reachers.set(file, (reachers.get(file) ?? new Set()).add(entry));
  }
  const requestEntries = new Set(REQUEST_ENTRIES.map(entryFile));
  // undici's code is reached by its proxy agent too, which only a request loads
  const requestFamily = new Set([...requestEntries, ...LOADED_BY_REQUESTS.map(entryFile)]);
  const groupEntries = new Set(Object.keys(outputs).filter((file) => COMMAND_GROUP.test(outputs[file].entryPoint ?? '')));
  const reachedFrom = (file, entries) => [...(reachers.get(file) ?? [])].some((entry) => entries.has(entry));
  const onlyFrom = (file, entries) => [...(reachers.get(file) ?? [])].every((entry) => entries.has(entry));
  const chunkOf = (file) => {
    if (outputs[file]?.entryPoint === 'src/main.ts' || outputs[file]?.entryPoint === 'src/compile-cache.ts') return undefined;
    // the compile cache is turned on before the bundle loads: its own few modules come first, alone
    if (boot.has(file)) return 'boot';
    if (core.has(file)) return 'core';
    // only what nothing but a request loads: `--help` and completion must not bring undici with a shared module
    if (reachedFrom(file, requestEntries) && onlyFrom(file, requestFamily)) return 'request';
    // what a request shares with other commands (token cache, problem bodies, paging): small, no undici
    if (reachedFrom(file, requestEntries)) return 'request-shared';
    // what most command groups share (the pickers, paging, dates, input reading of their list and get verbs):
    // one chunk that any group's command loads; what two or three groups share (webhook code, event schemas)
    // stays apart
    if (onlyFrom(file, groupEntries) && reachers.get(file).size >= SHARED_BY_GROUPS) return 'commands';
    return undefined;
  };

  const builtinWrappers = builtinWrapperNames(Object.keys(outputs).filter((name) => name.endsWith('.js')).map((file) => readFileSync(file, 'utf8')));

  const bundle = await rollup({
    input: { main: path.join(stageDir, 'main.js'), 'compile-cache': path.join(stageDir, 'compile-cache.js') },
    // builtins, and the two packages esbuild leaves in node_modules (jq-web, @napi-rs/keyring)
    external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
    plugins: [withInputSourceMaps(), commonJsRuntime(builtinWrappers)],
    onwarn(warning, warn) {
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  const { output } = await bundle.write({
    dir: outDir,
    format: 'es',
    sourcemap: true,
    entryFileNames: '[name].js',
    // esbuild's names carry its hash (devices-QEAT7TXW): the name without it, and Rollup's hash
    chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
    manualChunks: chunkOf,
    // a module no rule names is not pulled into the first manual chunk that imports it (undici with a helper
    // that --help needs): Rollup's own chunking places it
    onlyExplicitManualChunks: true,
  });
  await bundle.close();

  const meta = { outputs: {} };
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    const inputs = {};
    for (const moduleId of Object.keys(chunk.modules)) Object.assign(inputs, outputs[moduleId]?.inputs);
    meta.outputs[path.relative(root, path.join(outDir, chunk.fileName))] = { inputs, bytes: Buffer.byteLength(chunk.code) };
  }
  return meta;
}

/** esbuild's source maps, handed to Rollup with each file so that the final maps still point at src/. */
function withInputSourceMaps() {
  return {
    name: 'input-source-maps',
    load(id) {
      // esbuild writes a linked map beside every file
      const code = readFileSync(id, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      return { code, map: JSON.parse(readFileSync(`${id}.map`, 'utf8')) };
    },
  };
}

/**
 * What esbuild's ES-module output needs to run the CommonJS dependencies it bundles (commander, undici...), made
 * cheap at start-up:
 * - `require`, for esbuild's __require helper to load Node's built-in modules with. It is made in the one
 *   module that holds the helper, where a banner would make it in every chunk: a createRequire() each, with
 *   its package-scope lookups.
 * - each bundled module's body, `__commonJS({ "path"(exports, module) {...} })`, written as a parenthesized
 *   function expression. V8 compiles those at once with the chunk, and so the compile cache (Node 22+) keeps
 *   them; a method is compiled only when first called, and so again on every run (the cache is made when
 *   the chunk is compiled, not after it ran).
 * - an ES import of a built-in module (`builtinWrappers`, the names of their stand-ins) seen through an
 *   object that inherits from the module, where esbuild's __toESM copies each of its exports into a getter of
 *   a new object: fs, crypto and process have a hundred or more, copied again in every file that imports them,
 *   a few milliseconds of every command. The module's members read the same either way; a built-in's getters
 *   do not depend on the object they are read through.
 */
function commonJsRuntime(builtinWrappers) {
  return {
    name: 'commonjs-runtime',
    transform(code) {
      const ast = this.parse(code);
      const edited = new MagicString(code);
      if (ESBUILD_REQUIRE_HELPER.test(code)) edited.prepend("const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);\n");
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
          edited.appendLeft(member.key.end, ': (function');
          edited.appendRight(member.value.end, ')');
        }
      });
      if (importsBuiltin) edited.prepend(`const ${BUILTIN_NAMESPACE} = (builtin) => Object.create(builtin, { default: { value: builtin, enumerable: true } });\n`);
      return edited.hasChanged() ? { code: edited.toString(), map: edited.generateMap({ hires: true }) } : null;
    },
  };
}

/**
 * The names esbuild gives the CommonJS stand-ins build.mjs makes for `import ... from 'node:*'`, in its output
 * files' `code`. A name is not unique across files (node:fs/promises and node:stream/promises are both
 * require_promises): it counts only when every module wrapped under it, in any file, is a built-in's stand-in.
 */
export function builtinWrapperNames(code) {
  const wrapped = new Map();
  for (const text of code) {
    for (const [, name, id] of text.matchAll(COMMONJS_WRAPPER)) wrapped.set(name, [...(wrapped.get(name) ?? []), id]);
  }
  return new Set([...wrapped].filter(([, ids]) => ids.every((id) => id.startsWith('builtin:node:'))).map(([name]) => name));
}

/** How esbuild wraps a CommonJS module, such as a built-in's stand-in: `var require_node_fs = __commonJS({ "builtin:node:fs"...`. */
const COMMONJS_WRAPPER = /^var (\w+) = __commonJS\(\{\s*"([^"]+)"/gm;
const BUILTIN_NAMESPACE = '__builtinNamespace';

/** esbuild's __require: the one place its output refers to a `require` it does not declare. */
const ESBUILD_REQUIRE_HELPER = /typeof require !== "undefined"/;

function visit(node, see) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((child) => visit(child, see));
  if (typeof node.type === 'string') see(node);
  for (const key of Object.keys(node)) if (key !== 'type' && typeof node[key] === 'object') visit(node[key], see);
}
