// Every verb whose required argument names something the API lists: left out on a terminal, it is picked;
// left out anywhere else, it is missing (exit 2) and nothing is sent.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import type { Deps } from '../../../src/factory.js';
import { newDevicesGetCommand } from '../../../src/commands/devices/get.js';
import { newDevicesAssignCommand } from '../../../src/commands/devices/assign.js';
import { newDevicesUnassignCommand } from '../../../src/commands/devices/unassign.js';
import { newDevicesEventsCommand } from '../../../src/commands/devices/events.js';
import { newDevicesLastReportedCommand } from '../../../src/commands/devices/last-reported.js';
import { newDevicesLastPositionCommand } from '../../../src/commands/devices/last-position.js';
import { newDevicesMediaCommand } from '../../../src/commands/devices/media.js';
import { newDevicesMediaDownloadCommand } from '../../../src/commands/devices/media-download.js';
import { newDevicesRebootCommand } from '../../../src/commands/devices/reboot.js';
import { newDevicesWakeUpCommand } from '../../../src/commands/devices/wake-up.js';
import { newDriversGetCommand } from '../../../src/commands/drivers/get.js';
import { newDriversUpdateCommand } from '../../../src/commands/drivers/update.js';
import { newFleetsGetCommand } from '../../../src/commands/fleets/get.js';
import { newOrganizationsGetCommand } from '../../../src/commands/organizations/get.js';
import { newOrganizationsDescendantsCommand } from '../../../src/commands/organizations/descendants.js';
import { newEventsGetCommand } from '../../../src/commands/events/get.js';
import { newEventsMediaCommand } from '../../../src/commands/events/media.js';
import { newVehiclesGetCommand } from '../../../src/commands/vehicles/get.js';
import { webhookGetRun } from '../../../src/commands/webhook-config/get.js';
import { fakeDeps, parseVerb, recordRun, type ScriptedAnswer, type ScriptedSearch } from '../fake-deps.js';
import { getAnswer, ORG } from '../webhook-config/webhook-fixtures.js';

type Factory = (deps: Deps, run: (deps: unknown, opts: unknown) => Promise<void>) => Command;

const ID = '00000000-0000-4000-8000-000000000002';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const list = (path: string, data: unknown[]): ScriptedAnswer => ({ method: 'GET', path, body: { data, next_cursor: null, has_more: false } });
const devices = list('/v1/devices?limit=100', [
  { id: '00000000-0000-4000-8000-000000000001', hardware_id: 'HW-000001', name: 'Van 1', capabilities: ['reboot'] },
  { id: ID, hardware_id: 'HW-000002', name: 'Van 2', capabilities: ['reboot'] },
]);
const events = list('/v1/events?hardware_id=HW-000002&date_from=2024-05-02T12%3A00%3A00.000Z&date_to=2024-06-01T12%3A00%3A00.000Z&limit=100', [
  { event_id: 'SFctMDAwMDAyfmUx', hardware_id: 'HW-000002', event_types: ['speeding'], triggered_at: '2024-05-31T10:00:00Z' },
]);
const pickHw2: ScriptedSearch = { term: 'van', choose: 'HW-000002' };
// the first question of a bulk verb's picker (start from a condition or a saved selection), answered "one by one"
const oneByOne: ScriptedSearch = { choose: 'one by one' };
const oneDevice: ScriptedSearch = { choose: 'One device, picked from the list' };

interface Case {
  verb: string;
  make: Factory;
  /** Flags given with the argument left out. */
  argv: string[];
  missing: string;
  answers: ScriptedAnswer[];
  searches: ScriptedSearch[];
  want: Record<string, unknown>;
}

