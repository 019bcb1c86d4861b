// Writes src/build/hot-functions.json: the functions V8's coverage sees run in the calls scripts make in loops
// (CALLS below, against a sandbox), which the build compiles with their file (eager-functions.mjs). Run after a
// change to what those calls run: `npm run hot-functions`. A function missing from the list only loses the
// compile cache's help; the list is checked for staleness by test/build/eager-functions.test.ts.
// The calls run a build of their own, without the build's rewrites, so that each function is where esbuild put
// it: after the `// path` line of its module, a declaration or a CommonJS module's body.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rollup/parseAst';
import { sandboxEnv, startSandbox } from '../../bench/sandbox-process.mjs';
import { bundleCli } from './bundle.mjs';
import { MODULE_BODY, functionKey, moduleAt, moduleMarkers, visit } from './eager-functions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The calls bench/latency.mjs holds to the bare script's time, one request each: the first fetches the token, the
 * reboot is sent and then replayed (the same key). ID and HW stand for a device's id and hardware id. Only these:
 * each function another call adds (a table, --help, paging) is compiled with its file on every call, run or not,
 * and adding those made the reboot 7% slower.
 */
export const CALLS = [
  ['devices', 'list', '--limit', '1', '-o', 'json'],
  ['devices', 'get', 'ID', '-o', 'json'],
  ['devices', 'reboot', 'HW', '--yes', '--idempotency-key', 'hot-functions', '-o', 'json'],
  ['devices', 'reboot', 'HW', '--yes', '--idempotency-key', 'hot-functions', '-o', 'json'],
];

/** The functionKey()s of the functions that ran in `code` (a file of a build), by V8's coverage of it (`functions`). */
export function ranFunctions(code, functions) {
  // V8 starts a function's range at `function` for a declaration, at the key for a method
  const ranAt = new Set(functions.filter((fn) => fn.ranges[0].count > 0).map((fn) => fn.ranges[0].startOffset));
  const markers = moduleMarkers(code);
  const ran = new Set();
  visit(parseAst(code), (node) => {
    if (node.type === 'FunctionDeclaration' && node.id && ranAt.has(node.start)) ran.add(functionKey(moduleAt(markers, node.start), node.id.name));
    if (node.type === 'Property' && node.method && typeof node.key.value === 'string' && ranAt.has(node.start)) ran.add(functionKey(node.key.value, MODULE_BODY));
  });
  return ran;
}

async function main() {
  // under node_modules, so that the build finds jq-web and @napi-rs/keyring as dist/ does
  const cache = path.join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(path.join(cache, 'fleetctl-hot-functions-'));
  const sandbox = await startSandbox(['--devices', '200']);
  try {
    writeFileSync(path.join(work, 'package.json'), '{ "type": "module" }\n');
    cpSync(path.join(root, 'bin'), path.join(work, 'bin'), { recursive: true });
    await bundleCli({ root, outDir: path.join(work, 'dist'), helperRewrites: false });
    const coverage = path.join(work, 'coverage');
    const env = { ...sandboxEnv(sandbox, work), NODE_V8_COVERAGE: coverage, NODE_DISABLE_COMPILE_CACHE: '1' };
    const run = (args) => {
      const result = spawnSync(process.execPath, [path.join(work, 'bin/fleetctl.js'), ...args], { env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`fleetctl ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
      return result.stdout;
    };
    const [device] = JSON.parse(run(CALLS[0]));
    for (const call of CALLS.slice(1)) run(call.map((word) => (word === 'ID' ? device.id : word === 'HW' ? device.hardware_id : word)));
    const hot = new Set();
    for (const name of readdirSync(coverage)) {
      for (const script of JSON.parse(readFileSync(path.join(coverage, name), 'utf8')).result) {
        if (!script.url.startsWith('file:') || !script.url.includes('/dist/')) continue;
        for (const key of ranFunctions(readFileSync(fileURLToPath(script.url), 'utf8'), script.functions)) hot.add(key);
      }
    }
    const about = 'Written by src/build/gen-hot-functions.mjs (npm run hot-functions): the functions that run in its calls, which the build compiles with their file (src/build/eager-functions.mjs).';
    writeFileSync(path.join(root, 'src/build/hot-functions.json'), `${JSON.stringify({ about, calls: CALLS.map((call) => call.join(' ')), functions: [...hot].sort() }, null, 1)}\n`);
    console.error(`src/build/hot-functions.json: ${hot.size} functions`);
  } finally {
    sandbox.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
