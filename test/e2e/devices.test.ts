// devices end to end: the built CLI against a real sandbox: each verb's success and every error the spec
// documents for its endpoint, with the documented exit code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHarness, type SandboxHarness } from './harness.js';

interface Device {
  id: string;
  hardware_id: string;
  vehicle_id: string | null;
  fleet_id: string;
  capabilities: string[];
  last_seen_at: string | null;
}

let h: SandboxHarness;
let devices: Device[];
let reported: Device;
let neverReported: Device;
let noWakeUp: Device;
let noReboot: Device;
let vehicleId: string;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  h = await startHarness();
  const listed = await h.cli(['devices', 'list', '--all', '-o', 'ndjson']);
  expect(listed.code).toBe(0);
  devices = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Device);
  reported = devices.find((d) => d.last_seen_at !== null && d.capabilities.length === 2)!;
  neverReported = devices.find((d) => d.last_seen_at === null)!;
  noWakeUp = devices.find((d) => !d.capabilities.includes('wake_up'))!;
  noReboot = devices.find((d) => !d.capabilities.includes('reboot'))!;
  vehicleId = devices.find((d) => d.vehicle_id !== null && d.id !== reported.id)!.vehicle_id!;
  expect([reported, neverReported, noWakeUp, noReboot].every(Boolean)).toBe(true);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const commands = async () => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string; command: string; idempotency_key: string }[];