const cases: Case[] = [
  { verb: 'devices get', make: newDevicesGetCommand as unknown as Factory, argv: [], missing: 'device', answers: [devices], searches: [pickHw2], want: { device: ID } },
  {
    verb: 'devices assign',
    make: newDevicesAssignCommand as unknown as Factory,
    argv: ['--vehicle-id', VEHICLE],
    missing: 'device',
    answers: [devices],
    searches: [pickHw2],
    want: { device: ID, body: { vehicle_id: VEHICLE } },
  },
  { verb: 'devices unassign', make: newDevicesUnassignCommand as unknown as Factory, argv: ['--yes'], missing: 'device', answers: [devices], searches: [oneDevice, pickHw2], want: { device: ID, yes: true } },
  { verb: 'devices events', make: newDevicesEventsCommand as unknown as Factory, argv: ['--since', '1d'], missing: 'hardware-id', answers: [devices], searches: [pickHw2], want: { hardwareId: 'HW-000002' } },
  { verb: 'devices last-reported', make: newDevicesLastReportedCommand as unknown as Factory, argv: [], missing: 'hardware-id', answers: [devices], searches: [pickHw2], want: { hardwareId: 'HW-000002' } },
  { verb: 'devices last-position', make: newDevicesLastPositionCommand as unknown as Factory, argv: [], missing: 'hardware-id', answers: [devices], searches: [pickHw2], want: { hardwareId: 'HW-000002' } },
  { verb: 'devices media', make: newDevicesMediaCommand as unknown as Factory, argv: [], missing: 'hardware-id', answers: [devices], searches: [pickHw2], want: { hardwareId: 'HW-000002' } },
  {
    verb: 'devices media download',
    make: newDevicesMediaDownloadCommand as unknown as Factory,
    argv: ['--all', '--dir', '.'],
    missing: 'hardware-id',
    answers: [devices],
    searches: [pickHw2],
    want: { hardwareId: 'HW-000002', all: true, mediaIds: [] },
  },
  {
    verb: 'drivers get',
    make: newDriversGetCommand as unknown as Factory,
    argv: [],
    missing: 'id',
    answers: [list('/v1/drivers?limit=100', [{ id: ID, first_name: 'Ada', last_name: 'Byron', status: 'active' }])],
    searches: [{ term: 'ada', choose: 'Ada Byron' }],
    want: { id: ID },
  },
  {
    verb: 'drivers update',
    make: newDriversUpdateCommand as unknown as Factory,
    argv: ['--status', 'inactive'],
    missing: 'id',
    answers: [list('/v1/drivers?limit=100', [{ id: ID, first_name: 'Ada', last_name: 'Byron' }])],
    searches: [{ choose: 'Ada' }],
    want: { id: ID, body: { status: 'inactive' } },
  },
  {
    verb: 'fleets get',
    make: newFleetsGetCommand as unknown as Factory,
    argv: [],
    missing: 'id',
    answers: [list('/v1/fleets?limit=100', [{ id: ID, name: 'North Vans 1', vehicle_count: 12 }])],
    searches: [{ choose: 'North Vans 1  12' }],
    want: { id: ID },
  },
  {
    verb: 'organizations get',
    make: newOrganizationsGetCommand as unknown as Factory,
    argv: [],
    missing: 'id',
    answers: [list('/v1/organizations?limit=100', [{ id: ID, name: 'Acme North', parent_id: null }])],
    searches: [{ choose: 'Acme North' }],
    want: { id: ID },
  },
  {
    verb: 'organizations descendants',
    make: newOrganizationsDescendantsCommand as unknown as Factory,
    argv: ['--all'],
    missing: 'id',
    answers: [list('/v1/organizations?limit=100', [{ id: ID, name: 'Acme North', parent_id: null }])],
    searches: [{ choose: ID }],
    want: { id: ID, paging: expect.objectContaining({ all: true }) },
  },
  {
    verb: 'vehicles get',
    make: newVehiclesGetCommand as unknown as Factory,
    argv: [],
    missing: 'id',
    answers: [list('/v1/vehicles?limit=100', [{ id: ID, name: 'Van 0002', license_plate: 'ABC-1234', make: 'Ford', model: 'Transit', year: 2022 }])],
    searches: [{ term: 'abc', choose: 'Ford  Transit' }],
    want: { id: ID },
  },
  {
    verb: 'events get',
    make: newEventsGetCommand as unknown as Factory,
    argv: [],
    missing: 'event-id',
    answers: [devices, events],
    searches: [pickHw2, { choose: 'speeding' }],
    want: { eventId: 'SFctMDAwMDAyfmUx' },
  },
  {
    verb: 'events media',
    make: newEventsMediaCommand as unknown as Factory,
    argv: [],
    missing: 'event-id',
    answers: [devices, events],
    searches: [pickHw2, { choose: 'speeding' }],
    want: { eventId: 'SFctMDAwMDAyfmUx' },
  },
];

