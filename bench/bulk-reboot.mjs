#!/usr/bin/env node
// Benchmark (not a test): a bulk reboot of 2,000 devices against a sandbox limited to 100 requests/s per client,
// at the default settings, once without faults and once with 20% of requests failing (503 or a dropped
// connection). 2,000 command requests at 100/s cannot take less than 20 s: each run reports its wall time over
// that floor (targets: 1.1x without faults, 1.2x with them), and checks against the sandbox's command log that
// every device was executed exactly once. Needs a build first: npm run build && node bench/bulk-reboot.mjs
// Options: --devices N (2000), --rate-limit R (100), --concurrency C (default: fleetctl's own, adaptive),
// --fault-rate P (runs only that fault rate instead of 0 and 0.2).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runCli, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
    'rate-limit': { type: 'string', default: '100' },
    concurrency: { type: 'string' },
    'fault-rate': { type: 'string' },
  },
});
const devices = Number(values.devices);
const rateLimit = Number(values['rate-limit']);

/** One bulk reboot of every device against a fresh sandbox; returns the ratio to the floor and whether it was exact. */
async function bench(faultRate) {
  const sandbox = await startSandbox(['--devices', String(devices), '--rate-limit', String(rateLimit), '--fault-rate', String(faultRate)]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-'));
  try {
    const ids = Array.from({ length: devices }, (_, i) => `HW-${String(i + 1).padStart(6, '0')}`);
    const idsFile = path.join(dir, 'ids.txt');
    writeFileSync(idsFile, `${ids.join('\n')}\n`);
    const env = sandboxEnv(sandbox, dir);
    const concurrency = values.concurrency === undefined ? [] : ['--concurrency', values.concurrency];
    const started = performance.now();
    const result = await runCli(['devices', 'reboot', '--from-file', idsFile, '--yes', ...concurrency, '-o', 'ndjson'], env);
    const seconds = (performance.now() - started) / 1000;
    const lines = result.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const counts = {};
    for (const r of lines) counts[r.status] = (counts[r.status] ?? 0) + 1;
    const log = await (await fetch(`${sandbox.baseUrl}/_sandbox/commands`)).json();
    const executed = Array.isArray(log) ? log : (log.data ?? log.commands ?? []);
    const perDevice = new Map();
    for (const c of executed) perDevice.set(c.hardware_id, (perDevice.get(c.hardware_id) ?? 0) + 1);
    const accepted = lines.filter((r) => r.status === 'accepted' || r.status === 'replayed').map((r) => r.hardware_id);
    // exactly once: every accepted device executed once, nothing else executed, every device reported once
    const exact = lines.length === devices && new Set(lines.map((r) => r.hardware_id)).size === devices
      && executed.length === accepted.length && accepted.every((id) => perDevice.get(id) === 1);
    const floor = devices / rateLimit;
    const ratio = seconds / floor;
    console.log(`fault rate ${faultRate}: ${JSON.stringify(counts)} (exit ${result.code}; 10 is expected: some devices lack reboot or are outside the tenant)`);
    console.log(`  executed by the sandbox: ${executed.length} (distinct devices ${perDevice.size}); exactly once: ${exact ? 'yes' : 'NO'}`);
    console.log(`  wall time ${seconds.toFixed(2)} s; floor ${floor.toFixed(1)} s; ratio ${ratio.toFixed(3)}x`);
    if (lines.length !== devices) console.log(`stderr:\n${result.stderr}`);
    return { ratio, exact };
  } finally {
    sandbox.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`devices: ${devices}, rate limit: ${rateLimit}/s, concurrency: ${values.concurrency ?? 'default (adaptive)'}`);
const scenarios = values['fault-rate'] === undefined ? [[0, 1.1], [0.2, 1.2]] : [[Number(values['fault-rate']), undefined]];
const outcomes = [];
for (const [faultRate, target] of scenarios) outcomes.push({ faultRate, target, ...(await bench(faultRate)) });
for (const o of outcomes) {
  const verdict = o.target === undefined ? '' : o.ratio <= o.target ? ` (target <= ${o.target}x: met)` : ` (target <= ${o.target}x: MISSED)`;
  console.log(`ratio at fault rate ${o.faultRate}: ${o.ratio.toFixed(3)}x${verdict}; exactly once: ${o.exact ? 'yes' : 'NO'}`);
}
