import { describe, expect, it } from 'vitest';
import { newDevicesAssignCommand, devicesAssignRun, type DevicesAssignOptions } from '../../../src/commands/devices/assign.js';
import { newDevicesUnassignCommand, devicesUnassignRun, type DevicesUnassignOptions } from '../../../src/commands/devices/unassign.js';
import { newDevicesEventsCommand, devicesEventsRun, type DevicesEventsOptions } from '../../../src/commands/devices/events.js';
import { newDevicesLastReportedCommand, devicesLastReportedRun } from '../../../src/commands/devices/last-reported.js';
import { newDevicesMediaCommand, devicesMediaRun, type DevicesMediaOptions } from '../../../src/commands/devices/media.js';
import { newDevicesListCommand, type DevicesListOptions } from '../../../src/commands/devices/list.js';
import { ApiError } from '../../../src/errors.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const DEVICE = '44444444-4444-4444-8444-444444444444';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const device = { id: DEVICE, hardware_id: 'HW-000001', name: 'Van 1', vehicle_id: VEHICLE, capabilities: ['reboot'] };
const problem = (status: number, code: string, detail: string) => ({ type: 'about:blank', title: code, status, detail, code });

describe('devices list', () => {
  // an empty filter would be sent, and refused by the server only after a request
  it.each([
    [['--hardware-id', ''], '--hardware-id must not be empty'],
    [['--cursor', ''], '--cursor must not be empty'],
  ])('parse: %j is refused before any request', async (argv, error) => {
    const { run, calls } = recordRun<DevicesListOptions>();
    await expect(parseVerb(newDevicesListCommand(fakeDeps().deps, run), argv)).rejects.toThrow(error);
    expect(calls).toEqual([]);
  });
});

