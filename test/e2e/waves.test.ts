// Issue 25, must-show 1 and 2 against the sandbox: a reboot in waves with a brake (the plan in --dry-run, the canary
// pause, an abort with exit 11 and its --resume, exactly once across them all by the sandbox's command log), and
// --wait (each device `back` with its time or `not_back`, exit 12), the sandbox modelling devices that come back
// after a reboot (scenario device_reporting: short timings here) and one that never does.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

const NEVER_BACK = 'HW-000004';
const SCENARIO = { name: 'returns', device_reporting: { reboot_downtime_ms: 300, reboot_jitter_ms: 200, wake_up_report_ms: 100, never_back: [NEVER_BACK] } };

interface Executed { hardware_id: string; command: string; idempotency_key: string; executed_at: string }
interface Result { hardware_id: string; status: string; idempotency_key: string; wait?: string | null; back_after_s?: number | null }

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness({ devices: 40, scenario: SCENARIO });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const executed = async (): Promise<Executed[]> => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as Executed[];
const parse = (stdout: string): Result[] => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Result);
const runIdOf = (stderr: string): string => /^Run (\S+):/m.exec(stderr)![1]!;
const show = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;

function idsFile(name: string, ids: string[]): string {
  const file = path.join(h.configDir, name);
  writeFileSync(file, `${ids.join('\n')}\n`);
  return file;
}

/** Commands the sandbox executed for these devices since `from`, by device. */
async function executedSince(from: number): Promise<Map<string, Executed[]>> {
  const byDevice = new Map<string, Executed[]>();
  for (const c of (await executed()).slice(from)) byDevice.set(c.hardware_id, [...(byDevice.get(c.hardware_id) ?? []), c]);
  return byDevice;
}

