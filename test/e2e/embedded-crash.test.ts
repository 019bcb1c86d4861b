// `kill -9` of a `fleetctl --sandbox` bulk reboot at a random moment, then the run finished (`--resume RUN_ID`, or
// the same command again when the run id was never printed): by the embedded sandbox's own command log (its state
// file, read as the next run would), every device of the fleet was rebooted exactly once, and a retry with the same
// --idempotency-key replays every answer. Seeded; FLEETCTL_CRASH_TRIALS=N runs more trials (20 by default),
// FLEETCTL_CRASH_SEED=S another sequence of kill moments. And a hang-up (SIGHUP, an SSH session dropped) stops a
// run as cleanly as SIGTERM: exit 129, -o json a valid array, the resume line, no lock left behind.
import { readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { runCli } from './harness.js';
import { embeddedCommandLog, executionsOf, REBOOTABLE, rebootArgs, seeded, spawnFleetctl } from './crash-trial.js';

const TRIALS = Number(process.env.FLEETCTL_CRASH_TRIALS ?? 20);
const SEED = Number(process.env.FLEETCTL_CRASH_SEED ?? 35);

const envOf = (configDir: string) => ({ FLEETCTL_CONFIG_DIR: configDir });
const reboot = (key: string) => ['--sandbox', ...rebootArgs(key)];

/**
 * The command, killed with SIGKILL `afterMs` after it started, or after it printed its run id when `afterRunId`
 * (or left to finish first); its stderr so far, and how long it ran from its start and from its run id.
 */
function killedAfter(args: string[], env: Record<string, string>, afterMs: number, afterRunId = false) {
  return new Promise<{ stderr: string; finishedMs: number; runMs: number; killed: boolean }>((resolve, reject) => {
    const started = Date.now();
    let runStarted = 0;
    const child = spawnFleetctl(args, env);
    let stderr = '';
    let timer = afterRunId ? undefined : setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!runStarted && /--resume \S+\)/.test(stderr)) {
        runStarted = Date.now();
        if (afterRunId) timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ stderr, finishedMs: Date.now() - started, runMs: runStarted ? Date.now() - runStarted : 0, killed: signal === 'SIGKILL' });
    });
  });
}

/** Reboots by the sandbox's command log, by hardware id, for the runs of key `key`. */
const executedOf = async (configDir: string, key: string) => executionsOf(await embeddedCommandLog(configDir), key);

describe('the embedded sandbox under kill -9', () => {
  it(`a bulk reboot killed at random moments and finished executes each device once, and a retry replays (${TRIALS} trials)`, async () => {
    const random = seeded(SEED);
    // how long a whole run takes on this machine now: kills fall from its start to past its end
    const calibration = tempDir('fleetctl-crash-');
    const whole = await killedAfter(reboot('calibrate'), envOf(calibration), 60_000);
    expect(whole.killed).toBe(false);
    expect(whole.runMs).toBeGreaterThan(0);

    const outcomes = { killedWithRunId: 0, killedBeforeRunId: 0, finished: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      const configDir = tempDir('fleetctl-crash-');
      const env = envOf(configDir);
      const key = `crash-${SEED}-${trial}`;
      // one in four from the start (in start-up, the token, the plan), the rest within the run itself
      const duringRun = random() >= 0.25;
      const killAt = Math.round(random() * (duringRun ? whole.runMs : whole.finishedMs) * 1.1);
      const crashed = await killedAfter(reboot(key), env, killAt, duringRun);
      const runId = /--resume (\S+?)\)/.exec(crashed.stderr)?.[1];
      const why = `trial ${trial} (seed ${SEED}, killed ${killAt} ms after its ${duringRun ? 'run id' : 'start'})`;
      if (!crashed.killed) outcomes.finished++;
      else if (runId) outcomes.killedWithRunId++;
      else outcomes.killedBeforeRunId++;

      const finish = await runCli(runId ? ['--sandbox', 'devices', 'reboot', '--resume', runId, '--yes'] : reboot(key), { env, process: true });
      expect(finish.code, `${why}: ${finish.stderr}`).toBe(0);
      const executed = await executedOf(configDir, key);
      expect([...executed.values()].filter((n) => n !== 1), why).toEqual([]);
      expect(executed.size, why).toBe(REBOOTABLE);

      // CI retrying the job with the same key: every device answered from its idempotency record
      const retry = await runCli(reboot(key), { env, process: true });
      expect(retry.code, `${why}: ${retry.stderr}`).toBe(0);
      expect(retry.stderr, why).toContain(`${REBOOTABLE} devices: 0 accepted, ${REBOOTABLE} replayed`);
      expect(await executedOf(configDir, key), why).toEqual(executed);
      rmSync(configDir, { recursive: true, force: true });
    }
    // the kills did land mid-run, not only before or after it
    expect(outcomes.killedWithRunId, JSON.stringify(outcomes)).toBeGreaterThan(0);
  }, 600_000);
});

describe('the embedded sandbox under SIGHUP (a dropped SSH session)', () => {
  it('a bulk reboot hung up mid-run: exit 129, -o json a valid array, the resume line, no lock left, and the resume finishes it once', async () => {
    const configDir = tempDir('fleetctl-hangup-');
    const env = envOf(configDir);
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawnFleetctl([...reboot('hangup'), '--concurrency', '1', '-o', 'json'], env, 'pipe');
      let stdout = '';
      let stderr = '';
      let hangingUp: NodeJS.Timeout | undefined;
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // the run id is out: the run is under way, one device at a time; hung up at once (31 devices one after the
        // other take a hundred milliseconds or so: a later hang-up could come after the last)
        if (/--resume \S+\)/.test(stderr) && !hangingUp) hangingUp = setTimeout(() => child.kill('SIGHUP'), 0);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        clearTimeout(hangingUp);
        resolve({ code, stdout, stderr });
      });
    });
    expect(run.code, run.stderr).toBe(129);
    // what was completed before the hang-up (none, if it came first), as one valid array
    const results = JSON.parse(run.stdout) as { hardware_id: string }[];
    expect(results.length).toBeLessThan(REBOOTABLE);
    // the resume line after the interruption, not only the run's first line
    const runId = /--resume (\S+)\)/.exec(run.stderr)?.[1];
    expect(run.stderr.split('\n').filter((line) => line.includes(`--resume ${runId}`)).length, run.stderr).toBeGreaterThan(1);
    expect(readdirSync(configDir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(lock|break)$/.test(name))).toEqual([]);
    const finish = await runCli(['--sandbox', 'devices', 'reboot', '--resume', runId!, '--yes'], { env, process: true });
    expect(finish.code, finish.stderr).toBe(0);
    const executed = await executedOf(configDir, 'hangup');
    expect(executed.size).toBe(REBOOTABLE);
    expect([...executed.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});
