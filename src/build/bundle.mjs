// The CLI's bundle: esbuild bundles src/ (splitting: each `import()` a chunk of its own), then Rollup regroups
// its chunks and writes them as CommonJS (src/build/chunks.mjs). build.mjs runs it into dist/; test/build/helper-rewrites.test.ts runs it
// into a folder of its own, without the rewrites of esbuild's helpers.
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { regroupChunks } from './chunks.mjs';
import { loadedOnFirstUse } from './first-use.mjs';
import { sideEffectFreePackages } from './side-effect-free.mjs';

/**
 * Bundles src/main.ts, and src/compile-cache.ts alone, into `outDir` (emptied first: chunk names carry content
 * hashes, so no stale chunk is shipped). `helperRewrites: false` leaves esbuild's runtime helpers as esbuild wrote
 * them (chunks.mjs); `sourceMaps: true` writes a linked source map beside each file. Answers the time each stage took, in milliseconds: wall clock and this process's CPU
 * (on a busy shared machine, the CPU time says more).
 */
export async function bundleCli({ root, outDir, helperRewrites = true, sourceMaps = false }) {
  const { version, versionLine } = versionOf(root);
  const stage = path.join(outDir, '.esbuild');
  rmSync(outDir, { recursive: true, force: true });
  const started = performance.now();
  const startedCpu = cpuMs();
  // what both builds below are: ES modules for Node, into the stage folder Rollup reads (chunks.mjs)
  const common = { outdir: stage, absWorkingDir: root, entryNames: '[name]', metafile: true, bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: sourceMaps ? 'linked' : false, logLevel: 'warning' };
  const result = await build({
    ...common,
    entryPoints: [path.join(root, 'src/main.ts')],
    chunkNames: 'chunks/[name]-[hash]',
    // Heavy modules (undici, prompts, ora, cli-table3, conf) become chunks that only the commands needing
    // them load: `fleetctl --version` must start about as fast as node itself.
    splitting: true,
    // jq-web finds its WebAssembly file next to its own script, and @napi-rs/keyring is a native module with a
    // prebuilt binary: both stay in node_modules, loaded at run time by the commands that need them.
    external: ['jq-web', '@napi-rs/keyring'],
    // a require that first-use.mjs names gets its stand-in before any built-in's
    plugins: [sideEffectFreePackages, loadedOnFirstUse(root), builtinsAsCommonJs],
    define: versionDefines(root),
  });
  // compile-cache.js is bundled alone, a file that imports nothing: bin/fleetctl.js loads it first, to turn the
  // cache on before any chunk is compiled. Bundled with the rest, esbuild had it import the chunk of its runtime
  // helpers, which every chunk then imported from a file of their own: one more import for Node to resolve in
  // each file, on every call (startup.test.ts counts them). Rollup writes it with the others (chunks.mjs).
  const alone = await build({ ...common, entryPoints: [path.join(root, 'src/compile-cache.ts')], plugins: [builtinsAsCommonJs] });
  // its modules the bundle has too (io/directories.ts) are the same files, imports and all
  for (const [input, about] of Object.entries(alone.metafile.inputs)) result.metafile.inputs[input] ??= about;
  Object.assign(result.metafile.outputs, alone.metafile.outputs);
  requireNoRuntimeRequire(result.metafile);
  const bundled = performance.now();
  const bundledCpu = cpuMs();

  const meta = await regroupChunks({ root, stageDir: stage, stageMeta: result.metafile, outDir, helperRewrites, sourceMaps });
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'version.js'), `'use strict';\nexports.VERSION = ${JSON.stringify(version)};\nexports.VERSION_LINE = ${JSON.stringify(versionLine)};\n`);
  // dist/'s files are CommonJS (chunks.mjs), in a package whose "type" says ES modules: the package.json next
  // to them says otherwise. It is also what Node looks for, from a file's folder up, for each file it loads, and
  // Node 22 keeps no note of a folder without one: a cached `devices get` tried to open dist/chunks/package.json
  // and dist/package.json 106 times. Found next to every file, it is read once.
  for (const folder of [outDir, path.join(outDir, 'chunks')]) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'package.json'), COMMONJS_SCOPE);
  }
  // Tests read the metafile to prove which chunks a command loads.
  writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(meta));
  return { esbuildMs: bundled - started, esbuildCpuMs: bundledCpu - startedCpu, rollupMs: performance.now() - bundled, rollupCpuMs: cpuMs() - bundledCpu };
}

/** dist/'s files are CommonJS, as bin/'s are (bin/package.json). */
const COMMONJS_SCOPE = '{ "type": "commonjs" }\n';

/**
 * The version, and the line `fleetctl --version` prints: it names the product and its npm package, since another
 * project's installer on npm also puts a `fleetctl` on PATH and this line is how a user tells which one runs.
 * The version is the second word.
 */
export function versionOf(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return { version: pkg.version, versionLine: `fleetctl ${pkg.version} (${pkg.name}) — Fleet and Telematics Developer API CLI` };
}

/** esbuild's `define` of both, for every build of the CLI (dist/ and the standalone executable). */
export function versionDefines(root) {
  const { version, versionLine } = versionOf(root);
  return { __FLEETCTL_VERSION__: JSON.stringify(version), __FLEETCTL_VERSION_LINE__: JSON.stringify(versionLine) };
}

/** CPU time of this process (esbuild's own process not included: its service runs beside it), user and system. */
export function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// Node's built-in modules, loaded for what is used of them: `import { x } from 'node:fs'` in an ES module makes
// Node build the module's ES facade, which reads every export once, lazy getters included: fs.promises loads
// node:fs/promises, crypto.webcrypto the Web Crypto API, process.report the diagnostic report. Imported as
// CommonJS, a member is read where it is used. A dependency's `require('stream')` gets the same stand-in: an
// ES module has no `require`, and esbuild's __require helper would throw without one.
const BUILTIN = new RegExp(`^(node:.+|${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})$`);
export const builtinsAsCommonJs = {
  name: 'builtins-as-commonjs',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined));
    pluginBuild.onResolve({ filter: BUILTIN }, (args) => (args.kind === 'require-call' ? { path: args.path, namespace: 'builtin' } : undefined));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: builtinStandIn(args.path), loader: 'js' }));
  },
};

/** A CommonJS module that is the built-in one; a name this Node does not have (node:sqlite on 20) throws as require does. */
function builtinStandIn(id) {
  return `const builtin = process.getBuiltinModule(${JSON.stringify(id)});
if (builtin === undefined) throw Object.assign(new Error(${JSON.stringify(`No such built-in module: ${id}`)}), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
module.exports = builtin;
`;
}

/**
 * esbuild writes ES modules, which have no `require`: a `require()` it leaves to run time (an external package)
 * would throw "Dynamic require ... is not supported". Read from esbuild's metafile, not its output.
 */
function requireNoRuntimeRequire(metafile) {
  const left = Object.entries(metafile.inputs).flatMap(([input, { imports }]) => imports.filter((i) => i.kind === 'require-call' && i.external).map((i) => `${input} requires ${i.path}`));
  if (left.length > 0) throw new Error(`the bundle would require() at run time, which an ES module cannot:\n  ${left.join('\n  ')}\nimport it instead, or bundle it`);
}
