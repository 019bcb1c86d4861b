import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let devices: any[];
beforeAll(async () => {
  h = await startHarness();
  devices = await h.all('/v1/devices?limit=500');
});
afterAll(() => h.close());

const commandLog = async () => (await fetch(`${h.sb.baseUrl}/_sandbox/commands`)).json() as Promise<any[]>;
const capable = (cap: string) => devices.filter((d) => d.capabilities.includes(cap));
const reboot = (hw: string, key: string | undefined, body?: unknown) =>
  h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: key === undefined ? {} : { 'idempotency-key': key }, body });

describe('device commands: reboot and wake-up', () => {
  it('202 with a command record, logged once', async () => {
    const hw = capable('reboot')[0].hardware_id;
    const before = (await commandLog()).length;
    const res = await reboot(hw, 'first-reboot');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ hardware_id: hw, command: 'reboot', status: 'accepted', idempotency_key: 'first-reboot' });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const log = await commandLog();
    expect(log).toHaveLength(before + 1);
    expect(log.at(-1)).toEqual({ hardware_id: hw, command: 'reboot', idempotency_key: 'first-reboot', executed_at: res.body.accepted_at });
  });

  it('wake-up works the same way', async () => {
    const hw = capable('wake_up')[0].hardware_id;
    const res = await h.call('POST', `/v1/devices/${hw}/commands/wake-up`, { headers: { 'idempotency-key': 'wake-1' } });
    expect(res.status).toBe(202);
    expect(res.body.command).toBe('wake_up');
  });

  it('400 idempotency_key.missing and idempotency_key.too_long', async () => {
    const hw = capable('reboot')[0].hardware_id;
    expectProblem(await reboot(hw, undefined), 400, 'idempotency_key.missing');
    expectProblem(await reboot(hw, '   '), 400, 'idempotency_key.missing');
    expect((await reboot(hw, 'k'.repeat(200))).status).toBe(202);
    expectProblem(await reboot(hw, 'k'.repeat(201)), 400, 'idempotency_key.too_long');
  });

  it('422 device.capability_missing naming the capability', async () => {
    const noReboot = devices.find((d) => !d.capabilities.includes('reboot'));
    expect(expectProblem(await reboot(noReboot.hardware_id, 'cap-1'), 422, 'device.capability_missing').capability).toBe('reboot');
    const noWake = devices.find((d) => !d.capabilities.includes('wake_up'));
    const res = await h.call('POST', `/v1/devices/${noWake.hardware_id}/commands/wake-up`, { headers: { 'idempotency-key': 'cap-2' } });
    expect(expectProblem(res, 422, 'device.capability_missing').capability).toBe('wake_up');
  });

  it('404 for an unknown hardware id', async () => {
    expectProblem(await reboot('NO-SUCH-DEVICE', 'k404'), 404, 'resource.not_found');
  });

  it('replays the same key with the same body without executing again', async () => {
    const hw = capable('reboot')[1].hardware_id;
    const first = await reboot(hw, 'replay-me', {});
    const logged = (await commandLog()).length;
    // an empty body and {} are the same body
    const again = await reboot(hw, 'replay-me');
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await commandLog()).length).toBe(logged);
  });

  it('422 idempotency.conflict for the same key with a different body', async () => {
    const hw = capable('reboot')[2].hardware_id;
    expect((await reboot(hw, 'conflict-key', { reason: 'a' })).status).toBe(202);
    expect((await reboot(hw, 'conflict-key', { reason: 'a' })).headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await reboot(hw, 'conflict-key', { reason: 'b' }), 422, 'idempotency.conflict');
    expectProblem(await reboot(hw, 'conflict-key'), 422, 'idempotency.conflict');
  });

  it('scopes a key to client, method and path: the same key on other devices executes each once', async () => {
    const targets = capable('reboot').slice(3, 8).map((d) => d.hardware_id);
    const before = (await commandLog()).length;
    for (const hw of targets) expect((await reboot(hw, 'pipeline-42')).status).toBe(202);
    for (const hw of targets) expect((await reboot(hw, 'pipeline-42')).headers.get('idempotent-replayed')).toBe('true');
    const log = (await commandLog()).slice(before);
    expect(log.map((e) => e.hardware_id)).toEqual(targets);
  });
});
