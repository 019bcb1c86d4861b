#!/usr/bin/env node
// Benchmark (not a test): `devices list --all --where EXPR` over more than 100,000 devices (a sandbox of --devices
// 120000) against `devices list --all` over the same pages, printing wall time and peak RSS of each. A selection is
// decided page by page as the records stream: its time should be within 1.1x of the plain list (the same pages,
// plus the evaluation), and its peak RSS flat (no page is held beyond its own).
// Needs a build first: npm run build && node bench/where.mjs [--devices N] [--runs N]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, runCli, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({ options: { devices: { type: 'string', default: '120000' }, runs: { type: 'string', default: '3' } } });
const devices = Number(values.devices);
const runs = Number(values.runs);
const MAX_RSS = path.join(ROOT, 'bench/max-rss.cjs');
// conditions on the records alone (no last-reported reads): a report age, a capability, a member's text
const WHERE = 'seen:>1h -has:wake_up firmware_version:~3.';

async function measured(args, env) {
  const rssFile = path.join(env.HOME, `rss-${process.hrtime.bigint()}`);
  const started = performance.now();
  const result = await runCli(['devices', 'list', '--all', '--limit', '500', '-o', 'ndjson', ...args], { ...env, BENCH_RSS_FILE: rssFile }, ['-r', MAX_RSS]);
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`devices list ${args.join(' ')} exited with ${result.code}:\n${result.stderr}`);
  const lines = result.stdout.length === 0 ? 0 : result.stdout.trimEnd().split('\n').length;
  return { seconds, lines, rss: Number(readFileSync(rssFile, 'utf8')) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

console.log(`node ${process.version}, ${os.cpus().length} cores; sandbox of ${devices.toLocaleString('en')} devices; ${runs} interleaved runs each`);
const sandbox = await startSandbox(['--devices', String(devices)]);
const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-where-'));
try {
  const env = sandboxEnv(sandbox, dir);
  await measured([], env); // a warm-up: token cached, sandbox pages warm
  const plain = [];
  const selected = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await measured([], env));
    selected.push(await measured(['--where', WHERE], env));
  }
  const p = median(plain.map((r) => r.seconds));
  const s = median(selected.map((r) => r.seconds));
  console.log(`devices list --all:               ${plain[0].lines.toLocaleString('en')} devices in ${p.toFixed(2)} s (median); peak RSS ${mib(median(plain.map((r) => r.rss)))}`);
  console.log(`devices list --all --where '${WHERE}': ${selected[0].lines.toLocaleString('en')} devices in ${s.toFixed(2)} s (median); peak RSS ${mib(median(selected.map((r) => r.rss)))}`);
  console.log(`ratio --where / --all: ${(s / p).toFixed(3)}x (target <= 1.1x)`);
} finally {
  sandbox.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
