// Build: generate code from the OpenAPI document, then bundle the CLI into dist/ (src/build/bundle.mjs: esbuild,
// then its chunks regrouped by Rollup). Completions: `npm run completions`. Prints the time of each stage.
// FLEETCTL_BUILD_HELPER_REWRITES=off leaves esbuild's runtime helpers as esbuild wrote them (src/build/commonjs-runtime.mjs):
// the fallback when a new esbuild writes them otherwise; it also leaves function declarations as written
// (src/build/eager-functions.mjs). FLEETCTL_BUILD_SOURCEMAPS=on writes a source map beside
// every file of dist/, for `node --enable-source-maps bin/fleetctl.js`: off by default, since nothing reads them
// otherwise (the package leaves them out) and writing them was a fifth of the build's time (2.2 s of 10.4 s).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { bundleCli, cpuMs } from './bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const started = performance.now();

if (existsSync(path.join(root, 'src/openapi/v1.json'))) {
  const [{ generateFromOpenApi }, { generateComposedDocument }] = await Promise.all([import('./gen-openapi.mjs'), import('./gen-composed.mjs')]);
  await Promise.all([generateFromOpenApi(root), generateComposedDocument(root)]);
}
const generated = performance.now();
const generatedCpu = cpuMs();

const switchedOff = /^(off|0|false|no)$/i.test(process.env.FLEETCTL_BUILD_HELPER_REWRITES ?? '');
const sourceMaps = /^(on|1|true|yes)$/i.test(process.env.FLEETCTL_BUILD_SOURCEMAPS ?? '');
const { esbuildMs, esbuildCpuMs, rollupMs, rollupCpuMs } = await bundleCli({ root, outDir: path.join(root, 'dist'), helperRewrites: !switchedOff, sourceMaps });

const seconds = (ms, cpu) => `${(ms / 1000).toFixed(1)} s (CPU ${(cpu / 1000).toFixed(1)} s)`;
console.error(
  `build: ${seconds(performance.now() - started, cpuMs())}: generate ${seconds(generated - started, generatedCpu)}, esbuild ${seconds(esbuildMs, esbuildCpuMs)}, rollup ${seconds(rollupMs, rollupCpuMs)}` +
    (switchedOff ? "; esbuild's helpers left as written (FLEETCTL_BUILD_HELPER_REWRITES=off)" : '') +
    (sourceMaps ? '; source maps written (FLEETCTL_BUILD_SOURCEMAPS=on)' : ''),
);
