#!/usr/bin/env node
// Benchmark (not a test): what one fleetctl invocation costs over a bare Node script doing the same request with
// fetch and the same token (bench/bare-client.mjs), from one run against one sandbox, the repetitions
// interleaved so that a busy machine weighs on both sides alike. Scripts call fleetctl in loops: its fixed cost
// per call matters as much as its start-up. Needs a build first: npm run build && node bench/latency.mjs
//   single requests, token cached: devices get ID -o json; devices list --limit 1; devices reboot HW --yes
//     (a replay: the same Idempotency-Key each time). Target: at most the bare script's time (1.0x), on every
//     Node fleetctl supports (20, 22, 24, 26); README "Development" gives the last figures.
//   paging: devices list --all --limit 500 -o ndjson over every device, against a pager that fetches each page
//     and writes each item with JSON.stringify, honouring back-pressure. Targets: 1.15x the time, 1.1x the
//     peak RSS.
//   Each side's CPU time is measured too (bench/cpu-time.cjs, user and system): on a machine busy with other work
//   the wall time also counts the waits for a core, which the CPU time does not.
//   `devices get` also runs with fleetctl's compile cache turned off (NODE_DISABLE_COMPILE_CACHE=1,
//   src/compile-cache.ts), to show what the cache brings. Any Node: npx -y node@24 bench/latency.mjs
// Options: --reps N (20), --paging-reps N (5), --devices N (100000).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, ROOT, runCli, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '20' },
    'paging-reps': { type: 'string', default: '5' },
    devices: { type: 'string', default: '100000' },
  },
});
const reps = Number(values.reps);
const pagingReps = Number(values['paging-reps']);
const devices = Number(values.devices);
const BARE = path.join(ROOT, 'bench/bare-client.mjs');
const MAX_RSS = path.join(ROOT, 'bench/max-rss.cjs');
const CPU_TIME = path.join(ROOT, 'bench/cpu-time.cjs');
/** The compile cache names its files by their checksum (zlib.crc32: Node 20.15 and later). */
const hasCompileCache = typeof zlib.crc32 === 'function';
/** A single cached request: no slower than the bare script, the median of the interleaved runs. */
const SINGLE_TARGET = 1.0;

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${load()}; ${devices.toLocaleString('en')} devices, ${reps} repetitions (paging ${pagingReps})`);

/**
 * Runs node with args; resolves with the wall time in ms, the exit code, stdout (or its line count), the peak RSS
 * (`rss`) and the CPU time in ms (`cpu`).
 */
function timed(args, env, { countLines = false, rss = false, cpu = false } = {}) {
  const rssFile = rss ? path.join(env.HOME, `rss-${process.hrtime.bigint()}`) : undefined;
  const cpuFile = cpu ? path.join(env.HOME, `cpu-${process.hrtime.bigint()}`) : undefined;
  const nodeArgs = [...(rss ? ['-r', MAX_RSS] : []), ...(cpu ? ['-r', CPU_TIME] : [])];
  const childEnv = { ...env, ...(rssFile && { BENCH_RSS_FILE: rssFile }), ...(cpuFile && { BENCH_CPU_FILE: cpuFile }) };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeArgs, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      if (!countLines) stdout += chunk;
      else for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}:\n${stderr}`));
      else resolve({ ms, stdout, lines, rss: rssFile ? Number(readFileSync(rssFile, 'utf8')) : undefined, cpuMs: cpuFile ? Number(readFileSync(cpuFile, 'utf8')) / 1000 : undefined });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Each repetition runs every variant once, in an order rotated from one repetition to the next. */
async function interleave(variants, count) {
  const samples = variants.map(() => []);
  for (let rep = 0; rep < count; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (k + rep) % variants.length;
      samples[i].push(await variants[i].run(rep));
    }
  }
  return samples;
}

function verdict(ratio, target) {
  return `${ratio.toFixed(2)}x (target <= ${target}x: ${ratio <= target ? 'met' : 'MISSED'})`;
}

/** The median ratio of the pairs of one repetition: what a drift in load during the run cannot bias. */
function pairedRatio(a, b) {
  return median(a.map((x, i) => x.ms / b[i].ms));
}