describe('devices end to end', { timeout: 60_000 }, () => {
  it('assign: prints the updated device; 400 for a vehicle outside the tenant, 404 unknown device, refused scope, 5 unknown hardware id', async () => {
    const ok = await h.cli(['devices', 'assign', reported.id, '--vehicle-id', vehicleId, '-o', 'json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: reported.id, vehicle_id: vehicleId });
    const badVehicle = await h.cli(['devices', 'assign', reported.id, '--vehicle-id', UNKNOWN_UUID]);
    expect([badVehicle.code, badVehicle.stderr]).toEqual([2, expect.stringContaining('request.invalid_body, HTTP 400')]);
    const unknown = await h.cli(['devices', 'assign', UNKNOWN_UUID, '--vehicle-id', vehicleId]);
    expect(unknown.code).toBe(5);
    // a client without the scope is refused its token (invalid_scope, exit 3) before any API call can be a 403
    const reader = await h.cli(['devices', 'assign', reported.id, '--vehicle-id', vehicleId], { client: 'sandbox-reader' });
    expect([reader.code, reader.stderr]).toEqual([3, expect.stringContaining('invalid_scope (The client is not allowed the scope(s): thirdparty.api.devices_write.)')]);
    // not a uuid: a hardware id, and no device has this one
    const usage = await h.cli(['devices', 'assign', 'not-a-uuid', '--vehicle-id', vehicleId]);
    expect([usage.code, usage.stderr.split('\n')[0]]).toEqual([5, 'Error: no device with hardware id "not-a-uuid" (resource.not_found, HTTP 404)']);
  });

  it('get, assign and unassign take a hardware id too: looked up through the list filter; 5 when none', async () => {
    const got = await h.cli(['devices', 'get', reported.hardware_id, '-o', 'json']);
    expect([got.code, got.stderr]).toEqual([0, '']);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: reported.id, hardware_id: reported.hardware_id });
    const unknown = await h.cli(['devices', 'get', 'HW-999999']);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([
      5,
      '',
      'Error: no device with hardware id "HW-999999" (resource.not_found, HTTP 404)\nHint: list hardware ids with: fleetctl devices list --columns hardware_id,name\n',
    ]);
    const assigned = await h.cli(['devices', 'assign', reported.hardware_id, '--vehicle-id', vehicleId, '-o', 'json']);
    expect([assigned.code, assigned.stderr]).toEqual([0, `Device ${reported.hardware_id} (${reported.id}) assigned to vehicle ${vehicleId}.\n`]);
    expect(JSON.parse(assigned.stdout)).toMatchObject({ id: reported.id, vehicle_id: vehicleId });
    const unassigned = await h.cli(['devices', 'unassign', reported.hardware_id, '--yes']);
    expect([unassigned.code, unassigned.stderr]).toEqual([0, `Device ${reported.hardware_id} (${reported.id}) is not assigned to any vehicle.\n`]);
    expect(JSON.parse((await h.cli(['devices', 'get', reported.id, '-o', 'json'])).stdout).vehicle_id).toBeNull();
  });

  it('an argument left out where nothing may be asked: exit 2 with a one-line usage error, nothing sent', async () => {
    const before = (await commands()).length;
    for (const [args, message] of [
      [['devices', 'get'], "missing required argument 'device'"],
      [['devices', 'events', '--since', '1d'], "missing required argument 'hardware-id'"],
      [['drivers', 'get'], "missing required argument 'id'"],
      [['events', 'get'], "missing required argument 'event-id'"],
      [['devices', 'reboot', '--yes'], 'name the devices to reboot: hardware ids, --from-file, --fleet-id, --organization-id or --where (or --resume RUN_ID)'],
    ] as const) {
      const result = await h.cli([...args]);
      expect([result.code, result.stdout, result.stderr]).toEqual([2, '', `Error: ${message}\n`]);
    }
    expect((await commands()).length).toBe(before);
  });

  it('unassign: needs --yes when it may not prompt; 204 twice (idempotent); 404 unknown', async () => {
    const refused = await h.cli(['devices', 'unassign', reported.id]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('confirmation required')]);
    for (let i = 0; i < 2; i++) {
      const ok = await h.cli(['devices', 'unassign', reported.id, '--yes']);
      expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, '', `Device ${reported.id} is not assigned to any vehicle.\n`]);
    }
    const got = await h.cli(['devices', 'get', reported.id, '-o', 'json']);
    expect(JSON.parse(got.stdout).vehicle_id).toBeNull();
    expect((await h.cli(['devices', 'unassign', UNKNOWN_UUID, '--yes'])).code).toBe(5);
  });

  it('reboot: refused without --yes (exit 2, nothing sent); generated key printed and replayable; 422 names the capability;  404; refused scope', async () => {
    const before = (await commands()).length;
    const refused = await h.cli(['devices', 'reboot', reported.hardware_id]);
    expect([refused.code, (await commands()).length]).toEqual([2, before]);

    const first = await h.cli(['devices', 'reboot', reported.hardware_id, '--yes', '-o', 'json']);
    expect(first.code).toBe(0);
    const key = /Idempotency-Key: (\S+) /.exec(first.stderr)![1]!;
    expect(JSON.parse(first.stdout)).toMatchObject({ hardware_id: reported.hardware_id, command: 'reboot', status: 'accepted', idempotency_key: key });
    const replay = await h.cli(['devices', 'reboot', reported.hardware_id, '--yes', '--idempotency-key', key]);
    expect([replay.code, replay.stderr]).toEqual([0, `Reboot of ${reported.hardware_id} replayed (already sent earlier with this key; not sent again).\n`]);
    expect((await commands()).filter((c) => c.idempotency_key === key)).toHaveLength(1);

    const incapable = await h.cli(['devices', 'reboot', noReboot.hardware_id, '--yes']);
    expect([incapable.code, incapable.stderr.split('\n')[0]]).toEqual([7, `Error: device ${noReboot.hardware_id} lacks the reboot capability (device.capability_missing, HTTP 422)`]);
    expect((await h.cli(['devices', 'reboot', 'HW-NOPE', '--yes'])).code).toBe(5);
    expect((await h.cli(['devices', 'reboot', reported.hardware_id, '--yes'], { client: 'sandbox-reader' })).code).toBe(3);
    const tooLong = await h.cli(['devices', 'reboot', reported.hardware_id, '--yes', '--idempotency-key', 'k'.repeat(201)]);
    expect([tooLong.code, tooLong.stderr]).toEqual([2, 'Error: --idempotency-key must be at most 200 characters, got 201\n']);
  });

  it('reboot of a fleet: devices whose record lacks the capability are announced, skipped, and not failures', async () => {
    const fleet = devices.filter((d) => d.fleet_id === noReboot.fleet_id);
    const capable = fleet.filter((d) => d.capabilities.includes('reboot')).map((d) => d.hardware_id);
    const lacking = fleet.filter((d) => !d.capabilities.includes('reboot')).map((d) => d.hardware_id);
    expect(capable.length).toBeGreaterThan(0);
    const counted = `${lacking.length} of the ${fleet.length} devices lack${lacking.length === 1 ? 's' : ''} the reboot capability by their records`;

    const dry = await h.cli(['devices', 'reboot', '--fleet-id', noReboot.fleet_id, '--idempotency-key', 'e2e-fleet', '--dry-run', '-o', 'csv']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n').slice(1).map((l) => l.split(',')[0])).toEqual(capable);
    expect(dry.stderr).toContain(`Dry run: would send reboot to ${capable.length} device${capable.length === 1 ? '' : 's'}; nothing was sent.\n${counted}: would be skipped, not sent (${noReboot.hardware_id}`);

    const before = await commands();
    const run = await h.cli(['devices', 'reboot', '--fleet-id', noReboot.fleet_id, '--idempotency-key', 'e2e-fleet', '--yes', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { hardware_id: string; status: string }[]).map((r) => r.hardware_id)).toEqual(capable);
    expect(run.stderr.split('\n')[0]).toBe(`${counted}: skipped, not sent (${lacking.slice(0, 5).join(', ')}${lacking.length > 5 ? `, and ${lacking.length - 5} more` : ''}).`);
    const sent = (await commands()).slice(before.length).filter((c) => c.idempotency_key.startsWith('e2e-fleet:')).map((c) => c.hardware_id);
    expect(sent.sort()).toEqual([...capable].sort());
  });

  it('wake-up: 202; 422 names wake_up; refused for a client allowed to reboot only', async () => {
    const ok = await h.cli(['devices', 'wake-up', reported.hardware_id, '--yes', '--idempotency-key', 'e2e-wake-1', '-o', 'json']);
    expect([ok.code, JSON.parse(ok.stdout).command]).toEqual([0, 'wake_up']);
    const incapable = await h.cli(['devices', 'wake-up', noWakeUp.hardware_id, '--yes', '-o', 'json']);
    expect(incapable.code).toBe(7);
    expect(JSON.parse(incapable.stderr)).toMatchObject({ code: 'device.capability_missing', detail: `device ${noWakeUp.hardware_id} lacks the wake_up capability` });
    const scope = await h.cli(['devices', 'wake-up', reported.hardware_id, '--yes'], { client: 'sandbox-reboot-only' });
    expect([scope.code, scope.stderr]).toEqual([3, expect.stringContaining('not allowed the scope(s): thirdparty.api.device_commands_wake_up')]);
  });

  it('events: a window and filters; 404 unknown device; 2 for a bad window', async () => {
    const ok = await h.cli(['devices', 'events', reported.hardware_id, '--since', '30d', '--all', '-o', 'ndjson']);
    expect(ok.code).toBe(0);
    const events = ok.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.hardware_id === reported.hardware_id)).toBe(true);
    const type = events[0].event_types[0] as string;
    const filtered = await h.cli(['devices', 'events', reported.hardware_id, '--since', '30d', '--type', type, '--all', '-o', 'ndjson']);
    expect(filtered.stdout.trim().split('\n').map((l) => JSON.parse(l)).every((e) => e.event_types.includes(type))).toBe(true);
    const accidents = await h.cli(['devices', 'events', reported.hardware_id, '--accident', '--all', '-o', 'ndjson']);
    expect(accidents.stdout.trim().split('\n').filter(Boolean).every((l) => JSON.parse(l).is_accident === true)).toBe(true);
    expect((await h.cli(['devices', 'events', 'HW-NOPE'])).code).toBe(5);
    const window = await h.cli(['devices', 'events', reported.hardware_id, '--from', '1h', '--to', '2h']);
    expect([window.code, window.stderr]).toEqual([2, expect.stringContaining('must be before --to')]);
  });

  it('last-reported and last-position: state; 404 never reported / no live position read as documented, exit 5; refused without live_positions_read', async () => {
    const state = await h.cli(['devices', 'last-reported', reported.hardware_id, '-o', 'json']);
    expect([state.code, JSON.parse(state.stdout).hardware_id]).toEqual([0, reported.hardware_id]);
    const never = await h.cli(['devices', 'last-reported', neverReported.hardware_id]);
    expect([never.code, never.stderr]).toEqual([5, `Error: device ${neverReported.hardware_id} has never reported (device.never_reported, HTTP 404)\n`]);
    const position = await h.cli(['devices', 'last-position', reported.hardware_id, '-o', 'json']);
    expect([position.code, JSON.parse(position.stdout).hardware_id]).toEqual([0, reported.hardware_id]);
    const none = await h.cli(['devices', 'last-position', neverReported.hardware_id]);
    expect([none.code, none.stderr]).toEqual([5, `Error: no live position for ${neverReported.hardware_id} (device.no_live_position, HTTP 404)\n`]);
    expect((await h.cli(['devices', 'last-position', reported.hardware_id], { client: 'sandbox-reboot-only' })).code).toBe(3);
    expect((await h.cli(['devices', 'last-reported', 'HW-NOPE'])).code).toBe(5);
  });

  it('media and media download: signed URLs fetched without any credential (the sandbox refuses one), temp file then rename', async () => {
    const listed = await h.cli(['devices', 'media', reported.hardware_id, '--all', '-o', 'ndjson']);
    expect(listed.code).toBe(0);
    const items = listed.stdout.trim().split('\n').map((l) => JSON.parse(l)) as { id: string; file_name: string; size_bytes: number }[];
    expect(items.length).toBeGreaterThan(0);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-media-'));
    try {
      const one = await h.cli(['devices', 'media', 'download', reported.hardware_id, items[0]!.id, '--dir', dir, '-o', 'json']);
      expect(one.code).toBe(0);
      expect(JSON.parse(one.stdout)).toEqual([{ media_id: items[0]!.id, path: path.join(dir, items[0]!.file_name), size_bytes: items[0]!.size_bytes }]);
      const all = await h.cli(['devices', 'media', 'download', reported.hardware_id, '--all', '--dir', dir]);
      expect(all.code).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(items.map((i) => i.file_name).sort());
      expect(readFileSync(path.join(dir, items[0]!.file_name)).length).toBe(items[0]!.size_bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const missing = await h.cli(['devices', 'media', 'download', reported.hardware_id, 'no-such-media']);
    expect(missing.code).toBe(5);
    expect((await h.cli(['devices', 'media', 'HW-NOPE'])).code).toBe(5);
  });

  it('last-position --watch piped: one NDJSON line, ends cleanly on SIGINT', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('./harness.js');
    const polls = async () => ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/requests?operation_id=getDeviceLastPosition&hardware_id=${reported.hardware_id}`)).json()) as unknown[]).length;
    const before = await polls();
    const child = spawn(process.execPath, [BIN, 'devices', 'last-position', reported.hardware_id, '--watch', '--interval', '1s'], {
      env: { PATH: process.env.PATH ?? '', CI: 'true', NO_COLOR: '1', ...h.envFor() },
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    // interrupted once it has polled twice (the sandbox's journal), whatever the machine's load: the position
    // it printed first, and not again for the second poll, which found it unchanged
    for (const end = Date.now() + 30_000; (await polls()) < before + 2 && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).hardware_id).toBe(reported.hardware_id);
  });
});
