// A state file shared one request at a time (shareState: the embedded sandbox of `fleetctl --sandbox`): two
// sandboxes serve it at once, each request seeing every change of the other; a wait for the world says who holds
// it; the world keeps its times from one start to the next; a device back from a reboot stays back, and its
// record's last_seen_at is its last report's reported_at.
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { lockStateFile } from '../../src/sandbox/state-file.js';
import { Harness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const statePathIn = () => path.join(tempDir('fleetctl-shared-'), 'sandbox', 'state.json');

async function shared(statePath: string, opts: SandboxOptions = {}): Promise<Harness> {
  const h = new Harness(await startSandbox({ port: 0, statePath, shareState: true, stateLockWaitMs: 10_000, ...opts }));
  open.push(h);
  return h;
}

async function closed(h: Harness): Promise<void> {
  open.splice(open.indexOf(h), 1);
  await h.close();
}

/** A device's record, by hardware id. */
async function deviceOf(h: Harness, hardwareId: string): Promise<any> {
  return (await h.all('/v1/devices?limit=100')).find((d: any) => d.hardware_id === hardwareId);
}

/** A clock the test moves. */
function clockAt(iso: string) {
  let ms = Date.parse(iso);
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}

describe('a state file shared one request at a time', () => {
  it('two sandboxes serve it at once: each answers at once and sees what the other changed', async () => {
    const statePath = statePathIn();
    const a = await shared(statePath);
    // a second starts while the first runs: before, it waited for the first to close
    const b = await shared(statePath);
    const [hw] = (await a.call('GET', '/v1/devices?limit=50')).body.data.filter((d: any) => d.capabilities.includes('reboot')).map((d: any) => d.hardware_id);
    const original = await a.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'shared' } });
    expect(original.status).toBe(202);
    // b's token was issued by b, a's reboot by a: each finds the other's
    const replay = await b.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'shared' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(original.body);
    const device = await deviceOf(b, hw);
    expect((await b.call('DELETE', `/v1/devices/${device.id}/assignment`)).status).toBe(204);
    expect((await a.call('GET', `/v1/devices/${device.id}`)).body.vehicle_id).toBeNull();
    // the clients of one world: same secrets
    expect(b.sb.clients).toEqual(a.sb.clients);
    // nothing is held between requests
    await expect(readFile(`${statePath}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a request that must wait for the world says so within a second, naming who holds it', async () => {
    const statePath = statePathIn();
    const notices: { line: string; at: number }[] = [];
    const h = await shared(statePath, { lockNotice: (line) => notices.push({ line, at: Date.now() }), lockNoticeAfterMs: 300 });
    await h.token();
    const held = await lockStateFile(statePath, { waitMs: 0, purpose: 'fleetctl --sandbox devices events --follow' });
    const asked = Date.now();
    const answer = h.call('GET', '/v1/devices?limit=1');
    await new Promise((r) => setTimeout(r, 1500));
    expect(notices.map((n) => n.line)).toEqual([expect.stringMatching(new RegExp(`^Waiting for the sandbox state .+ is held by process ${process.pid} \\(fleetctl --sandbox devices events --follow, since .+\\)`))]);
    expect(notices[0]!.at - asked).toBeLessThan(1000);
    held.release();
    expect((await answer).status).toBe(200);
  });

  it('a state another process reset is served as it is now; one it cannot read is answered 503 until it can be', async () => {
    const statePath = statePathIn();
    const h = await shared(statePath);
    const commands = async () => (await fetch(`${h.sb.baseUrl}/_sandbox/commands`)).json();
    expect((await h.call('POST', '/v1/devices/HW-000001/commands/reboot', { headers: { 'idempotency-key': 'before-reset' } })).status).toBe(202);
    expect(await commands()).toHaveLength(1);
    // what `fleetctl sandbox reset` does, under the lock: the next request finds a new world, kept at once
    await rm(`${statePath}.changes`, { force: true });
    await rm(statePath);
    expect(await commands()).toEqual([]);
    expect(JSON.parse(await readFile(statePath, 'utf8')).anchor).toMatch(/^\d{4}-/);

    await writeFile(statePath, '{"format": "fleetctl-sandbox-state", "vers');
    const refused = await fetch(`${h.sb.baseUrl}/_sandbox/commands`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { detail: string }).detail).toContain(`The sandbox cannot load its state: the sandbox state file ${statePath} is corrupt`);
    // not taken for loaded: refused again, never overwritten
    expect((await fetch(`${h.sb.baseUrl}/_sandbox/commands`)).status).toBe(503);
    expect(await readFile(statePath, 'utf8')).toBe('{"format": "fleetctl-sandbox-state", "vers');
    await rm(statePath);
    expect(await commands()).toEqual([]);
  });
});

describe('a world that keeps still', () => {
  it('the same seeded times at every start: they are anchored to the world, which the state file keeps', async () => {
    const statePath = statePathIn();
    const clock = clockAt('2026-03-01T10:00:30Z');
    const first = await shared(statePath, { now: clock.now });
    const devices = await first.all('/v1/devices?limit=100');
    // a device with media
    let hw = '';
    for (const d of devices.filter((x: any) => x.last_seen_at !== null)) {
      if ((await first.call('GET', `/v1/devices/${d.hardware_id}/media?limit=1`)).body.data.length > 0) {
        hw = d.hardware_id;
        break;
      }
    }
    const events = (await first.call('GET', `/v1/devices/${hw}/events?limit=100`)).body.data;
    // media file names carry their times: stable too (their signed links expire, so names only)
    const mediaNames = async (h: Harness) => (await h.call('GET', `/v1/devices/${hw}/media?limit=100`)).body.data.map((m: any) => m.file_name);
    const media = await mediaNames(first);
    await closed(first);
    expect(JSON.parse(await readFile(statePath, 'utf8')).anchor).toBe('2026-03-01T10:00:00.000Z');

    clock.advance(17 * 60_000);
    const later = await shared(statePath, { now: clock.now });
    expect(await later.all('/v1/devices?limit=100')).toEqual(devices);
    expect((await later.call('GET', `/v1/devices/${hw}/events?limit=100`)).body.data).toEqual(events);
    expect(await mediaNames(later)).toEqual(media);
  });

  it('a device back from a reboot is back at the next start, its last_seen_at that of its last report, its history unchanged', async () => {
    const statePath = statePathIn();
    const clock = clockAt('2026-03-01T10:00:00Z');
    const first = await shared(statePath, { now: clock.now });
    const hw = 'HW-000001';
    const events = (await first.call('GET', `/v1/devices/${hw}/events?limit=100`)).body.data;
    const before = await deviceOf(first, hw);
    expect((await first.call('GET', `/v1/devices/${hw}/last-reported`)).body.reported_at).toBe(before.last_seen_at);
    const accepted = await first.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'back' } });
    expect(accepted.status).toBe(202);
    await closed(first);

    // the default downtime is 20 s: the device came back while no sandbox ran
    clock.advance(60_000);
    const next = await shared(statePath, { now: clock.now });
    const backAt = new Date(Date.parse(accepted.body.accepted_at) + 20_000).toISOString();
    // the record (listed, as `status` counts it, and by id) and the last report agree
    const device = await deviceOf(next, hw);
    expect(device.last_seen_at).toBe(backAt);
    expect((await next.call('GET', `/v1/devices/${device.id}`)).body.last_seen_at).toBe(backAt);
    expect((await next.call('GET', `/v1/devices/${hw}/last-reported`)).body.reported_at).toBe(backAt);
    expect((await next.call('GET', `/v1/devices/${hw}/events?limit=100`)).body.data).toEqual(events);
  });

  it('commands replayed from the log as they were taken: a device woken after it came back from a reboot reports after the wake-up', async () => {
    const statePath = statePathIn();
    const clock = clockAt('2026-03-01T10:00:00Z');
    const first = await shared(statePath, { now: clock.now });
    expect((await first.call('POST', '/v1/devices/HW-000001/commands/reboot', { headers: { 'idempotency-key': 'r' } })).status).toBe(202);
    clock.advance(30_000);
    const woken = await first.call('POST', '/v1/devices/HW-000001/commands/wake-up', { headers: { 'idempotency-key': 'w' } });
    expect(woken.status).toBe(202);
    await closed(first);
    clock.advance(60_000);
    const next = await shared(statePath, { now: clock.now });
    const wokenAt = new Date(Date.parse(woken.body.accepted_at) + 2_000).toISOString();
    expect((await deviceOf(next, 'HW-000001')).last_seen_at).toBe(wokenAt);
    expect((await next.call('GET', '/v1/devices/HW-000001/last-reported')).body.reported_at).toBe(wokenAt);
  });

  it('a device rebooted by one process comes back in another sharing the state', async () => {
    const statePath = statePathIn();
    const clock = clockAt('2026-03-01T10:00:00Z');
    const a = await shared(statePath, { now: clock.now });
    const b = await shared(statePath, { now: clock.now });
    const accepted = await a.call('POST', '/v1/devices/HW-000001/commands/reboot', { headers: { 'idempotency-key': 'elsewhere' } });
    clock.advance(25_000);
    const backAt = new Date(Date.parse(accepted.body.accepted_at) + 20_000).toISOString();
    expect((await deviceOf(b, 'HW-000001')).last_seen_at).toBe(backAt);
    expect((await b.call('GET', '/v1/devices/HW-000001/last-reported')).body.reported_at).toBe(backAt);
  });
});
