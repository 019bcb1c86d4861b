#!/usr/bin/env node
// Benchmark (not a test): a bulk reboot of 304 devices against a sandbox limited to 25 requests/s per client that
// stops answering for 40 s in the middle of the run (SIGSTOP of its process, then SIGCONT: connections wait, nothing
// is refused). The run cannot take less than 304/25 + 40 = 52 s; target: within 1.2x of that floor, which needs the
// pacer to find the limit again after the stall (before, the rest of the run went at about one request a second).
// Checks against the sandbox's command log that every device was executed at most once and that every accepted one
// was. Loopback only; the sandbox is stopped at the end. Needs a build first: npm run build && node bench/stall.mjs
// The run uses --timeout 5, so the requests caught in the stall time out and are tried again: what the pacer
// measures around them must not hold the rest of the run back.
// Options: --devices N (304), --rate-limit R (25), --stall-seconds S (40), --stall-after-seconds A (3), --timeout T (5).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runCli, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '304' },
    'rate-limit': { type: 'string', default: '25' },
    'stall-seconds': { type: 'string', default: '40' },
    'stall-after-seconds': { type: 'string', default: '3' },
    timeout: { type: 'string', default: '5' },
  },
});
const devices = Number(values.devices);
const rateLimit = Number(values['rate-limit']);
const stallMs = Number(values['stall-seconds']) * 1000;
const stallAfterMs = Number(values['stall-after-seconds']) * 1000;
const TARGET = 1.2;

const sandbox = await startSandbox(['--devices', String(devices), '--rate-limit', String(rateLimit)]);
const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-stall-'));
let timers = [];
try {
  const ids = Array.from({ length: devices }, (_, i) => `HW-${String(i + 1).padStart(6, '0')}`);
  const idsFile = path.join(dir, 'ids.txt');
  writeFileSync(idsFile, `${ids.join('\n')}\n`);
  const env = sandboxEnv(sandbox, dir);
  const started = performance.now();
  timers = [
    setTimeout(() => sandbox.child.kill('SIGSTOP'), stallAfterMs),
    setTimeout(() => sandbox.child.kill('SIGCONT'), stallAfterMs + stallMs),
  ];
  const result = await runCli(['devices', 'reboot', '--from-file', idsFile, '--yes', '--timeout', values.timeout, '-o', 'ndjson'], env);
  const seconds = (performance.now() - started) / 1000;
  const lines = result.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const counts = {};
  for (const r of lines) counts[r.status] = (counts[r.status] ?? 0) + 1;
  const executed = await (await fetch(`${sandbox.baseUrl}/_sandbox/commands`)).json();
  const perDevice = new Map();
  for (const c of executed) perDevice.set(c.hardware_id, (perDevice.get(c.hardware_id) ?? 0) + 1);
  const accepted = lines.filter((r) => r.status === 'accepted' || r.status === 'replayed').map((r) => r.hardware_id);
  const exact = [...perDevice.values()].every((n) => n === 1) && accepted.every((id) => perDevice.get(id) === 1);
  const floor = devices / rateLimit + stallMs / 1000;
  const ratio = seconds / floor;
  console.log(`devices: ${devices}, rate limit: ${rateLimit}/s, stall: ${stallMs / 1000} s after ${stallAfterMs / 1000} s, --timeout ${values.timeout}`);
  console.log(`results: ${JSON.stringify(counts)} (exit ${result.code}; 10 is expected: some devices lack reboot or are outside the tenant)`);
  console.log(`executed by the sandbox: ${executed.length}; at most once, every accepted one once: ${exact ? 'yes' : 'NO'}`);
  console.log(`wall time ${seconds.toFixed(2)} s; floor ${floor.toFixed(1)} s; ratio ${ratio.toFixed(3)}x (target <= ${TARGET}x: ${ratio <= TARGET ? 'met' : 'MISSED'})`);
  if (lines.length !== devices) console.log(`stderr:\n${result.stderr}`);
} finally {
  for (const t of timers) clearTimeout(t);
  sandbox.child.kill('SIGCONT');
  sandbox.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
