#!/usr/bin/env node
// Benchmark (not a test): a reboot in waves with --wait over 2,000 devices against a sandbox limited to 100
// requests/s per client, whose devices come back 5 s after a reboot (plus up to 1 s, fixed per device). Each wave
// goes out once every device of the one before is back, so the plan's floor, what no client following it could
// beat, is the sum over the waves (the canary first) of
//   - the time to send the wave at the rate limit: two requests a device (the report it had before, read so that
//     no clock is compared with the device's, and the command); and
//   - the return time of the wave's slowest device (its report again, from the sandbox's record, less when the
//     sandbox executed its reboot, from its command log).
// (The limiter's one-second burst, refilled while a wave is away, lets a wave's first second of requests go at once;
// fleetctl paces to the rate it learnt, not to a burst it cannot know, and the floor does not count it either.)
// The target is 1.1x that floor; every device must be executed exactly once and come back. The CLI's peak RSS is
// printed for the full run and for a quarter of it (flat memory: the same, not four times). Then the brake: with
// every device of the second wave never coming back, the third wave must never be sent (exit 11).
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

/** N devices or P% of total, as fleetctl resolves --canary and --wave (a share rounds up, never 0). */
function amount(text, total) {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  return Math.min(total, percent ? Math.max(1, Math.ceil((Number(percent[1]) * total) / 100)) : Number(text));
}

/** The devices of each wave, in order, the canary first. */
function wavesOf(ids) {
  const canary = amount(values.canary, ids.length);
  const size = amount(values.wave, ids.length);
  const waves = [ids.slice(0, canary)];
  for (let i = canary; i < ids.length; i += size) waves.push(ids.slice(i, i + size));
  return waves;
}

/** A sandbox with `count` devices that can reboot (in the admin's tenant), and the environment to reach it. */
async function sandboxWith(count, scenario) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-waves-'));
  const file = path.join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario));
  const sandbox = await startSandbox(['--devices', String(Math.ceil(count * 1.4)), '--rate-limit', String(rateLimit), '--scenario', file]);
  const env = sandboxEnv(sandbox, dir);
  const listed = await runCli(['devices', 'list', '--all', '-o', 'ndjson'], env);
  const ids = listed.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((d) => d.capabilities.includes('reboot')).map((d) => d.hardware_id).slice(0, count);
  if (ids.length < count) throw new Error(`only ${ids.length} devices can reboot`);
  const idsFile = path.join(dir, 'ids.txt');
  writeFileSync(idsFile, `${ids.join('\n')}\n`);
  const close = () => {
    sandbox.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  return { sandbox, env, ids, idsFile, dir, close };
}

const executedLog = async (sandbox) => (await fetch(`${sandbox.baseUrl}/_sandbox/commands`)).json();
const reporting = { reboot_downtime_ms: Number(values['downtime-ms']), reboot_jitter_ms: Number(values['jitter-ms']) };

