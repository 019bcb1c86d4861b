// Issue 34, must-show 7 against the sandbox: rerun what failed. A reboot run in which one device's command fails
// (a 503 from a targeted fault, no retries) and one cannot reboot; then `--from-run RUN_ID` sends to the failed
// one again as a new run with keys of its own, and `wake-up --from-run RUN_ID --only capability_missing` wakes the
// one that could not reboot. The sandbox's command log shows each executed once, with the new run's key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

const FAILING = 'HW-000003';
const CANNOT_REBOOT = 'HW-000008';

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness({ devices: 20, faults: [{ match: { operation_id: 'rebootDevice', hardware_id: FAILING }, respond: { status: 503, retry_after: 0 }, times: 1 }] });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

interface Executed { hardware_id: string; command: string; idempotency_key: string }
const executed = async () => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as Executed[];
const runIdOf = (stderr: string): string => /^Run (\S+):/m.exec(stderr)![1]!;
const show = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
const results = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { hardware_id: string; status: string; idempotency_key: string });

describe('--from-run: rerun what failed', { timeout: 60_000 }, () => {
  it('the failed device again, as a new run with its own keys; the one that could not reboot woken instead', async () => {
    const first = await h.cli(['--max-retries', '0', 'devices', 'reboot', 'HW-000001', FAILING, CANNOT_REBOOT, '--yes', '-o', 'ndjson']);
    expect(first.code, show(first)).toBe(10);
    const runId = runIdOf(first.stderr);
    expect(results(first.stdout).map((r) => [r.hardware_id, r.status]).sort()).toEqual([['HW-000001', 'accepted'], [FAILING, 'failed'], [CANNOT_REBOOT, 'capability_missing']]);

    const from = (await executed()).length;
    const rerun = await h.cli(['devices', 'reboot', '--from-run', runId, '--yes', '-o', 'ndjson']);
    expect(rerun.code, show(rerun)).toBe(0);
    const rerunId = runIdOf(rerun.stderr);
    expect(rerunId).not.toBe(runId);
    expect(results(rerun.stdout)).toMatchObject([{ hardware_id: FAILING, status: 'accepted', idempotency_key: `fleetctl-run-${rerunId}:${FAILING}` }]);

    const woken = await h.cli(['devices', 'wake-up', '--from-run', runId, '--only', 'capability_missing', '--yes', '-o', 'ndjson']);
    expect(woken.code, show(woken)).toBe(0);
    expect(results(woken.stdout).map((r) => [r.hardware_id, r.status])).toEqual([[CANNOT_REBOOT, 'accepted']]);
    expect((await executed()).slice(from).map((e) => [e.hardware_id, e.command])).toEqual([[FAILING, 'reboot'], [CANNOT_REBOOT, 'wake_up']]);

    // nothing left that failed: exit 5, saying so; --allow-empty makes it fine
    const none = await h.cli(['devices', 'reboot', '--from-run', rerunId, '--yes']);
    expect(none.code, show(none)).toBe(5);
    expect(none.stderr).toContain(`Error: no device of run ${rerunId} ended failed`);
    const fine = await h.cli(['devices', 'reboot', '--from-run', rerunId, '--allow-empty', '--yes']);
    expect(fine.code, show(fine)).toBe(0);
  });
});