describe('waves with a brake, and --wait, against the sandbox', { timeout: 60_000 }, () => {
  it('--dry-run shows the plan (waves, sizes, pause, threshold, what --wait follows) and sends nothing', async () => {
    const from = (await executed()).length;
    const file = idsFile('plan.txt', ['HW-000001', 'HW-000003', 'HW-000005', 'HW-000006', 'HW-000007', 'HW-000009', 'HW-000010']);
    const r = await h.cli(['devices', 'reboot', '--from-file', file, '--canary', '1', '--wave', '50%', '--abort-if-failed', '20%', '--wait', '--wait-timeout', '30s', '--dry-run']);
    expect(r.code, show(r)).toBe(0);
    expect(r.stderr).toContain('Canary: 1 device, then wait until it is back\n');
    expect(r.stderr).toContain('Waves: 2 (4, 2), each once every device of the one before is back, timed out or failed\n');
    expect(r.stderr).toContain('Brake: before each wave, stop once 20% of the devices sent so far failed or did not come back\n');
    expect(r.stderr).toContain('Wait: until each device reports a later reported_at than before its command, at most 30s each\n');
    expect((await executed()).length).toBe(from);
  });

  it('canary, then waves, each device back with the time it took; every device executed once', async () => {
    const from = (await executed()).length;
    const ids = ['HW-000001', 'HW-000003', 'HW-000005', 'HW-000006', 'HW-000007', 'HW-000009'];
    const r = await h.cli(['devices', 'reboot', '--from-file', idsFile('back.txt', ids), '--canary', '2', '--wave', '2', '--wait', '--wait-timeout', '10s', '--yes', '-o', 'ndjson']);
    expect(r.code, show(r)).toBe(0);
    const results = parse(r.stdout);
    expect(results.map((x) => x.hardware_id).sort()).toEqual(ids);
    for (const x of results) {
      expect(x).toMatchObject({ status: 'accepted', wait: 'back' });
      // the sandbox's downtime is 300 ms plus up to 200 ms of jitter
      expect(x.back_after_s).toBeGreaterThanOrEqual(0.2);
      expect(x.back_after_s).toBeLessThan(2);
    }
    expect(r.stderr).toContain('Canary sent to 2 devices: waiting until they are back before the waves.');
    expect(r.stderr).toMatch(/^Back: 6 of 6 reported again \(the slowest after \d+s\); not back: 0$/m);
    const byDevice = await executedSince(from);
    expect([...byDevice.keys()].sort()).toEqual(ids);
    for (const commands of byDevice.values()) expect(commands).toHaveLength(1);
    // the waves went out once the canary was back: after its devices' downtime
    const canaryAt = Math.max(...results.slice(0, 2).map((x) => Date.parse(byDevice.get(x.hardware_id)![0]!.executed_at)));
    const wavesAt = Math.min(...results.slice(2).map((x) => Date.parse(byDevice.get(x.hardware_id)![0]!.executed_at)));
    expect(wavesAt - canaryAt).toBeGreaterThanOrEqual(300);
  });

  it('a canary that does not come back trips the brake: exit 11, nothing more sent; --resume sends the rest once', async () => {
    const from = (await executed()).length;
    const rest = ['HW-000011', 'HW-000012', 'HW-000013'];
    const args = ['devices', 'reboot', '--from-file', idsFile('brake.txt', [NEVER_BACK, ...rest]), '--canary', '1', '--abort-if-failed', '1', '--wait', '--wait-timeout', '1s', '--yes', '-o', 'ndjson'];
    const r = await h.cli(args);
    expect(r.code, show(r)).toBe(11);
    expect(parse(r.stdout)).toMatchObject([{ hardware_id: NEVER_BACK, status: 'accepted', wait: 'not_back', back_after_s: null }]);
    const runId = runIdOf(r.stderr);
    expect(r.stderr).toContain(`Error: Reboot run ${runId} stopped by its brake: 1 of 1 device sent so far failed or did not come back (--abort-if-failed 1); sent to 1 of 4 devices, nothing more was sent`);
    expect(r.stderr).toContain(`Hint: once you have decided to go on, resume with: fleetctl devices reboot --resume ${runId} --wait --yes`);
    expect([...(await executedSince(from)).keys()]).toEqual([NEVER_BACK]);

    // the operator decides to go on: the canary is not sent again, the rest goes out with the run's keys
    const resumed = await h.cli(['devices', 'reboot', '--resume', runId, '--wait', '--wait-timeout', '10s', '--yes', '-o', 'ndjson']);
    expect(resumed.code, show(resumed)).toBe(0);
    // results come as the answers arrive: in any order
    const results = parse(resumed.stdout).map((x) => [x.hardware_id, x.wait, x.idempotency_key]);
    expect(results.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual(rest.map((id) => [id, 'back', `fleetctl-run-${runId}:${id}`]));
    const byDevice = await executedSince(from);
    expect([...byDevice.keys()].sort()).toEqual([NEVER_BACK, ...rest]);
    for (const commands of byDevice.values()) expect(commands).toHaveLength(1);
  });

  it('without --wait the brake counts failures; --canary-wait pauses before the waves', async () => {
    const from = (await executed()).length;
    // HW-000008 cannot reboot: the canary fails
    const braked = await h.cli(['devices', 'reboot', '--from-file', idsFile('fail.txt', ['HW-000008', 'HW-000014', 'HW-000015']), '--canary', '1', '--abort-if-failed', '100%', '--yes', '-o', 'ndjson']);
    expect(braked.code, show(braked)).toBe(11);
    expect(parse(braked.stdout)).toMatchObject([{ hardware_id: 'HW-000008', status: 'capability_missing' }]);
    expect(braked.stderr).toContain('1 of 1 device sent so far failed (--abort-if-failed 100%); sent to 1 of 3 devices');
    expect((await executed()).length).toBe(from);

    const paused = await h.cli(['devices', 'wake-up', '--from-file', idsFile('pause.txt', ['HW-000016', 'HW-000017', 'HW-000018']), '--canary', '1', '--canary-wait', '1s', '--yes', '-o', 'ndjson']);
    expect(paused.code, show(paused)).toBe(0);
    expect(paused.stderr).toContain('Canary sent to 1 device: pausing 1s before the waves (--canary-wait).');
    const times = (await executed()).slice(from).map((c) => Date.parse(c.executed_at));
    expect(times).toHaveLength(3);
    expect(Math.min(times[1]!, times[2]!) - times[0]!).toBeGreaterThanOrEqual(1000);
  });

  it('one device: a woken device is back within seconds; a rebooted one that never reports is not_back, exit 12', async () => {
    const woken = await h.cli(['devices', 'wake-up', 'HW-000019', '--wait', '--wait-timeout', '10s', '--yes', '-o', 'json']);
    expect(woken.code, show(woken)).toBe(0);
    expect(JSON.parse(woken.stdout)).toMatchObject({ hardware_id: 'HW-000019', command: 'wake_up', wait: 'back' });
    expect(woken.stderr).toMatch(/^HW-000019 is back: it reported again after [\d.]+s\.$/m);

    const lost = await h.cli(['devices', 'reboot', NEVER_BACK, '--wait', '--wait-timeout', '1s', '--yes', '-o', 'json']);
    expect(lost.code, show(lost)).toBe(12);
    expect(JSON.parse(lost.stdout)).toMatchObject({ hardware_id: NEVER_BACK, wait: 'not_back', back_after_s: null });
    expect(lost.stderr).toContain('Error: 1 of 1 device did not report again before --wait-timeout');
  });

  it('flags that do not go together are refused before anything is sent (exit 2)', async () => {
    const from = (await executed()).length;
    for (const [args, message] of [
      [['--wait-timeout', '5s'], 'Error: --wait-timeout goes with --wait'],
      [['--canary-wait', '5s'], 'Error: --canary-wait needs --canary N'],
      [['--canary', '1', '--canary-wait', '5s', '--wait'], 'Error: give --canary-wait or --wait, not both'],
      [['--wave', '0'], 'Error: --wave must be a number of devices such as 20, or a share such as 5%, got "0"'],
    ] as const) {
      const r = await h.cli(['devices', 'reboot', 'HW-000001', 'HW-000003', ...args, '--yes']);
      expect(r.code, show(r)).toBe(2);
      expect(r.stderr.split('\n')[0]).toContain(message);
    }
    expect((await executed()).length).toBe(from);
  });
});
