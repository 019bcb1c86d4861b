// One name for a device: get, assign and unassign take a device id (uuid) or a hardware id.
import { describe, expect, it } from 'vitest';
import { parseDeviceRef, resolveDevice } from '../../../src/commands/devices/resolve-device.js';
import { devicesGetRun } from '../../../src/commands/devices/get.js';
import { devicesAssignRun } from '../../../src/commands/devices/assign.js';
import { devicesUnassignRun } from '../../../src/commands/devices/unassign.js';
import { ApiError, UsageError } from '../../../src/errors.js';
import { fakeDeps } from '../fake-deps.js';

const DEVICE = '44444444-4444-4444-8444-444444444444';
const OTHER = '66666666-6666-4666-8666-666666666666';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const device = { id: DEVICE, hardware_id: 'HW-000001', name: 'Van 1', vehicle_id: VEHICLE, capabilities: ['reboot'] };
const byHardwareId = (hardwareId: string, data: unknown[], hasMore = false) => ({
  method: 'GET',
  path: `/v1/devices?${new URLSearchParams({ hardware_id: hardwareId, limit: '2' }).toString()}`,
  body: { data, next_cursor: hasMore ? 'c2' : null, has_more: hasMore },
});

describe('parseDeviceRef', () => {
  it.each([
    [DEVICE.toUpperCase(), DEVICE],
    ['HW-000001', 'HW-000001'],
    ['359881234567890', '359881234567890'],
  ])('%s is kept as %s', (given, want) => expect(parseDeviceRef(given)).toBe(want));

  it('an empty one is refused', () => expect(() => parseDeviceRef('  ')).toThrow('device must not be empty'));
});

describe('resolveDevice', () => {
  it('a uuid is the device id: no request', async () => {
    const f = fakeDeps();
    await expect(resolveDevice(await f.deps.api(), DEVICE)).resolves.toEqual({ id: DEVICE, label: DEVICE });
    expect(f.sent).toEqual([]);
  });

  it('a record naming its id otherwise (device_id, deviceId) still gives it; one with none is an invalid answer, exit 9', async () => {
    for (const record of [{ device_id: DEVICE, hardware_id: 'HW-7' }, { deviceId: DEVICE, hardwareId: 'HW-7' }]) {
      const f = fakeDeps({ answers: [byHardwareId('HW-7', [record])] });
      await expect(resolveDevice(await f.deps.api(), 'HW-7')).resolves.toEqual({ id: DEVICE, label: `HW-7 (${DEVICE})` });
    }
    const none = fakeDeps({ answers: [byHardwareId('HW-7', [{ hardware_id: 'HW-7', fleet_id: OTHER }])] });
    await expect(resolveDevice(await none.deps.api(), 'HW-7')).rejects.toMatchObject({
      message: 'the device with hardware id "HW-7" carries no device id in its record',
      hint: 'give the device id (uuid) instead',
      exitCode: 9,
    });
  });

  it('a hardware id is looked up through the devices list filter', async () => {
    const f = fakeDeps({ answers: [byHardwareId('HW 1/a', [device])] });
    await expect(resolveDevice(await f.deps.api(), 'HW 1/a')).resolves.toEqual({ id: DEVICE, label: `HW 1/a (${DEVICE})` });
    expect(f.sent[0]!.scope).toBe('thirdparty.api.devices_read');
  });

  it('none: not found (exit 5), saying where to look', async () => {
    const f = fakeDeps({ answers: [byHardwareId('HW-404', [])] });
    const error = await resolveDevice(await f.deps.api(), 'HW-404').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      exitCode: 5,
      code: 'resource.not_found',
      detail: 'no device with hardware id "HW-404"',
      hint: 'list hardware ids with: fleetctl devices list --columns hardware_id,name',
    });
  });

  it('more than one device with that hardware id: exit 2, naming both device ids', async () => {
    const f = fakeDeps({ answers: [byHardwareId('HW-000001', [device, { ...device, id: OTHER }])] });
    const error = await resolveDevice(await f.deps.api(), 'HW-000001').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      exitCode: 2,
      message: `hardware id "HW-000001" names more than one device: ${DEVICE}, ${OTHER}`,
      hint: 'give the device id (uuid) of the one you mean',
    });
  });

  it('says when there are more than the two it names', async () => {
    const f = fakeDeps({ answers: [byHardwareId('HW-000001', [device, { ...device, id: OTHER }], true)] });
    await expect(resolveDevice(await f.deps.api(), 'HW-000001')).rejects.toThrow(`names more than one device: ${DEVICE}, ${OTHER} and more`);
  });

  it('none, typed in lower case: one lookup in capitals, and the id it finds is suggested', async () => {
    const upper = (data: unknown[]) => ({ ...byHardwareId('HW-000001', data), path: `/v1/devices?hardware_id=HW-000001&limit=1` });
    const f = fakeDeps({ answers: [byHardwareId('hw-000001', []), upper([device])] });
    await expect(resolveDevice(await f.deps.api(), 'hw-000001')).rejects.toMatchObject({ exitCode: 5, detail: 'no device with hardware id "hw-000001"; did you mean HW-000001?' });
    expect(f.sent.map((request) => request.path)).toEqual(['/v1/devices?hardware_id=hw-000001&limit=2', '/v1/devices?hardware_id=HW-000001&limit=1']);
    // not there in capitals either: no suggestion, and never a neighbour (HW-000002 is another device)
    const none = fakeDeps({ answers: [byHardwareId('hw-000002', []), upper([])].map((a, i) => (i === 1 ? { ...a, path: '/v1/devices?hardware_id=HW-000002&limit=1' } : a)) });
    await expect(resolveDevice(await none.deps.api(), 'hw-000002')).rejects.toMatchObject({ detail: 'no device with hardware id "hw-000002"' });
  });

  it('a hostile hardware id is quoted harmlessly in the message', async () => {
    const f = fakeDeps({ answers: [byHardwareId('\u001b[2J', [])] });
    await expect(resolveDevice(await f.deps.api(), '\u001b[2J')).rejects.toMatchObject({ detail: 'no device with hardware id "\\x1b[2J"' });
  });
});

