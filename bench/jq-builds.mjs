#!/usr/bin/env node
// Benchmark (not a test): the jq builds shipped inside npm packages, compared for correctness, size and start
// cost; the choice behind --jq (src/output/jq.ts). Install the candidates in a scratch directory first:
//   D=$(mktemp -d) && npm install --prefix "$D" jq-web@0.6.2 jq-wasm@1.0.1 @pixiebrix/jq-web@0.5.1
//   node bench/jq-builds.mjs "$D"
// Each candidate runs in a process of its own: time to a first result, a set of filters that only a real jq
// gets right, 1,000 runs in one process (a build that breaks after a few hundred runs cannot serve a long
// list), and the cost of a run of 1 and of 500 items.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';


const scratch = process.argv[2];
if (!scratch) throw new Error('usage: node bench/jq-builds.mjs SCRATCH_DIR (see the comment at the top)');
const CANDIDATES = {
  'jq-web': "require(M)",
  'jq-wasm': "Promise.resolve(require(M))",
  '@pixiebrix/jq-web': "require(M)",
};

const CASES = [
  ['..|numbers', '{"a":[1,{"b":2}],"c":"x","d":3.5}', '[..|numbers]', ['-c'], '[1,2,3.5]'],
  ['group_by', '[{"t":"a"},{"t":"b"},{"t":"a"}]', 'group_by(.t)|map({t:.[0].t,n:length})', ['-c'], '[{"t":"a","n":2},{"t":"b","n":1}]'],
  ['@csv', '[1,"a,b","c\\"d",null]', '@csv', ['-r'], '1,"a,b","c""d",'],
  ['try/catch', '{}', 'try error("boom") catch ("caught: " + .)', ['-c'], '"caught: boom"'],
  ['limit', 'null', '[limit(3; range(100))]', ['-c'], '[0,1,2]'],
  ['reduce', '[1,2,3,4]', 'reduce .[] as $x (0; . + $x)', ['-c'], '10'],
  ['interpolation', '{"n":"dev","c":3}', '"\\(.n) has \\(.c)"', ['-r'], 'dev has 3'],
  ['$__loc__', 'null', '$__loc__', ['-c'], '{"file":"<top-level>","line":1}'],
  ['pick (1.7)', '{"a":{"b":1,"c":2}}', 'pick(.a.b)', ['-c'], '{"a":{"b":1}}'],
  ['inputs', '1\n2\n3', 'reduce inputs as $x (.; . + $x)', ['-c'], '6'],
];

function size(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? size(full) : statSync(full).size;
  }
  return total;
}

const probe = (name, load) => `
const M = ${JSON.stringify(path.join(scratch, 'node_modules', name))};
const t0 = performance.now();
(async () => {
  const jq = await ${load};
  const raw = async (input, filter, flags) => { try { return String((await jq.raw(input, filter, [...flags])) ?? '').trim(); } catch (e) { return 'ERROR ' + String(e.message).split('\\n')[0]; } };
  const first = await raw('{"a":1}', '.a', ['-c']);
  const firstMs = performance.now() - t0;
  const cases = [];
  for (const [name, input, filter, flags, want] of ${JSON.stringify(CASES)}) cases.push([name, (await raw(input, filter, flags)) === want]);
  console.log(JSON.stringify({ first, firstMs, cases, broken: 'crashed', oneMs: NaN, pageMs: NaN, exitCode: process.exitCode ?? 0 }));
  let broken = -1;
  for (let i = 0; i < 1000 && broken < 0; i++) if ((await raw('{"h":"HW-1"}', '.h', ['-r'])) !== 'HW-1') broken = i;
  const item = JSON.stringify({ id: 'x', hardware_id: 'HW-000001', name: 'Truck 1', capabilities: ['reboot'] });
  let t = performance.now();
  for (let i = 0; i < 50; i++) await raw(item, '.hardware_id', ['-r']);
  const oneMs = (performance.now() - t) / 50;
  const page = Array.from({ length: 500 }, () => item).join('\\n');
  t = performance.now();
  for (let i = 0; i < 10; i++) await raw(page, '.hardware_id', ['-r']);
  const pageMs = (performance.now() - t) / 10;
  console.log(JSON.stringify({ first, firstMs, cases, broken, oneMs, pageMs, exitCode: process.exitCode ?? 0 }));
})();`;

for (const [name, load] of Object.entries(CANDIDATES)) {
  let stdout;
  try {
    stdout = execFileSync(process.execPath, ['-e', probe(name, load)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    // a build that aborts the process: what it printed before is still worth reporting
    stdout = error.stdout ?? '';
  }
  const last = stdout.trim().split('\n').filter((line) => line.startsWith('{')).pop();
  if (!last) {
    console.log(`${name}: did not run`);
    continue;
  }
  const result = JSON.parse(last);
  const passed = result.cases.filter(([, ok]) => ok).length;
  const failed = result.cases.filter(([, ok]) => !ok).map(([n]) => n);
  console.log(
    `${name}: ${(size(path.join(scratch, 'node_modules', name)) / 1e6).toFixed(1)} MB installed; first result ${result.firstMs.toFixed(0)} ms (${JSON.stringify(result.first)}); ` +
      `${passed}/${result.cases.length} filters right${failed.length ? ` (wrong: ${failed.join(', ')})` : ''}; ` +
      `${result.broken === 'crashed' ? 'the process aborted during 1000 runs' : result.broken < 0 ? '1000 runs correct' : `wrong from run ${result.broken}`}; process.exitCode left ${result.exitCode}; ` +
      `${result.oneMs.toFixed(1)} ms a run of 1 item, ${result.pageMs.toFixed(1)} ms a run of 500`,
  );
}
