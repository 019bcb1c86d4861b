#!/usr/bin/env node
// Benchmark (not a test): `fleetctl status -o json` over more than 100,000 devices (a sandbox of --devices 120000,
// of which the admin client's tenant sees about 85%), then over single fleets of the same world, printing the wall
// time and the peak RSS of each. Memory must stay flat: status counts devices as the pages arrive and never holds
// the records, so the peak over 100,000 devices should be close to the peak over a few thousand.
// Needs a build first: npm run build && node bench/status.mjs [--devices N]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, runCli, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '120000' } } });
const devices = Number(values.devices);
const MAX_RSS = path.join(ROOT, 'bench/max-rss.cjs');

/** One `status -o json` run, measured; returns its report, wall time and peak RSS. */
async function measured(args, env) {
  const rssFile = path.join(env.HOME, `rss-${process.hrtime.bigint()}`);
  const started = performance.now();
  const result = await runCli(['status', '-o', 'json', ...args], { ...env, BENCH_RSS_FILE: rssFile }, ['-r', MAX_RSS]);
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`status ${args.join(' ')} exited with ${result.code}:\n${result.stderr}`);
  return { report: JSON.parse(result.stdout), seconds, rss: Number(readFileSync(rssFile, 'utf8')) };
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

console.log(`node ${process.version}, ${os.cpus().length} cores; sandbox of ${devices.toLocaleString('en')} devices`);
const startedAt = performance.now();
const sandbox = await startSandbox(['--devices', String(devices)]);
console.log(`sandbox ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-status-'));
try {
  const env = sandboxEnv(sandbox, dir);
  const fleets = JSON.parse((await runCli(['fleets', 'list', '--all', '-o', 'json'], env)).stdout);
  const whole = await measured([], env);
  const d = whole.report.devices;
  console.log(`whole world: ${d.total.toLocaleString('en')} devices (${d.reporting} reporting, ${d.stale} stale, ${d.never_reported} never) in ${whole.seconds.toFixed(1)} s; peak RSS ${mib(whole.rss)}`);
  // the largest of a few fleets, as a smaller run over the same world: the memory of the two should barely differ
  let small;
  for (const fleet of fleets.slice(0, 3)) {
    const run = await measured(['--fleet-id', fleet.id], env);
    if (!small || run.report.devices.total > small.report.devices.total) small = run;
  }
  if (small) console.log(`one fleet: ${small.report.devices.total.toLocaleString('en')} devices in ${small.seconds.toFixed(1)} s; peak RSS ${mib(small.rss)}`);
  if (small) console.log(`peak RSS, whole world over one fleet: ${(whole.rss / small.rss).toFixed(2)}x for ${(d.total / Math.max(1, small.report.devices.total)).toFixed(0)}x the devices`);
} finally {
  sandbox.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