describe('a required argument left out', () => {
  for (const c of cases) {
    it(`${c.verb}: off a terminal, "missing required argument '${c.missing}'" (exit 2), nothing sent`, async () => {
      const f = fakeDeps({ tty: false });
      const { run, calls } = recordRun();
      await expect(parseVerb(c.make(f.deps, run), c.argv)).rejects.toMatchObject({ message: `missing required argument '${c.missing}'`, exitCode: 2 });
      expect([calls, f.sent, f.prompts]).toEqual([[], [], []]);
    });

    it(`${c.verb}: on a terminal, picked from the API's list`, async () => {
      const f = fakeDeps({ tty: true, answers: c.answers, searches: c.searches });
      const { run, calls } = recordRun();
      await parseVerb(c.make(f.deps, run), c.argv);
      expect(calls).toEqual([expect.objectContaining(c.want)]);
      f.assertAllAnswered();
    });
  }

  it('devices assign without --vehicle-id: on a terminal the vehicle is picked from the list (after the device)', async () => {
    const vehicles = list('/v1/vehicles?limit=100', [{ id: VEHICLE, name: 'Van 0005', license_plate: 'XYZ-9' }]);
    const f = fakeDeps({ tty: true, answers: [devices, vehicles], searches: [oneDevice, pickHw2, { term: 'xyz', choose: 'Van 0005' }] });
    const { run, calls } = recordRun();
    await parseVerb(newDevicesAssignCommand(f.deps, run), []);
    expect(f.prompts).toEqual(['Devices to assign: start from (type a condition, or choose)', 'Device (type a hardware id or name)', 'Vehicle (type a name or plate)']);
    expect(calls).toEqual([expect.objectContaining({ device: ID, body: { vehicle_id: VEHICLE } })]);
  });

  it.each([
    ['not a terminal', { tty: false }],
    ['--no-input', { tty: true, noInput: true }],
    ['CI=true', { tty: true, env: { CI: 'true' } }],
  ])('devices assign HW-000002 without --vehicle-id, %s: never asks; exit 2 naming --vehicle-id, nothing sent', async (_name, how) => {
    const f = fakeDeps({ tty: how.tty });
    if ('noInput' in how) f.io.noInput = true;
    if ('env' in how) (f.io as unknown as { env: Record<string, string> }).env = how.env;
    const { run, calls } = recordRun();
    await expect(parseVerb(newDevicesAssignCommand(f.deps, run), ['HW-000002'])).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('--vehicle-id') });
    expect([calls, f.sent, f.prompts]).toEqual([[], [], []]);
  });

  it('the other flags are checked before anything is listed', async () => {
    const f = fakeDeps({ tty: true });
    await expect(parseVerb(newDevicesAssignCommand(f.deps, recordRun().run), ['--vehicle-id', 'x'])).rejects.toThrow('--vehicle-id: must be a valid uuid');
    await expect(parseVerb(newDevicesEventsCommand(f.deps, recordRun().run), ['--since', 'yesterday'])).rejects.toThrow('--since must be');
    expect([f.sent, f.prompts]).toEqual([[], []]);
  });
});

describe('devices media download: the media ids left out', () => {
  const media = list('/v1/devices/HW-1/media?limit=100', [{ id: 'm1', hardware_id: 'HW-1', file_name: 'front.mp4', recorded_at: '2024-05-31T00:00:00Z' }]);

  it('off a terminal: the verb\'s own message', async () => {
    const f = fakeDeps({ tty: false });
    await expect(parseVerb(newDevicesMediaDownloadCommand(f.deps, recordRun().run), ['HW-1'])).rejects.toThrow('name the media ids to download, or pass --all');
  });

  it('on a terminal: one picked from the device\'s media', async () => {
    const f = fakeDeps({ tty: true, answers: [media], searches: [{ choose: 'front.mp4' }] });
    const { run, calls } = recordRun();
    await parseVerb(newDevicesMediaDownloadCommand(f.deps, run), ['HW-1']);
    expect(calls).toEqual([expect.objectContaining({ hardwareId: 'HW-1', mediaIds: ['m1'], all: false })]);
  });
});

