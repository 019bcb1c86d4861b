// `status --watch` on a fake clock: the schedule (each round an interval after the one before started, no burst
// after a slow one), --on-breach once per transition into breach with the report on its stdin, --exit-on-breach,
// a failed round skipped with a warning, and Ctrl-C ending the watch at once with its reason (exit 130 in main.ts).
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeps } from '../../../src/factory.js';
import { IOStreams } from '../../../src/io/streams.js';
import { CancelledError, NetworkError, ThresholdBreachedError } from '../../../src/errors.js';
import { watchStatus, type EvaluateReport } from '../../../src/commands/status/watch.js';
import type { StatusOptions, StatusReport } from '../../../src/commands/status/report.js';
import type { ApiClient } from '../../../src/api/client.js';
import { parseThreshold } from '../../../src/commands/status/thresholds.js';
import { FakeClock } from '../../support/fake-clock.js';
import { tempDir } from '../../support/temp-dir.js';

const INTERVAL = 60_000;
const opts: StatusOptions = { staleAfterMs: 3_600_000, sinceMs: 86_400_000, thresholds: [parseThreshold('stale>0')] };

interface Round {
  /** Device n is stale (true) or reporting. */
  stale: boolean[];
  /** How long the round takes on the clock. */
  takesMs?: number;
  fails?: boolean;
}

/** A watch over scripted rounds; Ctrl-C once they are all done. */
function scripted(rounds: Round[], watch: { onBreach?: string; exitOnBreach?: boolean } = {}) {
  const clock = new FakeClock();
  const stop = new AbortController();
  const io = IOStreams.forTest();
  const base = createDeps({ io, env: process.env, clock, signal: stop.signal }, () => ({ output: 'ndjson' }));
  const api = { derive: () => api } as unknown as ApiClient;
  const deps = { ...base, api: async () => api };
  const started: number[] = [];
  const evaluate: EvaluateReport = async (_deps, _opts, changes) => {
    const round = rounds[started.length]!;
    started.push(clock.now().getTime());
    if (started.length === rounds.length) stop.abort(new CancelledError());
    clock.advance(round.takesMs ?? 1000);
    if (round.fails) throw new NetworkError('connection reset');
    round.stale.forEach((stale, n) => changes.observe({ id: `id-${n}`, hardware_id: `HW-${n}` }, stale ? 'stale' : 'reporting', 0));
    const stale = round.stale.filter(Boolean).length;
    const breached = stale > 0;
    return {
      devices: { total: round.stale.length, reporting: round.stale.length - stale, stale, never_reported: 0, unknown: 0, note: null },
      webhooks: { state: 'none', note: null },
      thresholds: [{ expression: 'stale>0', actual: stale, breached, reason: breached ? `stale is ${stale}, > 0` : null }],
    } as unknown as StatusReport;
  };
  const run = () => watchStatus(deps, opts, { intervalMs: INTERVAL, exitOnBreach: false, ...watch }, undefined, evaluate);
  return { run, clock, io, started, lines: () => io.stdout().trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('status --watch schedule', () => {
  it('starts each round an interval after the one before started, whatever the round took', async () => {
    const w = scripted([{ stale: [false], takesMs: 10_000 }, { stale: [false], takesMs: 2_000 }, { stale: [false], takesMs: 59_000 }, { stale: [false] }]);
    await expect(w.run()).rejects.toBeInstanceOf(CancelledError);
    const t0 = w.started[0]!;
    expect(w.started.map((t) => t - t0)).toEqual([0, 60_000, 120_000, 180_000]);
    expect(w.clock.sleeps).toEqual([50_000, 58_000, 1_000]);
  });

  it('a round longer than the interval is followed at once, without rounds to catch up', async () => {
    const w = scripted([{ stale: [false], takesMs: 150_000 }, { stale: [false], takesMs: 1_000 }, { stale: [false] }]);
    await expect(w.run()).rejects.toBeInstanceOf(CancelledError);
    const t0 = w.started[0]!;
    expect(w.started.map((t) => t - t0)).toEqual([0, 150_000, 210_000]);
  });

  it('a round that fails is said once on stderr and changes nothing; the next round goes on from the last whole one', async () => {
    const w = scripted([{ stale: [false] }, { stale: [true], fails: true }, { stale: [true] }]);
    await expect(w.run()).rejects.toBeInstanceOf(CancelledError);
    expect(w.io.stderr()).toContain('Warning: status --watch: the report could not be read (connection reset); trying again in 60 s');
    expect(w.lines().filter((l) => l.kind === 'device')).toEqual([expect.objectContaining({ hardware_id: 'HW-0', from: 'reporting', to: 'stale' })]);
  });
});

describe('status --watch --on-breach', () => {
  it('runs once per transition into breach, with the report as JSON on its stdin, not while the breach lasts', async () => {
    const dir = tempDir('watch-on-breach');
    const calls = path.join(dir, 'calls.ndjson');
    const w = scripted([{ stale: [false] }, { stale: [true] }, { stale: [true] }, { stale: [false] }, { stale: [true, true] }, { stale: [true, true] }], { onBreach: `cat >> '${calls}'` });
    await expect(w.run()).rejects.toBeInstanceOf(CancelledError);
    const reports = readFileSync(calls, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(reports.map((r) => r.devices.stale)).toEqual([1, 2]);
    expect(w.lines().filter((l) => l.kind === 'threshold').map((l) => l.to)).toEqual(['breached', 'clear', 'breached']);
    expect(w.io.stderr().match(/--on-breach command ran \(exit 0\)/g)).toHaveLength(2);
  });

  it('a failing command is a warning with its exit status and first line, and the watch goes on', async () => {
    const w = scripted([{ stale: [true] }, { stale: [false] }], { onBreach: "echo 'pager: no route' >&2; exit 4" });
    await expect(w.run()).rejects.toBeInstanceOf(CancelledError);
    expect(w.io.stderr()).toContain('Warning: --on-breach command exited with 4: pager: no route');
    expect(w.started).toHaveLength(2);
  });

  it('--exit-on-breach ends the watch at the first breach, after the command ran, with the breach named (exit 13)', async () => {
    const dir = tempDir('watch-exit-on-breach');
    const ran = path.join(dir, 'ran');
    const w = scripted([{ stale: [false] }, { stale: [true] }, { stale: [true] }], { onBreach: `cat > '${ran}'`, exitOnBreach: true });
    const error = await w.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThresholdBreachedError);
    expect((error as Error).message).toBe('status: stale>0 breached (stale is 1, > 0)');
    expect(existsSync(ran)).toBe(true);
    expect(w.started).toHaveLength(2);
  });
});