describe('the verbs with a hardware id', () => {
  it.each([true, false])('devices get HW-000001: looked up, then the device itself (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, format: 'json', answers: [byHardwareId('HW-000001', [device]), { method: 'GET', path: `/v1/devices/${DEVICE}`, body: device }] });
    await devicesGetRun(f.deps, { device: 'HW-000001' });
    expect(JSON.parse(f.io.stdout())).toEqual(device);
    expect(f.io.stderr()).toBe('');
    f.assertAllAnswered();
  });

  it('devices get HW-000001 from a service whose first page is empty but says has_more: the lookup reads on to the device', async () => {
    const next = (cursor: string, limit: number, data: unknown[], more: string | null) => ({
      method: 'GET',
      path: `/v1/devices?${new URLSearchParams({ hardware_id: 'HW-000001', cursor, limit: String(limit) }).toString()}`,
      body: { data, next_cursor: more, has_more: more !== null },
    });
    const f = fakeDeps({
      format: 'json',
      answers: [
        { ...byHardwareId('HW-000001', []), body: { data: [], next_cursor: 'c1', has_more: true } },
        next('c1', 2, [device], 'c2'),
        next('c2', 1, [], null),
        { method: 'GET', path: `/v1/devices/${DEVICE}`, body: device },
      ],
    });
    await devicesGetRun(f.deps, { device: 'HW-000001' });
    expect(JSON.parse(f.io.stdout())).toEqual(device);
    f.assertAllAnswered();
  });

  it('a second device with that hardware id on a later page is found: ambiguous, exit 2', async () => {
    const f = fakeDeps({
      answers: [
        { ...byHardwareId('HW-000001', [device]), body: { data: [device], next_cursor: 'c1', has_more: true } },
        { method: 'GET', path: `/v1/devices?${new URLSearchParams({ hardware_id: 'HW-000001', cursor: 'c1', limit: '1' }).toString()}`, body: { data: [{ ...device, id: OTHER }], next_cursor: null, has_more: false } },
      ],
    });
    await expect(devicesGetRun(f.deps, { device: 'HW-000001' })).rejects.toMatchObject({ exitCode: 2, message: `hardware id "HW-000001" names more than one device: ${DEVICE}, ${OTHER}` });
  });

  it('devices get with a uuid: one request, as before', async () => {
    const f = fakeDeps({ format: 'json', answers: [{ method: 'GET', path: `/v1/devices/${DEVICE}`, body: device }] });
    await devicesGetRun(f.deps, { device: DEVICE });
    expect(JSON.parse(f.io.stdout())).toEqual(device);
  });

  it('devices get of an unknown hardware id: exit 5, no second request', async () => {
    const f = fakeDeps({ answers: [byHardwareId('HW-9', [])] });
    await expect(devicesGetRun(f.deps, { device: 'HW-9' })).rejects.toMatchObject({ exitCode: 5 });
    expect(f.sent).toHaveLength(1);
  });

  it('devices assign HW-000001: the message names the device both ways', async () => {
    const f = fakeDeps({ format: 'json', answers: [byHardwareId('HW-000001', [device]), { method: 'PUT', path: `/v1/devices/${DEVICE}/assignment`, body: device }] });
    await devicesAssignRun(f.deps, { device: 'HW-000001', body: { vehicle_id: VEHICLE }, vehicleMember: 'vehicle_id' });
    expect(f.sent[1]!.json).toEqual({ vehicle_id: VEHICLE });
    expect(f.io.stderr()).toBe(`Device HW-000001 (${DEVICE}) assigned to vehicle ${VEHICLE}.\n`);
  });

  it('devices assign with an ambiguous hardware id sends no assignment', async () => {
    const f = fakeDeps({ answers: [byHardwareId('HW-000001', [device, { ...device, id: OTHER }])] });
    await expect(devicesAssignRun(f.deps, { device: 'HW-000001', body: { vehicle_id: VEHICLE }, vehicleMember: 'vehicle_id' })).rejects.toMatchObject({ exitCode: 2 });
    expect(f.sent.map((s) => s.method)).toEqual(['GET']);
  });

  it('devices unassign HW-000001 on a terminal: asked first, then looked up and unassigned', async () => {
    const f = fakeDeps({
      tty: true,
      inputs: ['y'],
      answers: [byHardwareId('HW-000001', [device]), { method: 'DELETE', path: `/v1/devices/${DEVICE}/assignment`, status: 204 }],
    });
    await devicesUnassignRun(f.deps, { device: 'HW-000001', yes: false });
    expect(f.prompts).toEqual(['Unassign device HW-000001 from its vehicle?']);
    expect(f.io.stderr()).toBe(`Device HW-000001 (${DEVICE}) is not assigned to any vehicle.\n`);
  });

  it('devices unassign HW-000001 piped without --yes: refused before any request', async () => {
    const f = fakeDeps({ tty: false });
    await expect(devicesUnassignRun(f.deps, { device: 'HW-000001', yes: false })).rejects.toThrow('device HW-000001 not unassigned: confirmation required');
    expect(f.sent).toEqual([]);
  });
});
