#!/usr/bin/env node
// Benchmark (not a test): a reboot in waves with --wait over 2,000 devices against a sandbox limited to 100
// requests/s per client, whose devices come back 5 s after a reboot (plus up to 1 s, fixed per device). Its floor is
// what no client could beat:
//   the canary's pause (until its slowest device reported again) plus the larger of
//   - every command at the rate limit, then the slowest device's return after the last one, and
//   - every command and one last-reported read per device at the rate limit (no client knows a device is back
//     without reading it once; the spec has no call that reads many at once).
// The target is 1.1x that floor; the CLI's peak RSS is printed for the full run and for a quarter of it (flat
// memory: the same, not four times). Every device must be executed exactly once and come back.
// Needs a build first: npm run build && node bench/waves.mjs
// Options: --devices N (2000), --rate-limit R (100), --downtime-ms D (5000), --jitter-ms J (1000), --canary C (1%), --wave W (10%).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, runCli, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
    'rate-limit': { type: 'string', default: '100' },
    'downtime-ms': { type: 'string', default: '5000' },
    'jitter-ms': { type: 'string', default: '1000' },
    canary: { type: 'string', default: '1%' },
    wave: { type: 'string', default: '10%' },
  },
});
const rateLimit = Number(values['rate-limit']);
const MAX_RSS = path.join(ROOT, 'bench/max-rss.cjs');
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function bench(devices) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-waves-'));
  const scenario = path.join(dir, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({ name: 'bench-waves', device_reporting: { reboot_downtime_ms: Number(values['downtime-ms']), reboot_jitter_ms: Number(values['jitter-ms']) } }));
  // a world with enough devices that can reboot, within the admin's tenant
  const sandbox = await startSandbox(['--devices', String(Math.ceil(devices * 1.4)), '--rate-limit', String(rateLimit), '--scenario', scenario]);
  try {
    const env = sandboxEnv(sandbox, dir);
    const listed = await runCli(['devices', 'list', '--all', '-o', 'ndjson'], env);
    const ids = listed.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((d) => d.capabilities.includes('reboot')).map((d) => d.hardware_id).slice(0, devices);
    if (ids.length < devices) throw new Error(`only ${ids.length} devices can reboot`);
    const idsFile = path.join(dir, 'ids.txt');
    writeFileSync(idsFile, `${ids.join('\n')}\n`);
    // the rate limiter's bucket refills while nothing is sent: start from a full one, as a fresh client would
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssFile = path.join(dir, 'rss');
    const args = ['devices', 'reboot', '--from-file', idsFile, '--canary', values.canary, '--wave', values.wave, '--wait', '--wait-timeout', '2m', '--yes', '-o', 'ndjson'];
    const started = performance.now();
    const result = await runCli(args, { ...env, BENCH_RSS_FILE: rssFile }, ['-r', MAX_RSS]);
    const seconds = (performance.now() - started) / 1000;
    const results = result.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const canarySize = Number(/Canary sent to (\d+) device/.exec(result.stderr)?.[1] ?? 0);
    const canary = new Set(ids.slice(0, canarySize));
    const backAfter = (r) => r.back_after_s ?? Infinity;
    const canaryPause = Math.max(...results.filter((r) => canary.has(r.hardware_id)).map(backAfter));
    const slowest = Math.max(...results.map(backAfter));
    const sendsOnly = devices / rateLimit + slowest;
    const withReads = (2 * devices) / rateLimit;
    const floor = canaryPause + Math.max(sendsOnly, withReads);
    const log = await (await fetch(`${sandbox.baseUrl}/_sandbox/commands`)).json();
    const perDevice = new Map();
    for (const c of log) perDevice.set(c.hardware_id, (perDevice.get(c.hardware_id) ?? 0) + 1);
    const exact = log.length === devices && ids.every((id) => perDevice.get(id) === 1);
    const allBack = results.length === devices && results.every((r) => r.wait === 'back');
    const rss = Number(readFileSync(rssFile, 'utf8'));
    console.log(`${devices} devices: exit ${result.code}; wall ${seconds.toFixed(2)} s; floor ${floor.toFixed(2)} s = canary pause ${canaryPause.toFixed(1)} s + max(commands ${(devices / rateLimit).toFixed(1)} s + slowest return ${slowest.toFixed(1)} s, commands and one read each ${withReads.toFixed(1)} s); ratio ${(seconds / floor).toFixed(3)}x`);
    console.log(`  executed exactly once: ${exact ? 'yes' : 'NO'}; all back: ${allBack ? 'yes' : 'NO'}; peak RSS of fleetctl ${mib(rss)}`);
    if (!allBack || result.code !== 0) console.log(result.stderr.split('\n').slice(-8).join('\n'));
    return { ratio: seconds / floor, rss, exact, allBack };
  } finally {
    sandbox.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const devices = Number(values.devices);
console.log(`rate limit ${rateLimit}/s, reboot downtime ${values['downtime-ms']} ms + up to ${values['jitter-ms']} ms, canary ${values.canary}, waves of ${values.wave}`);
const quarter = await bench(Math.ceil(devices / 4));
const full = await bench(devices);
const target = 1.1;
console.log(`ratio at ${devices} devices: ${full.ratio.toFixed(3)}x (target <= ${target}x: ${full.ratio <= target ? 'met' : 'MISSED'}); exactly once: ${full.exact ? 'yes' : 'NO'}`);
console.log(`peak RSS: ${mib(quarter.rss)} at ${Math.ceil(devices / 4)} devices, ${mib(full.rss)} at ${devices} (growth ${mib(full.rss - quarter.rss)} for ${devices - Math.ceil(devices / 4)} more devices)`);
