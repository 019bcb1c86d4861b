// Issue 34, must-show 1, 3 and 8 against the sandbox, proved from its command log: with --wait each wave goes out
// only once the one before is back; a wave that does not come back trips the brake before the next is sent;
// --wave-pause holds between waves; the journal keeps the run's plan, a flag that contradicts it on --resume is
// refused naming both, and one that may change is shown; and Ctrl-C at each phase (canary pending, mid-wave,
// between waves) then --resume continues the plan: the devices sent and not yet back are waited for before
// anything more is sent, nothing is executed twice.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';

/** A rebooted device reports again after exactly this long (no jitter): its return time is known from the log. */
const DOWN_MS = 1200;
const NEVER_BACK = 'HW-000004';

interface Executed { hardware_id: string; command: string; executed_at: string }
interface Result { hardware_id: string; status: string; wait?: string | null }

let h: SandboxHarness;
let capable: string[];

beforeAll(async () => {
  h = await startHarness({
    devices: 90,
    scenario: { name: 'gated', device_reporting: { reboot_downtime_ms: DOWN_MS, reboot_jitter_ms: 0, never_back: [NEVER_BACK] } },
    // each reboot answered a little late, so that a run at --concurrency 1 can be stopped between two devices
    faults: [{ match: { operation_id: 'rebootDevice' }, respond: { delay_ms: 250 } }],
  });
  const listed = await h.cli(['devices', 'list', '--all', '-o', 'ndjson']);
  capable = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { hardware_id: string; capabilities: string[] })
    .filter((d) => d.capabilities.includes('reboot') && d.hardware_id !== NEVER_BACK).map((d) => d.hardware_id);
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** Devices for one test: never the same twice across tests. */
let next = 0;
const take = (n: number): string[] => {
  const ids = capable.slice(next, next + n);
  next += n;
  if (ids.length < n) throw new Error('not enough devices that can reboot');
  return ids;
};
const show = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
const parse = (stdout: string): Result[] => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Result);
const runIdOf = (stderr: string): string => /^Run (\S+):/m.exec(stderr)![1]!;

function idsFile(ids: string[]): string {
  const file = path.join(h.configDir, `ids-${ids[0]}.txt`);
  writeFileSync(file, `${ids.join('\n')}\n`);
  return file;
}

