#!/usr/bin/env node
// Benchmark (not a test): start-up of the standalone executable (npm run build:sea, dist-sea/fleetctl) against
// the npm install's `node bin/fleetctl.js`, for `--version` and `--sandbox devices list`, each run many times,
// the two interleaved so that a busy machine weighs on both alike (as hyperfine would, without installing it).
// Needs both builds: npm run build && npm run build:sea && node bench/sea-startup.mjs [--runs N (15)]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, ROOT } from './sandbox-process.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);
const EXECUTABLE = path.join(ROOT, 'dist-sea/fleetctl');
if (!existsSync(EXECUTABLE)) throw new Error(`${path.relative(ROOT, EXECUTABLE)} is missing: run npm run build:sea first`);

const home = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sea-bench-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, CI: 'true', NO_COLOR: '1', XDG_CACHE_HOME: path.join(home, 'cache') };
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`${runs} runs each; node bin/fleetctl.js on node ${process.version}; load average ${load()}`);

const variants = [
  ['--version', [EXECUTABLE, '--version'], [process.execPath, BIN, '--version']],
  ['--sandbox devices list', [EXECUTABLE, '--sandbox', 'devices', 'list'], [process.execPath, BIN, '--sandbox', 'devices', 'list']],
];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const timed = ([command, ...args]) => {
  const started = performance.now();
  const run = spawnSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${[command, ...args].join(' ')} exited with ${run.status}: ${run.stderr}`);
  return performance.now() - started;
};

try {
  for (const [name, executable, npm] of variants) {
    // a first run of each writes what later runs reuse (token cache, sandbox state, the compile cache)
    timed(executable);
    timed(npm);
    const times = { executable: [], npm: [] };
    for (let i = 0; i < runs; i++) {
      const order = i % 2 ? ['executable', 'npm'] : ['npm', 'executable'];
      for (const which of order) times[which].push(timed(which === 'executable' ? executable : npm));
    }
    const [a, b] = [median(times.executable), median(times.npm)];
    console.log(`${name}: executable ${a.toFixed(0)} ms, node bin/fleetctl.js ${b.toFixed(0)} ms (median; ${(a / b).toFixed(2)}x)`);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
console.log(`load average at the end: ${load()}`);