async function bench(devices) {
  const { sandbox, env, ids, idsFile, dir, close } = await sandboxWith(devices, { name: 'bench-waves', device_reporting: reporting });
  try {
    // the rate limiter's bucket refills while nothing is sent: start from a full one, as a fresh client would
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssFile = path.join(dir, 'rss');
    const args = ['devices', 'reboot', '--from-file', idsFile, '--canary', values.canary, '--wave', values.wave, '--wait', '--wait-timeout', '2m', '--yes', '-o', 'ndjson'];
    const started = performance.now();
    const result = await runCli(args, { ...env, BENCH_RSS_FILE: rssFile }, ['-r', MAX_RSS]);
    const seconds = (performance.now() - started) / 1000;
    const results = result.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const log = await executedLog(sandbox);
    // each device's return: its report again (a still sandbox reports nothing else), less its reboot's execution
    const listed = await runCli(['devices', 'list', '--all', '-o', 'ndjson'], env);
    const reportedAt = new Map(listed.stdout.trim().split('\n').map((l) => JSON.parse(l)).map((d) => [d.hardware_id, Date.parse(d.last_seen_at)]));
    const executedAt = new Map(log.map((c) => [c.hardware_id, Date.parse(c.executed_at)]));
    const waves = wavesOf(ids);
    const parts = waves.map((wave) => ({
      send: (2 * wave.length) / rateLimit,
      back: Math.max(...wave.map((id) => reportedAt.get(id) - executedAt.get(id))) / 1000,
    }));
    const floor = parts.reduce((sum, p) => sum + p.send + p.back, 0);
    const perDevice = new Map();
    for (const c of log) perDevice.set(c.hardware_id, (perDevice.get(c.hardware_id) ?? 0) + 1);
    const exact = log.length === devices && ids.every((id) => perDevice.get(id) === 1);
    const allBack = results.length === devices && results.every((r) => r.wait === 'back');
    // gated: no device of a wave executed before every device of the one before had reported again
    const gated = waves.slice(1).every((wave, i) => Math.min(...wave.map((id) => executedAt.get(id))) >= Math.max(...waves[i].map((id) => reportedAt.get(id))));
    const rss = Number(readFileSync(rssFile, 'utf8'));
    const sends = parts.reduce((sum, p) => sum + p.send, 0);
    console.log(`${devices} devices in ${waves.length} waves: exit ${result.code}; wall ${seconds.toFixed(2)} s; floor ${floor.toFixed(2)} s = sends ${sends.toFixed(1)} s + returns ${(floor - sends).toFixed(1)} s; ratio ${(seconds / floor).toFixed(3)}x`);
    console.log(`  executed exactly once: ${exact ? 'yes' : 'NO'}; all back: ${allBack ? 'yes' : 'NO'}; each wave after the one before was back: ${gated ? 'yes' : 'NO'}; peak RSS of fleetctl ${mib(rss)}`);
    if (!allBack || result.code !== 0) console.log(result.stderr.split('\n').slice(-8).join('\n'));
    return { ratio: seconds / floor, rss, exact: exact && gated, allBack };
  } finally {
    close();
  }
}

/** The second wave never comes back: the brake stops the run (exit 11) and the third wave is never sent. */
async function brakeCheck(devices) {
  const probe = await sandboxWith(devices, { name: 'bench-waves-probe', device_reporting: reporting });
  const waves = wavesOf(probe.ids);
  probe.close();
  const { sandbox, env, idsFile, close } = await sandboxWith(devices, { name: 'bench-waves-brake', device_reporting: { ...reporting, never_back: waves[1] } });
  try {
    const timeout = `${Math.ceil((reporting.reboot_downtime_ms + reporting.reboot_jitter_ms) / 1000) + 5}s`;
    const args = ['devices', 'reboot', '--from-file', idsFile, '--canary', values.canary, '--wave', values.wave, '--abort-if-failed', values.canary, '--wait', '--wait-timeout', timeout, '--yes', '-o', 'ndjson'];
    const result = await runCli(args, env);
    const executed = new Set((await executedLog(sandbox)).map((c) => c.hardware_id));
    const sentTo = waves.map((wave) => wave.filter((id) => executed.has(id)).length);
    const ok = result.code === 11 && sentTo[0] === waves[0].length && sentTo[1] === waves[1].length && sentTo.slice(2).every((n) => n === 0);
    console.log(`brake: second wave never back over ${devices} devices: exit ${result.code}; devices executed per wave ${sentTo.join(', ')}; third wave never sent: ${ok ? 'yes' : 'NO'}`);
    return ok;
  } finally {
    close();
  }
}

const devices = Number(values.devices);
console.log(`rate limit ${rateLimit}/s, reboot downtime ${values['downtime-ms']} ms + up to ${values['jitter-ms']} ms, canary ${values.canary}, waves of ${values.wave}`);
const quarter = await bench(Math.ceil(devices / 4));
const full = await bench(devices);
const target = 1.1;
console.log(`ratio at ${devices} devices: ${full.ratio.toFixed(3)}x (target <= ${target}x: ${full.ratio <= target ? 'met' : 'MISSED'}); exactly once: ${full.exact ? 'yes' : 'NO'}`);
const braked = await brakeCheck(Math.ceil(devices / 4));
console.log(`brake before the third wave: ${braked ? 'yes' : 'NO'}`);
console.log(`peak RSS: ${mib(quarter.rss)} at ${Math.ceil(devices / 4)} devices, ${mib(full.rss)} at ${devices} (growth ${mib(full.rss - quarter.rss)} for ${devices - Math.ceil(devices / 4)} more devices)`);
