#!/usr/bin/env node
// Benchmark (not a test): what "acknowledged means kept" costs a lone `fleetctl --sandbox` command. The embedded
// sandbox now puts each state change on the disk (fsync) before it answers; before, it saved 250 ms after changes
// and at exit. This times `fleetctl --sandbox devices get HW-000001 -o json` as built now against the same
// command built from the commit before that change, the repetitions interleaved so that a busy machine weighs on
// both alike:
//   fresh: a new config folder each time (the sandbox's state made, a token issued and cached);
//   kept: one config folder per side, its state and token there from a first run.
// Target: within 1.10x of the build before (informational: nothing fails).
// The build before is extracted with `git archive` into a folder of the system's temporary directory, given this
// checkout's node_modules, built once and kept there for the next run. Needs a build first:
//   npm run build && node bench/sandbox-durability.mjs
// Options: --reps N (15), --baseline REV (default: the parent of the commit "Sandbox state: acknowledged means kept"),
// --now REV (default: this checkout as built; that commit itself, say, for its cost alone without what came since).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, ROOT } from './sandbox-process.mjs';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '15' }, baseline: { type: 'string' }, now: { type: 'string' } } });
const reps = Number(values.reps);
const TARGET = 1.1;

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const durable = git('log', '--format=%H', '-1', '--grep', 'Sandbox state: acknowledged means kept');
const baseline = git('rev-parse', values.baseline ?? `${durable}^`);

/** The build of `rev`, made once in the temporary directory and kept. */
function builtAt(rev) {
  const dir = path.join(os.tmpdir(), `fleetctl-bench-build-${rev.slice(0, 12)}`);
  if (existsSync(path.join(dir, 'dist', 'main.js'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`building ${rev.slice(0, 12)} in ${dir} (once)...`);
  execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C "${dir}"`], { cwd: ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['src/build/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

const before = path.join(builtAt(baseline), 'bin', 'fleetctl.js');
const now = values.now === undefined ? BIN : path.join(builtAt(git('rev-parse', values.now)), 'bin', 'fleetctl.js');
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${load()}; ${reps} repetitions`);
console.log(`before: ${baseline.slice(0, 12)} (the parent of ${durable.slice(0, 12)}); now: ${values.now === undefined ? 'this checkout' : git('rev-parse', '--short=12', values.now)}`);

const ARGS = ['--sandbox', 'devices', 'get', 'HW-000001', '-o', 'json'];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bench-durability-'));

/** The wall time of one run of `bin` with `configDir`, in ms; it must succeed. */
function timed(bin, configDir) {
  const env = { PATH: process.env.PATH, HOME: scratch, CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off', FLEETCTL_CONFIG_DIR: configDir };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...ARGS], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${bin} exited with ${code}:\n${stderr}`))));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  let fresh = 0;
  const freshDir = () => path.join(scratch, `fresh-${fresh++}`);
  const keptDirs = { before: path.join(scratch, 'kept-before'), now: path.join(scratch, 'kept-now') };
  await timed(before, keptDirs.before);
  await timed(now, keptDirs.now);
  const variants = [
    { name: 'fresh, before', run: () => timed(before, freshDir()) },
    { name: 'fresh, now', run: () => timed(now, freshDir()) },
    { name: 'kept, before', run: () => timed(before, keptDirs.before) },
    { name: 'kept, now', run: () => timed(now, keptDirs.now) },
  ];
  const samples = variants.map(() => []);
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (k + rep) % variants.length;
      samples[i].push(await variants[i].run());
    }
  }
  const medians = samples.map(median);
  for (const [i, variant] of variants.entries()) console.log(`${variant.name.padEnd(14)} median ${medians[i].toFixed(0)} ms (min ${Math.min(...samples[i]).toFixed(0)}, max ${Math.max(...samples[i]).toFixed(0)})`);
  for (const [label, b, n] of [['fresh', medians[0], medians[1]], ['kept', medians[2], medians[3]]]) {
    const ratio = n / b;
    console.log(`${label}: now/before ${ratio.toFixed(3)}x (target <= ${TARGET}x: ${ratio <= TARGET ? 'met' : 'MISSED'})`);
  }
  console.log(`load average after: ${load()}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
