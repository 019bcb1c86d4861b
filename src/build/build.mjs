// Build: generate code from the OpenAPI document, bundle the CLI with esbuild, then regroup its chunks with
// Rollup (src/build/chunks.mjs). Completions: `npm run completions`.
import { build } from 'esbuild';
import { sideEffectFreePackages } from './side-effect-free.mjs';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { regroupChunks } from './chunks.mjs';
import { loadedOnFirstUse } from './first-use.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const version = pkg.version;
// `fleetctl --version` names the product and its npm package: another project's installer on npm also puts a
// `fleetctl` on PATH, and this line is how a user tells which one runs. The version is the second word.
const versionLine = `fleetctl ${version} (${pkg.name}) — Fleet and Telematics Developer API CLI`;

if (existsSync(path.join(root, 'src/openapi/v1.json'))) {
  const { generateFromOpenApi } = await import('./gen-openapi.mjs');
  await generateFromOpenApi(root);
}

// Chunk names carry content hashes: start from an empty dist/ so no stale chunk is shipped.
const dist = path.join(root, 'dist');
const stage = path.join(dist, '.esbuild');
rmSync(dist, { recursive: true, force: true });

// Node's built-in modules, loaded for what is used of them: `import { x } from 'node:fs'` in an ES module makes
// Node build the module's ES facade, which reads every export once, lazy getters included: fs.promises loads
// node:fs/promises, crypto.webcrypto the Web Crypto API, process.report the diagnostic report. Imported as
// CommonJS, a member is read where it is used.
const builtinsAsCommonJs = {
  name: 'builtins-as-commonjs',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const result = await build({
  // compile-cache is loaded first, alone: it must turn the cache on before the bundle is compiled
  entryPoints: [path.join(root, 'src/main.ts'), path.join(root, 'src/compile-cache.ts')],
  outdir: stage,
  absWorkingDir: root,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Heavy modules (undici, prompts, ora, cli-table3, conf) become chunks that only the commands needing
  // them load: `fleetctl --version` must start about as fast as node itself.
  splitting: true,
  // jq-web finds its WebAssembly file next to its own script, and @napi-rs/keyring is a native module with a
  // prebuilt binary: both stay in node_modules, loaded at run time by the commands that need them.
  external: ['jq-web', '@napi-rs/keyring'],
  logLevel: 'warning',
  plugins: [sideEffectFreePackages, builtinsAsCommonJs, loadedOnFirstUse(root)],
  define: { __FLEETCTL_VERSION__: JSON.stringify(version), __FLEETCTL_VERSION_LINE__: JSON.stringify(versionLine) },
});

const meta = await regroupChunks({ root, stageDir: stage, stageMeta: result.metafile, outDir: dist });
rmSync(stage, { recursive: true, force: true });

writeFileSync(path.join(dist, 'version.js'), `export const VERSION = ${JSON.stringify(version)};\nexport const VERSION_LINE = ${JSON.stringify(versionLine)};\n`);

// Tests read the metafile to prove which chunks a command loads.
writeFileSync(path.join(dist, 'meta.json'), JSON.stringify(meta));