describe('devices assign', () => {
  const cases: { argv: string[]; want?: DevicesAssignOptions; error?: string }[] = [
    { argv: [DEVICE.toUpperCase(), '--vehicle-id', VEHICLE], want: { device: DEVICE, body: { vehicle_id: VEHICLE }, vehicleMember: 'vehicle_id' } },
    { argv: ['HW-000001', '--vehicle-id', VEHICLE], want: { device: 'HW-000001', body: { vehicle_id: VEHICLE }, vehicleMember: 'vehicle_id' } },
    { argv: [' ', '--vehicle-id', VEHICLE], error: 'device must not be empty' },
    { argv: [DEVICE, '--vehicle-id', 'x'], error: '--vehicle-id: must be a valid uuid' },
    { argv: [DEVICE], error: '--vehicle-id: is required' },
    { argv: [DEVICE, '--vehicle-id', VEHICLE, '--field', 'note=x'], error: '--field note: is not a known member' },
    { argv: ['--vehicle-id', VEHICLE], error: "missing required argument 'device'" },
  ];
  for (const c of cases) {
    it(`parse: ${c.argv.join(' ')}`, async () => {
      const { run, calls } = recordRun<DevicesAssignOptions>();
      const promise = parseVerb(newDevicesAssignCommand(fakeDeps().deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls).toEqual([c.want]);
    });
  }

  it.each([true, false])('PUTs {vehicle_id} and prints the updated device (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, format: 'json', answers: [{ method: 'PUT', path: `/v1/devices/${DEVICE}/assignment`, body: device }] });
    await devicesAssignRun(f.deps, { device: DEVICE, body: { vehicle_id: VEHICLE }, vehicleMember: 'vehicle_id' });
    expect(f.sent[0]!.json).toEqual({ vehicle_id: VEHICLE });
    expect(f.sent[0]!.scope).toBe('thirdparty.api.devices_write');
    expect(JSON.parse(f.io.stdout())).toEqual(device);
    expect(f.io.stderr()).toBe(`Device ${DEVICE} assigned to vehicle ${VEHICLE}.\n`);
  });

  const assignDocument = (schema: object) => ({ paths: { '/v1/devices/{deviceId}/assignment': { put: { requestBody: { content: { 'application/json': { schema } } } } } } });

  it('against a service that names the vehicle otherwise: --vehicle-id fills the member its document names', async () => {
    const servedDocument = assignDocument({ type: 'object', required: ['vehicleId'], properties: { vehicleId: { type: 'string', format: 'uuid' } }, additionalProperties: false });
    const { run, calls } = recordRun<DevicesAssignOptions>();
    await parseVerb(newDevicesAssignCommand(fakeDeps({ servedDocument }).deps, run), [DEVICE, '--vehicle-id', VEHICLE]);
    expect(calls).toEqual([{ device: DEVICE, body: { vehicleId: VEHICLE }, vehicleMember: 'vehicleId' }]);
    // what it requires and nobody gave is named by the flag that gives it
    await expect(parseVerb(newDevicesAssignCommand(fakeDeps({ servedDocument }).deps, run), [DEVICE])).rejects.toThrow('--vehicle-id: is required');
    await expect(parseVerb(newDevicesAssignCommand(fakeDeps({ servedDocument }).deps, run), [DEVICE, '--vehicle-id', 'x'])).rejects.toThrow('--vehicle-id: must be a valid uuid');
  });

  it('a vehicle member of another type takes --vehicle-id typed by the document; --field still sends any member', async () => {
    const servedDocument = assignDocument({ type: 'object', required: ['vehicle'], properties: { vehicle: { type: 'integer' }, note: { type: 'string' } }, additionalProperties: false });
    const { run, calls } = recordRun<DevicesAssignOptions>();
    await parseVerb(newDevicesAssignCommand(fakeDeps({ servedDocument }).deps, run), [DEVICE, '--vehicle-id', '42', '--field', 'note=42']);
    await parseVerb(newDevicesAssignCommand(fakeDeps({ servedDocument }).deps, run), [DEVICE, '--field', 'vehicle=7']);
    expect(calls).toEqual([
      { device: DEVICE, body: { vehicle: 42, note: '42' }, vehicleMember: 'vehicle' },
      { device: DEVICE, body: { vehicle: 7 }, vehicleMember: 'vehicle' },
    ]);
    await expect(parseVerb(newDevicesAssignCommand(fakeDeps({ servedDocument }).deps, run), [DEVICE, '--vehicle-id', VEHICLE])).rejects.toThrow('--vehicle-id: must be an integer');
  });

  it('PUTs the member the options name and says which vehicle', async () => {
    const f = fakeDeps({ format: 'json', answers: [{ method: 'PUT', path: `/v1/devices/${DEVICE}/assignment`, body: device }] });
    await devicesAssignRun(f.deps, { device: DEVICE, body: { vehicleId: VEHICLE }, vehicleMember: 'vehicleId' });
    expect(f.sent[0]!.json).toEqual({ vehicleId: VEHICLE });
    expect(f.io.stderr()).toBe(`Device ${DEVICE} assigned to vehicle ${VEHICLE}.\n`);
  });

  it('a 404 stays an ApiError (exit 5)', async () => {
    const f = fakeDeps({ answers: [{ method: 'PUT', path: `/v1/devices/${DEVICE}/assignment`, status: 404, body: problem(404, 'resource.not_found', 'no') }] });
    await expect(devicesAssignRun(f.deps, { device: DEVICE, body: { vehicle_id: VEHICLE }, vehicleMember: 'vehicle_id' })).rejects.toMatchObject({ status: 404, exitCode: 5 });
  });
});

describe('devices unassign', () => {
  it('parse', async () => {
    const { run, calls } = recordRun<DevicesUnassignOptions>();
    await parseVerb(newDevicesUnassignCommand(fakeDeps().deps, run), [DEVICE, '--yes']);
    await parseVerb(newDevicesUnassignCommand(fakeDeps().deps, run), ['HW-000001']);
    expect(calls).toEqual([
      { device: DEVICE, yes: true },
      { device: 'HW-000001', yes: false },
    ]);
    await expect(parseVerb(newDevicesUnassignCommand(fakeDeps().deps, run), ['--yes'])).rejects.toThrow("missing required argument 'device'");
  });

  it('piped without --yes: refuses before any request (exit 2)', async () => {
    const f = fakeDeps({ tty: false });
    await expect(devicesUnassignRun(f.deps, { device: DEVICE, yes: false })).rejects.toMatchObject({
      exitCode: 2,
      message: `device ${DEVICE} not unassigned: confirmation required`,
    });
    expect(f.sent).toEqual([]);
  });

  it('on a TTY asks, and a "no" sends nothing', async () => {
    const f = fakeDeps({ tty: true, inputs: ['n'] });
    await expect(devicesUnassignRun(f.deps, { device: DEVICE, yes: false })).rejects.toThrow('not confirmed');
    expect(f.prompts).toEqual([`Unassign device ${DEVICE} from its vehicle?`]);
    expect(f.sent).toEqual([]);
  });

  it.each([
    [true, ['y'], false],
    [false, [], true],
  ])('tty %s: DELETE, 204, a message on stderr and nothing on stdout', async (tty, inputs, yes) => {
    const f = fakeDeps({ tty, inputs, answers: [{ method: 'DELETE', path: `/v1/devices/${DEVICE}/assignment`, status: 204 }] });
    await devicesUnassignRun(f.deps, { device: DEVICE, yes });
    expect(f.io.stdout()).toBe('');
    expect(f.io.stderr()).toBe(`Device ${DEVICE} is not assigned to any vehicle.\n`);
    f.assertAllAnswered();
  });
});