describe('devices reboot / wake-up with nothing named', () => {
  const page = list('/v1/devices?limit=500', [
    { id: '1', hardware_id: 'HW-000001', name: 'Van 1', capabilities: ['reboot', 'wake_up'] },
    { id: '2', hardware_id: 'HW-000002', name: 'Van 2', capabilities: ['wake_up'] },
    { id: '3', hardware_id: 'HW-000003', name: 'Van 3', capabilities: ['reboot'] },
  ]);

  it('off a terminal: the verb\'s own message (exit 2)', async () => {
    const f = fakeDeps({ tty: false });
    await expect(parseVerb(newDevicesRebootCommand(f.deps, recordRun().run), ['--yes'])).rejects.toMatchObject({
      message: 'name the devices to reboot: hardware ids, --from-file, --fleet-id, --organization-id or --where (or --resume RUN_ID)',
      exitCode: 2,
    });
    expect(f.sent).toEqual([]);
  });

  it('on a terminal: several ticked devices are one bulk run', async () => {
    const f = fakeDeps({ tty: true, answers: [page], searches: [oneByOne], checks: [['HW-000001', 'HW-000003']] });
    const calls: unknown[] = [];
    await parseVerb(newDevicesRebootCommand(f.deps, async (_deps, _verb, invocation) => void calls.push(invocation)), ['--concurrency', '2']);
    expect(calls).toEqual([expect.objectContaining({ mode: 'bulk', source: expect.objectContaining({ ids: ['HW-000001', 'HW-000003'] }), concurrency: 2, yes: false })]);
    expect(f.shown.at(-1)!.lines[1]).toMatch(/^HW-000002 .* \(no reboot\)$/);
  });

  it('on a terminal: one ticked device is a single command', async () => {
    const f = fakeDeps({ tty: true, answers: [page], searches: [oneByOne], checks: [['HW-000002']] });
    const calls: unknown[] = [];
    await parseVerb(newDevicesWakeUpCommand(f.deps, async (_deps, _verb, invocation) => void calls.push(invocation)), ['--dry-run']);
    expect(calls).toEqual([{ mode: 'single', hardwareId: 'HW-000002', idempotencyKey: undefined, yes: false, dryRun: true }]);
  });

  it('on a terminal with no saved selection: the first question still takes a condition, one by one under the cursor', async () => {
    const f = fakeDeps({ tty: true, answers: [page], searches: [{ term: 'has:wake_up', choose: 'Devices where has:wake_up' }], checks: [['HW-000001', 'HW-000002']] });
    const calls: unknown[] = [];
    await parseVerb(newDevicesWakeUpCommand(f.deps, async (_deps, _verb, invocation) => void calls.push(invocation)), []);
    expect(f.prompts).toEqual(['Devices to wake-up: start from (type a condition, or choose)', 'Devices to wake-up (where has:wake_up)']);
    expect(f.shown[0]).toMatchObject({ term: 'has:wake_up', lines: ['Devices where has:wake_up', 'Every device, ticked one by one'] });
    // the list is what the condition selects
    expect(f.shown[1]!.lines.filter((line) => line.startsWith('HW-'))).toEqual([expect.stringMatching(/^HW-000001 /), expect.stringMatching(/^HW-000002 /)]);
    expect(calls).toEqual([expect.objectContaining({ mode: 'bulk', source: expect.objectContaining({ ids: ['HW-000001', 'HW-000002'] }) })]);
  });

  it('flags are checked before the list is shown', async () => {
    const f = fakeDeps({ tty: true });
    await expect(parseVerb(newDevicesRebootCommand(f.deps, recordRun().run), ['--concurrency', '0'])).rejects.toThrow('--concurrency must be a whole number from 1 to 64');
    expect(f.sent).toEqual([]);
  });
});

describe('webhook-config: the organization', () => {
  it('with no --org and no default, picked on a terminal', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [list('/v1/organizations?limit=100', [{ id: ORG, name: 'Acme Logistics', parent_id: null }]), getAnswer('"e1"')],
      searches: [{ choose: 'Acme Logistics' }],
    });
    await webhookGetRun(f.deps, {});
    expect(f.prompts).toEqual(['Organization (type a name)']);
    f.assertAllAnswered();
  });
});
