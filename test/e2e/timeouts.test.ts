// A request that timed out is tried again (same back-off and budget as a 503) when a repeat is safe whatever
// happened to the first: a GET, or a command carrying its Idempotency-Key (the repeat replays). A write without a
// key is never sent twice. The sandbox's fault rules hold chosen requests longer than --timeout, then answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function holdNext(operation_id: string, times: number, delay_ms = 1500): Promise<void> {
  const rule = { match: { operation_id }, respond: { delay_ms }, times };
  const res = await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
  expect(res.status, await res.clone().text()).toBe(201);
}

describe('timeouts retried where safe', () => {
  it('devices list --all: pages that time out are fetched again, and the list is whole (exit 0, not 9 part-way)', async () => {
    const whole = await h.cli(['devices', 'list', '--all', '--limit', '25', '-o', 'ndjson']);
    expect(whole.code, whole.stderr).toBe(0);
    await holdNext('listDevices', 2);
    const held = await h.cli(['devices', 'list', '--all', '--limit', '25', '-o', 'ndjson', '--timeout', '0.5', '--debug']);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toBe(whole.stdout);
    expect(held.stderr.match(/retrying in \d+ ms after connection failed: .*timed out after 0.5 s/g)).toHaveLength(2);
  });

  it('a device command that timed out is sent again with its key: executed once, reported accepted', async () => {
    const before = ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[]).length;
    await holdNext('rebootDevice', 1);
    const reboot = await h.cli(['devices', 'reboot', 'HW-000001', '--yes', '--idempotency-key', 'timed-out-once', '--timeout', '0.5', '-o', 'json']);
    expect(reboot.code, reboot.stderr).toBe(0);
    expect(JSON.parse(reboot.stdout)).toMatchObject({ hardware_id: 'HW-000001', idempotency_key: 'timed-out-once' });
    // the held request is carried out when its delay ends: once, whichever of the two came first
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const executed = ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { idempotency_key: string }[]).slice(before);
    expect(executed.map((e) => e.idempotency_key)).toEqual(['timed-out-once']);
  });

  it('in a bulk run too: a device whose command timed out is sent again with its key, and reported by that answer, not failed', async () => {
    const before = ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[]).length;
    await holdNext('rebootDevice', 1);
    const reboot = await h.cli(['devices', 'reboot', 'HW-000001', 'HW-000003', '--yes', '--idempotency-key', 'bulk-timed-out', '--timeout', '0.5', '-o', 'json']);
    expect(reboot.code, reboot.stderr).toBe(0);
    expect((JSON.parse(reboot.stdout) as { status: string }[]).map((r) => r.status).sort()).toEqual(['accepted', 'accepted']);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const executed = ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { idempotency_key: string }[]).slice(before);
    expect(executed.map((e) => e.idempotency_key).sort()).toEqual(['bulk-timed-out:HW-000001', 'bulk-timed-out:HW-000003']);
  });

  it('a write without an Idempotency-Key (an assignment) is not sent again: exit 9 at the first timeout', async () => {
    const device = JSON.parse((await h.cli(['devices', 'list', '--limit', '1', '-o', 'json'])).stdout)[0];
    const vehicle = JSON.parse((await h.cli(['vehicles', 'list', '--limit', '1', '-o', 'json'])).stdout)[0];
    await holdNext('assignDevice', 1);
    const assign = await h.cli(['devices', 'assign', device.id, '--vehicle-id', vehicle.id, '--timeout', '0.5', '--debug']);
    expect(assign.code, assign.stderr).toBe(9);
    expect(assign.stderr).toContain('timed out after 0.5 s');
    expect(assign.stderr).not.toContain('retrying in');
    expect(assign.stderr.match(/> PUT /g) ?? []).toHaveLength(1);
  });
});
