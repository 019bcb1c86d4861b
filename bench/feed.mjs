#!/usr/bin/env node
// Benchmark (not a test): the follow feed, `events search --fleet-id F --follow -o ndjson`, against a sandbox whose
// devices make 1,000 events a second (--telemetry-rate 4000: one report in four carries an event), over one fleet of
// 2,000 moving devices. Every --every seconds it prints the events/s the feed wrote in that stretch, the feed
// process's resident memory and its peak so far (VmRSS, VmHWM of /proc: Linux); at the end, the first stretch
// against the last. Keeping up: the feed writes about what the sandbox makes; memory flat: the peak of the last
// stretch close to that of the first (the feed remembers at most the ids its next window can return).
//
// The target is an hour-long window. The sandbox has no clock of its own to run faster: its events are stamped with the
// wall clock, which the feed's windows follow too, so an hour takes an hour. The default run is shortened to
// 12 minutes: the feed's memory grows until its deep window holds its 5 to 6 minutes of late arrivals, then must
// stay flat, so the peak at 7 minutes is compared with the peak at the end; `--minutes 60` is the whole hour. `--checkpoint` runs the feed with a checkpoint file (each event flushed to disk before the next).
// Needs a build first: npm run build && node bench/feed.mjs [--minutes 12] [--rate 1000] [--every 30] [--checkpoint]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, sandboxEnv, startSandbox } from './sandbox-process.mjs';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '12' }, rate: { type: 'string', default: '1000' }, every: { type: 'string', default: '30' }, checkpoint: { type: 'boolean', default: false } },
});
const minutes = Number(values.minutes);
const eventsPerSecond = Number(values.rate);
const everyS = Number(values.every);
const FLEET = '5e1f0000-0000-4000-8000-00000000fee0';
const DEVICES = 2000;
const SEEDED = 1;

const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-feed-'));
const scenario = path.join(dir, 'feed.json');
writeFileSync(scenario, JSON.stringify({
  name: 'feed bench',
  fleets: [{ key: 'f', organization: 'root', name: 'Busy', id: FLEET }],
  devices: [{ fleet: 'f', count: DEVICES, last_seen_at: '1m' }],
}));