/** When the sandbox executed each of these devices' reboots (ms), every execution. */
async function executions(ids: string[]): Promise<Map<string, number[]>> {
  const log = (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as Executed[];
  const at = new Map<string, number[]>();
  for (const c of log) if (ids.includes(c.hardware_id) && c.command === 'reboot') at.set(c.hardware_id, [...(at.get(c.hardware_id) ?? []), Date.parse(c.executed_at)]);
  return at;
}

/** Each device executed exactly once; when. */
async function onceEach(ids: string[]): Promise<Map<string, number>> {
  const at = await executions(ids);
  expect([...at.keys()].sort()).toEqual([...ids].sort());
  for (const [id, times] of at) expect(times, id).toHaveLength(1);
  return new Map([...at].map(([id, times]) => [id, times[0]!]));
}

/** Every device of `later` was executed after every device of `earlier` was back (executed + DOWN_MS) and `pauseMs`. */
function after(at: Map<string, number>, earlier: string[], later: string[], pauseMs = 0): void {
  const back = Math.max(...earlier.map((id) => at.get(id)! + DOWN_MS));
  const first = Math.min(...later.map((id) => at.get(id)!));
  expect(first - back, `${later.join(',')} went out ${first - back} ms after ${earlier.join(',')} were back`).toBeGreaterThanOrEqual(pauseMs);
}

/** The CLI as a process of its own, stopped with SIGINT once `when` says so. */
async function interrupted(args: string[], when: (stderr: string) => Promise<boolean> | boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: h.configDir, CI: 'true', NO_COLOR: '1', ...h.envFor() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  for (let i = 0; i < 1500 && !(await when(stderr)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill('SIGINT');
  const code = await closed;
  return { code, stdout, stderr };
}

describe('waves that wait, against the sandbox', { timeout: 90_000 }, () => {
  it('with --wait each wave goes out once every device of the one before is back', async () => {
    const ids = take(7);
    const r = await h.cli(['devices', 'reboot', '--from-file', idsFile(ids), '--canary', '1', '--wave', '3', '--wait', '--wait-timeout', '20s', '--yes', '-o', 'ndjson']);
    expect(r.code, show(r)).toBe(0);
    expect(r.stderr).toContain('Waves: 2 (2 x 3), each once every device of the one before is back, timed out or failed');
    expect(r.stderr).toContain('Wave 2/3 sent: waiting until its 3 devices are back before wave 3/3.');
    const at = await onceEach(ids);
    after(at, ids.slice(0, 1), ids.slice(1, 4));
    after(at, ids.slice(1, 4), ids.slice(4));
  });

  it('a second wave that never comes back: the brake stops the run before the third is sent (exit 11); --resume sends it once', async () => {
    const [canary, other, ...third] = take(4);
    const ids = [canary!, NEVER_BACK, other!, ...third];
    const r = await h.cli(['devices', 'reboot', '--from-file', idsFile(ids), '--canary', '1', '--wave', '2', '--abort-if-failed', '1', '--wait', '--wait-timeout', '3s', '--yes', '-o', 'ndjson']);
    expect(r.code, show(r)).toBe(11);
    expect(r.stderr).toContain('1 of 3 devices sent so far failed or did not come back (--abort-if-failed 1); sent to 3 of 5 devices, nothing more was sent');
    const sent = await executions(ids);
    expect([...sent.keys()].sort()).toEqual([canary!, NEVER_BACK, other!].sort());
    const journal = readFileSync(path.join(h.configDir, 'runs', `${runIdOf(r.stderr)}.ndjson`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(journal.filter((l) => l.type === 'wait' && l.outcome === 'not_back').map((l) => l.hardware_id)).toEqual([NEVER_BACK]);
    expect(journal.at(-1)).toMatchObject({ type: 'brake' });

    const resumed = await h.cli(['devices', 'reboot', '--resume', runIdOf(r.stderr), '--yes', '-o', 'ndjson']);
    expect(resumed.code, show(resumed)).toBe(0);
    expect(parse(resumed.stdout).map((x) => [x.hardware_id, x.wait]).sort()).toEqual(third.map((id) => [id, 'back']).sort());
    const at = await executions(ids);
    for (const times of at.values()) expect(times).toHaveLength(1);
    expect([...at.keys()].sort()).toEqual([...ids].sort());
  });

  it('--wave-pause holds between waves without --wait; the plan says it', async () => {
    const ids = take(4);
    const r = await h.cli(['devices', 'reboot', '--from-file', idsFile(ids), '--wave', '2', '--wave-pause', '1s', '--yes', '-o', 'ndjson']);
    expect(r.code, show(r)).toBe(0);
    expect(r.stderr).toContain('Waves: 2 (2 x 2), each 1s after the one before was answered');
    expect(r.stderr).toContain('Pausing 1s before wave 2/2 (--wave-pause).');
    const at = await onceEach(ids);
    expect(Math.min(at.get(ids[2]!)!, at.get(ids[3]!)!) - Math.max(at.get(ids[0]!)!, at.get(ids[1]!)!)).toBeGreaterThanOrEqual(1000);
  });

  it('--resume keeps the plan: a contradicting flag is refused naming both; --wait-timeout may change, and is shown', async () => {
    const ids = [NEVER_BACK, ...take(3)];
    const r = await h.cli(['devices', 'reboot', '--from-file', idsFile(ids), '--canary', '1', '--abort-if-failed', '1', '--concurrency', '1', '--wait', '--wait-timeout', '1s', '--yes', '-o', 'ndjson']);
    expect(r.code, show(r)).toBe(11);
    const runId = runIdOf(r.stderr);
    const header = JSON.parse(readFileSync(path.join(h.configDir, 'runs', `${runId}.ndjson`), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(header.settings).toEqual({ concurrency: 1, waves: { canary: { count: 1 }, abortIfFailed: { count: 1 } }, wait: { timeout_ms: 1000, report_time_field: null } });

    for (const [flags, message] of [
      [['--concurrency', '4'], `Error: --concurrency 4 contradicts run ${runId}, which was started with --concurrency 1`],
      [['--wave', '1'], `Error: --wave 1 contradicts run ${runId}, which was started with no --wave`],
      [['--wait', '--report-time-field', 'seen_at'], `Error: --report-time-field seen_at contradicts run ${runId}, which was started with no --report-time-field (the field from the API document)`],
    ] as const) {
      const refused = await h.cli(['devices', 'reboot', '--resume', runId, ...flags, '--yes']);
      expect(refused.code, show(refused)).toBe(2);
      expect(refused.stderr.split('\n')[0]).toBe(message);
    }
    expect([...(await executions(ids)).keys()]).toEqual([NEVER_BACK]);

    const resumed = await h.cli(['devices', 'reboot', '--resume', runId, '--wait', '--wait-timeout', '20s', '--yes', '-o', 'ndjson']);
    expect(resumed.code, show(resumed)).toBe(0);
    expect(resumed.stderr).toContain(`Plan of run ${runId}, as its journal keeps it:`);
    expect(resumed.stderr).toContain('Concurrency: at most 1 in flight (--concurrency 1)');
    expect(resumed.stderr).toContain('Changed on resume: --wait-timeout 20s (was 1s)');
    expect(resumed.stderr).toContain('at most 20s each');
    // one at a time, each answered 250 ms late: the three went out at least that far apart
    const at = await executions(ids);
    const times = ids.slice(1).map((id) => at.get(id)![0]!).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(200);
  });
});

describe('Ctrl-C at each phase, then --resume', { timeout: 90_000 }, () => {
  it('while the canary is pending: the resumed run waits for it before the waves, and sends nothing twice', async () => {
    const ids = take(5);
    const first = await interrupted(['devices', 'reboot', '--from-file', idsFile(ids), '--canary', '1', '--wave', '2', '--wait', '--wait-timeout', '20s', '--yes', '-o', 'ndjson'], (e) => e.includes('Canary sent to 1 device: waiting'));
    expect(first.code, show(first)).toBe(130);
    expect([...(await executions(ids)).keys()]).toEqual([ids[0]]);

    const resumed = await h.cli(['devices', 'reboot', '--resume', runIdOf(first.stderr), '--yes', '-o', 'ndjson']);
    expect(resumed.code, show(resumed)).toBe(0);
    expect(resumed.stderr).toContain('Canary: 1 device, then wait until it is back');
    expect(resumed.stderr).toContain('Canary sent to 1 device: waiting until it is back before the waves.');
    expect(parse(resumed.stdout).map((x) => x.hardware_id).sort()).toEqual([...ids].sort());
    const at = await onceEach(ids);
    after(at, ids.slice(0, 1), ids.slice(1, 3));
    after(at, ids.slice(1, 3), ids.slice(3));
  });

  it('mid-wave: the devices of the wave sent before the interrupt are waited for before the next wave', async () => {
    const ids = take(7);
    const first = await interrupted(
      ['devices', 'reboot', '--from-file', idsFile(ids), '--canary', '1', '--wave', '3', '--concurrency', '1', '--wait', '--wait-timeout', '20s', '--yes', '-o', 'ndjson'],
      async () => (await executions(ids)).size >= 2,
    );
    expect(first.code, show(first)).toBe(130);
    const sent = (await executions(ids)).size;
    // the canary and part of the second wave, not all of it
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(sent).toBeLessThan(4);

    const resumed = await h.cli(['devices', 'reboot', '--resume', runIdOf(first.stderr), '--yes', '-o', 'ndjson']);
    expect(resumed.code, show(resumed)).toBe(0);
    const at = await onceEach(ids);
    after(at, ids.slice(1, 4), ids.slice(4));
    // every device ends back, once, between the two runs' output
    const results = [...parse(first.stdout), ...parse(resumed.stdout)];
    expect(results.filter((x) => x.wait === 'back').map((x) => x.hardware_id).sort()).toEqual([...ids].sort());
  });

  it('between waves (during --wave-pause): the resumed run holds what is left of the pause, then sends the next wave', async () => {
    const ids = take(4);
    const first = await interrupted(['devices', 'reboot', '--from-file', idsFile(ids), '--wave', '2', '--wave-pause', '3s', '--wait', '--wait-timeout', '20s', '--yes', '-o', 'ndjson'], (e) => e.includes('Pausing 3s before wave 2/2'));
    expect(first.code, show(first)).toBe(130);
    expect([...(await executions(ids)).keys()].sort()).toEqual(ids.slice(0, 2).sort());

    const resumed = await h.cli(['devices', 'reboot', '--resume', runIdOf(first.stderr), '--yes', '-o', 'ndjson']);
    expect(resumed.code, show(resumed)).toBe(0);
    expect(resumed.stderr).toMatch(/Pausing \ds before wave 2\/2 \(--wave-pause\)\./);
    const at = await onceEach(ids);
    // the first wave came back, then the whole pause passed (part of it before the interrupt)
    after(at, ids.slice(0, 2), ids.slice(2), 3000);
  });
});
