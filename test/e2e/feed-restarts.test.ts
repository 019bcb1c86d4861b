// A feed that survives restarts (--follow --checkpoint): the built CLI follows two fleets' events while the
// sandbox's devices report (some late), is killed with SIGKILL at seeded random moments and started again with
// the same checkpoint, its standard output appended to one file as `>> feed.ndjson` would; at the end that file
// holds every event of the window exactly once, as one `events search` of the same window lists them.
// FLEETCTL_FEED_TRIALS=N kills it N times (default 20); FLEETCTL_FEED_SEED=S picks the moments.
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';
import { spawnFleetctl } from './crash-trial.js';
import { seeded } from '../support/seeded-random.js';
import { tempDir } from '../support/temp-dir.js';
import { records } from '../../src/records/resources.js';

const TRIALS = Number(process.env.FLEETCTL_FEED_TRIALS ?? 20);
const SEED = Number(process.env.FLEETCTL_FEED_SEED ?? 38);

let harness: SandboxHarness;
beforeAll(async () => {
  harness = await startHarness({ telemetryRatePerSecond: 40 });
});
afterAll(async () => harness?.close());

/** Runs the feed into `out` (appended); SIGKILL after `killAfterMs` unless it ended first. Whether it was killed. */
async function runFeed(args: string[], out: string, killAfterMs: number | undefined): Promise<{ killed: boolean; code: number | null; stderr: string }> {
  const fd = openSync(out, 'a');
  const child = spawnFleetctl(args, harness.envFor(), fd);
  closeSync(fd);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const code = await exited;
  clearTimeout(timer);
  return { killed: child.signalCode === 'SIGKILL', code, stderr };
}

describe('events search --follow --checkpoint, killed and restarted', () => {
  it(`${TRIALS} kills (seed ${SEED}): the concatenated output holds every event of the window once`, async () => {
    const dir = tempDir('fleetctl-feed-e2e-');
    const fleets = (await harness.cli(['fleets', 'list', '--limit', '2', '--columns', 'id', '-o', 'csv'])).stdout.trim().split('\n').slice(1);
    expect(fleets).toHaveLength(2);
    const random = seeded(SEED);
    const started = Date.now();
    // the window: the last ten minutes (seeded history and reports stamped late), until after the last trial
    const from = new Date(started - 10 * 60_000).toISOString();
    const until = new Date(started + TRIALS * 1_400 + 4_000).toISOString();
    const window = ['--fleet-id', fleets.join(','), '--from', from];
    const checkpoint = path.join(dir, 'feed.checkpoint');
    const out = path.join(dir, 'feed.ndjson');
    const args = ['events', 'search', ...window, '--follow', '--interval', '1s', '--until', until, '--checkpoint', checkpoint, '-o', 'ndjson'];
    let kills = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const run = await runFeed(args, out, 300 + Math.floor(random() * 2_000));
      if (!run.killed) {
        // it reached --until first: the window is complete
        expect(run, run.stderr).toMatchObject({ code: 0 });
        break;
      }
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(Math.min(TRIALS, 15));
    // the world stops; the last run goes on from the checkpoint to --until and ends by itself
    harness.sandbox.stopTelemetry();
    const last = await runFeed(args, out, undefined);
    expect(last.code, last.stderr).toBe(0);
    const followed = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => records.event.keyOf(JSON.parse(line)));
    const listed = (await harness.cli(['events', 'search', ...window, '--to', until, '--all', '-o', 'ndjson'])).stdout
      .split('\n').filter(Boolean).map((line) => records.event.keyOf(JSON.parse(line)));
    const twice = followed.filter((key, i) => followed.indexOf(key) !== i);
    expect(twice, 'written more than once').toEqual([]);
    expect([...followed].sort()).toEqual([...listed].sort());
    // the devices reported during the run: the window holds more than the seeded history
    expect(listed.length).toBeGreaterThan(20);
  }, 120_000);
});