describe('devices events', () => {
  const paging = { limit: 50, cursor: undefined, all: false, maxItems: undefined };
  const cases: { argv: string[]; want?: Partial<DevicesEventsOptions>; error?: string }[] = [
    { argv: ['HW-1'], want: { hardwareId: 'HW-1', window: { dateFrom: undefined, dateTo: undefined }, types: undefined, paging } },
    {
      argv: ['HW-1', '--since', '24h', '--type', 'harsh_braking,speeding', '--type', 'idling', '--accident', '--important'],
      want: {
        window: { dateFrom: '2024-05-31T12:00:00.000Z', dateTo: '2024-06-01T12:00:00.000Z' },
        types: ['harsh_braking', 'speeding', 'idling'],
        accident: true,
        important: true,
      },
    },
    { argv: ['HW-1', '--from', '2024-05-01T00:00:00+02:00', '--to', '2024-05-02'], want: { window: { dateFrom: '2024-04-30T22:00:00.000Z', dateTo: '2024-05-02T00:00:00.000Z' } } },
    { argv: ['HW-1', '--since', '1h', '--from', '2h'], error: '--since cannot be combined with --from or --to' },
    { argv: ['HW-1', '--from', '1h', '--to', '2h'], error: 'must be before --to' },
    { argv: ['HW-1', '--since', 'yesterday'], error: '--since must be an ISO 8601 date-time' },
    { argv: ['HW-1', '--limit', '0'], error: '--limit must be from 1 to 500, got 0' },
  ];
  for (const c of cases) {
    it(`parse: ${c.argv.join(' ')}`, async () => {
      const { run, calls } = recordRun<DevicesEventsOptions>();
      const promise = parseVerb(newDevicesEventsCommand(fakeDeps().deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls[0]).toMatchObject(c.want!);
    });
  }

  it.each([true, false])('sends the filters and renders a page (tty %s)', async (tty) => {
    const event = { event_id: 'SFctMX5l', hardware_id: 'HW-1', event_types: ['speeding'], triggered_at: '2024-05-31T13:00:00Z', is_accident: true, is_important: false };
    const f = fakeDeps({
      tty,
      answers: [
        {
          method: 'GET',
          path: '/v1/devices/HW%201/events?date_from=2024-05-31T12%3A00%3A00.000Z&date_to=2024-06-01T12%3A00%3A00.000Z&event_types=speeding%2Cidling&is_accident=true&limit=50',
          body: { data: [event], next_cursor: null, has_more: false },
        },
      ],
    });
    await devicesEventsRun(f.deps, {
      hardwareId: 'HW 1',
      window: { dateFrom: '2024-05-31T12:00:00.000Z', dateTo: '2024-06-01T12:00:00.000Z' },
      types: ['speeding', 'idling'],
      accident: true,
      paging: { limit: 50, all: false },
    });
    if (tty) expect(f.io.stdout()).toMatch(/EVENT ID.*TRIGGERED AT.*EVENT TYPES[^]*SFctMX5l.*2024-05-31 13:00.*speeding/);
    else expect(f.io.stdout()).toBe('event_id\ttriggered_at\tevent_types\tis_accident\tis_important\nSFctMX5l\t2024-05-31T13:00:00Z\tspeeding\ttrue\tfalse\n');
    // one device's list: its hardware id is said once, not in a column
    expect(f.io.stderr()).toBe(tty ? 'Every row: hardware_id HW-1\n' : '');
  });
});

describe('devices last-reported', () => {
  it('prints the state', async () => {
    const state = { hardware_id: 'HW-1', reported_at: '2024-06-01T11:00:00Z', speed_kph: 0 };
    const f = fakeDeps({ format: 'ndjson', answers: [{ method: 'GET', path: '/v1/devices/HW-1/last-reported', body: state }] });
    await devicesLastReportedRun(f.deps, { hardwareId: 'HW-1' });
    expect(f.io.stdout()).toBe(`${JSON.stringify(state)}\n`);
    expect(f.sent[0]!.scope).toBe('thirdparty.api.devices_read');
  });

  it('404 device.never_reported reads "device HW has never reported", exit 5', async () => {
    const f = fakeDeps({
      answers: [{ method: 'GET', path: '/v1/devices/HW-1/last-reported', status: 404, body: problem(404, 'device.never_reported', 'Device HW-1 has never reported.') }],
    });
    const error = await devicesLastReportedRun(f.deps, { hardwareId: 'HW-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ detail: 'device HW-1 has never reported', code: 'device.never_reported', exitCode: 5 });
  });

  it('an unknown device keeps the API message', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-9/last-reported', status: 404, body: problem(404, 'resource.not_found', 'Device HW-9 was not found.') }] });
    await expect(devicesLastReportedRun(f.deps, { hardwareId: 'HW-9' })).rejects.toMatchObject({ detail: 'Device HW-9 was not found.' });
  });

  it('a 404 that carries a code of its own and nothing more: both meanings the spec gives it, exit 5', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-7/last-reported', status: 404, body: { code: 'telemetry.none' } }] });
    await expect(devicesLastReportedRun(f.deps, { hardwareId: 'HW-7' })).rejects.toMatchObject({
      message: 'device HW-7 has never reported, or there is no such device',
      code: 'telemetry.none',
      exitCode: 5,
    });
  });

  it('parse: an empty hardware id', async () => {
    await expect(parseVerb(newDevicesLastReportedCommand(fakeDeps().deps, recordRun().run), [' '])).rejects.toThrow('hardware id must not be empty');
  });
});

describe('devices media', () => {
  it('parse: window and paging; --since as in every windowed list', async () => {
    const { run, calls } = recordRun<DevicesMediaOptions>();
    await parseVerb(newDevicesMediaCommand(fakeDeps().deps, run), ['HW-1', '--from', '2d', '--to', '1d', '--all']);
    expect(calls[0]).toMatchObject({
      hardwareId: 'HW-1',
      window: { dateFrom: '2024-05-30T12:00:00.000Z', dateTo: '2024-05-31T12:00:00.000Z' },
      paging: { all: true },
    });
    await parseVerb(newDevicesMediaCommand(fakeDeps().deps, run), ['HW-1', '--since', '1d']);
    expect(calls[1]).toMatchObject({ window: { dateFrom: '2024-05-31T12:00:00.000Z', dateTo: '2024-06-01T12:00:00.000Z' } });
    await expect(parseVerb(newDevicesMediaCommand(fakeDeps().deps, run), ['HW-1', '--since', '1d', '--to', '1h'])).rejects.toThrow('--since cannot be combined with --from or --to');
  });

  it('lists media items piped, without the next-page hint (nobody reads it there)', async () => {
    const item = { id: 'm1', hardware_id: 'HW-1', file_name: 'front.mp4', mime_type: 'video/mp4', channel: 1, size_bytes: 10, recorded_at: '2024-05-31T00:00:00Z', event_id: null };
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-1/media?limit=1', body: { data: [item], next_cursor: 'c2', has_more: true } }] });
    await devicesMediaRun(f.deps, { hardwareId: 'HW-1', window: {}, paging: { limit: 1, all: false } });
    expect(f.io.stdout()).toBe('id\thardware_id\tfile_name\tmime_type\tchannel\tsize_bytes\trecorded_at\tevent_id\nm1\tHW-1\tfront.mp4\tvideo/mp4\t1\t10\t2024-05-31T00:00:00Z\t\n');
    expect(f.io.stderr()).toBe('');
  });
});