const sandbox = await startSandbox(['--devices', String(devices)]);
const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-'));
let failed = false;
try {
  const env = sandboxEnv(sandbox, dir, { XDG_CACHE_HOME: path.join(dir, 'cache') });
  const first = await runCli(['devices', 'list', '--limit', '1', '-o', 'json'], env);
  const [device] = JSON.parse(first.stdout);
  const key = 'bench-latency-replay';
  // the first of each caches its token and, a kind of run new to the compile cache, the code it compiled; the
  // reboot is sent once, then only replayed
  for (const args of [['devices', 'get', device.id, '-o', 'json'], ['devices', 'reboot', device.hardware_id, '--yes', '--idempotency-key', key, '-o', 'json']]) {
    const warm = await runCli(args, env);
    if (warm.code !== 0) throw new Error(`${args.join(' ')} exited with ${warm.code}:\n${warm.stderr}`);
  }
  const tokens = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).tokens;
  const tokenFor = (scope) => Object.values(tokens).find((t) => t.scope.endsWith(scope)).access_token;
  const readEnv = { ...env, BENCH_TOKEN: tokenFor('devices_read') };
  const rebootEnv = { ...env, BENCH_TOKEN: tokenFor('device_commands_reboot') };
  const noCache = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };
  // each side's CPU time too: what the load of a shared machine does not add to
  const cli = (args, e = env) => () => timed([BIN, ...args], e, { cpu: true });
  const bare = (args, e) => () => timed([BARE, ...args], e, { cpu: true });

  const pairs = [
    ['devices get ID -o json', cli(['devices', 'get', device.id, '-o', 'json']), bare(['get', sandbox.baseUrl, device.id], readEnv)],
    ['devices list --limit 1', cli(['devices', 'list', '--limit', '1', '-o', 'json']), bare(['list', sandbox.baseUrl, '1'], readEnv)],
    ['devices reboot HW --yes (replay)', cli(['devices', 'reboot', device.hardware_id, '--yes', '--idempotency-key', key, '-o', 'json']), bare(['reboot', sandbox.baseUrl, device.hardware_id, key], rebootEnv)],
  ];
  const variants = pairs.flatMap(([name, ours, theirs]) => [{ name: `fleetctl ${name}`, run: ours }, { name: `bare ${name}`, run: theirs }]);
  if (hasCompileCache) variants.push({ name: 'fleetctl devices get ID -o json, compile cache off', run: cli(['devices', 'get', device.id, '-o', 'json'], noCache) });
  variants.push({ name: 'node -e 0', run: () => timed(['-e', '0'], env) });
  const samples = await interleave(variants, reps);

  console.log('\nsingle requests (median wall time of a whole invocation):');
  for (let i = 0; i < variants.length; i++) console.log(`  ${median(samples[i].map((s) => s.ms)).toFixed(0).padStart(6)} ms  ${variants[i].name}`);
  for (let p = 0; p < pairs.length; p++) {
    const [ours, theirs] = [samples[2 * p], samples[2 * p + 1]];
    const same = JSON.stringify(JSON.parse(ours[0].stdout)) === JSON.stringify(JSON.parse(theirs[0].stdout));
    const ratio = median(ours.map((s) => s.ms)) / median(theirs.map((s) => s.ms));
    failed ||= ratio > SINGLE_TARGET || !same;
    const cpuRatio = median(ours.map((s) => s.cpuMs)) / median(theirs.map((s) => s.cpuMs));
    console.log(`  ${pairs[p][0]}: ${verdict(ratio, SINGLE_TARGET)}; paired ${pairedRatio(ours, theirs).toFixed(2)}x; CPU time ${cpuRatio.toFixed(2)}x; same output: ${same ? 'yes' : 'NO'}`);
  }
  if (hasCompileCache) {
    const [on, off] = [samples[0], samples[2 * pairs.length]];
    console.log(`  compile cache: devices get ${median(off.map((s) => s.ms)).toFixed(0)} ms without, ${median(on.map((s) => s.ms)).toFixed(0)} ms with (${(median(on.map((s) => s.ms)) / median(off.map((s) => s.ms))).toFixed(2)}x)`);
  } else {
    console.log(`  compile cache: not in Node ${process.version} (zlib.crc32 comes with 20.15)`);
  }

  const paging = [
    { name: 'fleetctl devices list --all --limit 500 -o ndjson', run: () => timed([BIN, 'devices', 'list', '--all', '--limit', '500', '-o', 'ndjson'], env, { countLines: true, rss: true }) },
    { name: 'bare pager', run: () => timed([BARE, 'pager', sandbox.baseUrl, '500'], readEnv, { countLines: true, rss: true }) },
  ];
  const [ours, theirs] = await interleave(paging, pagingReps);
  console.log('\npaging every device the admin client sees (median wall time, median peak RSS):');
  for (const [variant, runs] of [[paging[0], ours], [paging[1], theirs]]) {
    console.log(`  ${median(runs.map((r) => r.ms)).toFixed(0).padStart(6)} ms  ${(median(runs.map((r) => r.rss)) / 1024 ** 2).toFixed(0).padStart(4)} MB  ${variant.name}`);
  }
  // every run, ours and theirs, must print the same number of items
  const lines = new Set([...ours, ...theirs].map((r) => r.lines));
  failed ||= lines.size !== 1;
  console.log(`  items printed: ${[...lines].join(', ')}${lines.size === 1 ? ' by every run' : ': the runs DIFFER'}`);
  const timeRatio = median(ours.map((r) => r.ms)) / median(theirs.map((r) => r.ms));
  const rssRatio = median(ours.map((r) => r.rss)) / median(theirs.map((r) => r.rss));
  failed ||= timeRatio > 1.15 || rssRatio > 1.1;
  console.log(`  time: ${verdict(timeRatio, 1.15)}; paired ${pairedRatio(ours, theirs).toFixed(2)}x`);
  console.log(`  peak RSS: ${verdict(rssRatio, 1.1)}`);
  console.log(`\nload average at the end: ${load()} (on a busy machine, the ratios say more than the times)`);
} finally {
  sandbox.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