/** The feed process's memory now and at its peak, in bytes (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** Events the sandbox's devices reported since it started, as its health says (late ones counted when they arrive). */
async function eventsReported(sandbox) {
  const health = await fetch(`${sandbox.baseUrl}/_sandbox/health`).then((r) => r.json());
  return health.events_reported;
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

console.log(`node ${process.version}, ${os.cpus().length} cores; ${eventsPerSecond} events/s from ${DEVICES} devices of one fleet for ${minutes} min${values.checkpoint ? ', with --checkpoint' : ''}`);
// one report in four carries an event; the seeded world's one device (the fewest it takes) may move too
const reportsPerSecond = Math.round((eventsPerSecond * 4 * (DEVICES + SEEDED)) / DEVICES);
const sandbox = await startSandbox(['--devices', String(SEEDED), '--scenario', scenario, '--telemetry-rate', String(reportsPerSecond)]);
const env = sandboxEnv(sandbox, dir);
const args = ['events', 'search', '--fleet-id', FLEET, '--since', '10s', '--follow', '--interval', '2s', '-o', 'ndjson', ...(values.checkpoint ? ['--checkpoint', path.join(dir, 'feed.checkpoint')] : [])];
// with --checkpoint, standard output appended to a file, as a service writes it (README: Running unattended):
// the checkpoint is then recorded once a poll; read back as it grows
const outFile = path.join(dir, 'feed.ndjson');
const outFd = values.checkpoint ? openSync(outFile, 'a') : undefined;
const feed = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', outFd ?? 'pipe', 'pipe'] });
if (outFd !== undefined) closeSync(outFd);
let stderr = '';
feed.stderr.on('data', (chunk) => (stderr += chunk));
let written = 0;
let partial = '';
// each line by a 52-bit hash of it (the whole record: what tells events apart is the service's to say), so an
// hour of events fits in memory
const seenLines = new Set();
let duplicates = 0;
function consume(text) {
  const lines = (partial + text).split('\n');
  partial = lines.pop();
  for (const line of lines) {
    const hash = Number.parseInt(createHash('sha1').update(line).digest('hex').slice(0, 13), 16);
    if (seenLines.has(hash)) duplicates++;
    seenLines.add(hash);
    written++;
  }
}
let readFrom = 0;
const decoder = new StringDecoder('utf8');
/** What the feed appended to its file since the last look. */
function readAppended() {
  const fd = openSync(outFile, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    for (let got; (got = readSync(fd, buffer, 0, buffer.length, readFrom)) > 0; readFrom += got) consume(decoder.write(buffer.subarray(0, got)));
  } finally {
    closeSync(fd);
  }
}
feed.stdout?.setEncoding('utf8').on('data', consume);
const exited = new Promise((resolve) => feed.on('close', resolve));

const stretches = [];
const started = performance.now();
let before = 0;
let beforeAt = started;
const reportedAtStart = await eventsReported(sandbox);
let reportedBefore = reportedAtStart;
try {
  while (performance.now() - started < minutes * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, everyS * 1000));
    if (feed.exitCode !== null) throw new Error(`the feed exited with ${feed.exitCode}:\n${stderr}`);
    if (values.checkpoint) readAppended();
    const memory = memoryOf(feed.pid);
    const reported = await eventsReported(sandbox);
    const now = performance.now();
    // the fleet's share of what the sandbox's devices reported
    const made = ((reported - reportedBefore) * 1000 * DEVICES) / (DEVICES + SEEDED) / (now - beforeAt);
    reportedBefore = reported;
    const stretch = { at: (now - started) / 1000, rate: ((written - before) * 1000) / (now - beforeAt), made, ...memory };
    before = written;
    beforeAt = now;
    stretches.push(stretch);
    console.log(`${stretch.at.toFixed(0).padStart(5)} s  ${stretch.rate.toFixed(0).padStart(6)} events/s written (the sandbox made ${made.toFixed(0)}/s)  RSS ${mib(stretch.rss)}  peak ${mib(stretch.peak)}`);
  }
} finally {
  feed.kill('SIGINT');
  await exited;
  sandbox.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
// the feed's memory grows until its deep window holds LATE_ARRIVAL (5 min) and up to a minute more of events:
// flat is judged from then on
const STEADY_S = 7 * 60;
const first = stretches.find((s) => s.at >= STEADY_S) ?? stretches[0];
const last = stretches.at(-1);
if (first.at < STEADY_S) console.log(`(shorter than ${STEADY_S / 60} min: the window is still filling, memory still grows; run --minutes 12 or more to judge it flat)`);
const total = (performance.now() - started) / 1000;
const madeInAll = ((reportedBefore - reportedAtStart) * DEVICES) / (DEVICES + SEEDED);
console.log(`written: ${written.toLocaleString('en')} events in ${total.toFixed(0)} s (${(written / total).toFixed(0)} events/s), ${duplicates} written twice; the fleet's devices reported ${Math.round(madeInAll).toLocaleString('en')} by the last stretch, when the feed had written ${((100 * before) / madeInAll).toFixed(1)}% of that (events a device reports late are written up to a minute after they arrive)`);
console.log(`events/s written at ${first.at.toFixed(0)} s: ${first.rate.toFixed(0)} (made ${first.made.toFixed(0)}); at the end: ${last.rate.toFixed(0)} (made ${last.made.toFixed(0)}; target ${eventsPerSecond})`);
console.log(`peak RSS at ${first.at.toFixed(0)} s: ${mib(first.peak)}; at the end: ${mib(last.peak)} (${(last.peak / first.peak).toFixed(2)}x)`);
// the peak keeps the highest moment of a collection; the mean RSS of the steady stretches, first half against
// second, says whether memory still grows
const steady = stretches.filter((s) => s.at >= STEADY_S);
if (steady.length >= 2) {
  const mean = (part) => part.reduce((sum, s) => sum + s.rss, 0) / part.length;
  const half = Math.floor(steady.length / 2);
  const [early, late] = [mean(steady.slice(0, half)), mean(steady.slice(half))];
  console.log(`mean RSS from ${first.at.toFixed(0)} s: ${mib(early)} in the first half, ${mib(late)} in the second (${(late / early).toFixed(2)}x)`);
}
