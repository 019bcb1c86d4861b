// Each view says what matters (issue 36): a person's table leads with the member the next command takes, found
// for the service in use (the sandbox's names and the second service's, whose members are named otherwise),
// keeps its task's columns until nothing else is left, says once what every row shares, reads "never" for a
// device that never reported, is never wider than the terminal, and names on one line what it leaves out.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/output/render.js';
import { IOStreams } from '../../src/io/streams.js';
import { viewOf, type ViewName } from '../../src/output/columns.js';
import { displayWidth } from '../../src/output/text-width.js';
import { eventRef } from '../support/second-service.js';

async function table(view: ViewName, records: unknown[], width = 80, columns?: string[]) {
  const io = IOStreams.forTest({ tty: true });
  (io as { columns: number | undefined }).columns = width;
  await new Output(io, { format: 'table', columns }).list(records, viewOf(view));
  const stdout = stripVTControlCharacters(io.stdout());
  const lines = stdout.trimEnd().split('\n');
  for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
  return { stdout, stderr: io.stderr(), header: lines[1] ?? '' };
}

const RUN = 'fleetctl-run-20261127T120920Z-e01733';
const result = (hw: string, status: string, http: number, code: string | null) => ({ hardware_id: hw, command: 'reboot', status, http_status: http, code, idempotency_key: `${RUN}:${hw}` });

describe('a bulk run at 80 columns', () => {
  const results = [result('HW-000001', 'accepted', 202, null), result('HW-000002', 'capability_missing', 422, 'device.capability_missing')];

  it('keeps status and code, and names the keys once instead of a column', async () => {
    const { stdout, stderr, header } = await table('deviceCommandResult', results);
    expect(header).toMatch(/HARDWARE ID .*STATUS .*CODE/);
    expect(stdout).toContain('device.capability_missing');
    expect(stdout).not.toContain(RUN);
    expect(stderr).toContain(`keys: ${RUN}:<hardware id>`);
    expect(stdout).not.toContain('…');
  });

  it('with --wait, keeps whether each device came back and after how long', async () => {
    const waited = results.map((r, i) => ({ ...r, wait: i === 0 ? 'back' : null, back_after_s: i === 0 ? 41.5 : null }));
    const { stdout, header } = await table('deviceCommandWaitResult', waited);
    expect(header).toMatch(/STATUS .*BACK AFTER S .*CODE/);
    expect(stdout).toContain('device.capability_missing');
    expect(stdout).toContain('41.5');
    expect(header).not.toContain('HTTP STATUS');
  });

  it('keys of no common form: the key column is left out whole, never cut, and said so', async () => {
    const odd = [{ ...results[0]!, idempotency_key: 'ci-pipeline-88121-reboot-every-device-of-the-fleet-0001' }, { ...results[1]!, idempotency_key: 'another-key-entirely-given-by-hand' }];
    const { stdout, stderr } = await table('deviceCommandResult', odd);
    expect(stdout).not.toContain('ci-pipeline');
    expect(stdout).not.toContain('…');
    expect(stderr).toMatch(/^Not shown at 80 columns: idempotency_key.*-o wide shows them$/m);
  });
});

describe('lists show the member the next command takes, as the service names it', () => {
  const sandboxEvent = {
    event_id: 'SFctMDAwMDAxfmI3YmY4MzdjLTE4MzAtNGEwYi04ZjQ4LTg1YzZiNjYxYzhlZQ',
    hardware_id: 'HW-000001',
    vehicle_id: '82b9c255-2083-43ab-809d-e8eccc0da9f4',
    event_types: ['geofence_exit', 'harsh_acceleration'],
    triggered_at: '2026-11-21T00:22:08.689Z',
    is_accident: false,
    is_important: false,
  };
  // the second service: a composite `ref`, a per-device number `id`, the device as `device_hw`
  const secondEvent = { ref: eventRef('TLM-00001', 'ev00'), id: 1, device_hw: 'TLM-00001', kinds: ['hard_brake'], occurred_at: '2026-11-21T00:22:08Z', crash: false, flagged: true };

  it.each([80, 160])('events search at %i: the sandbox event id whole, first', async (width) => {
    const { stdout, header } = await table('event', [sandboxEvent, { ...sandboxEvent, event_id: sandboxEvent.event_id.replace('Yz', 'Zz') }], width);
    expect(header).toMatch(/^│ EVENT ID +│/);
    expect(stdout).toContain(sandboxEvent.event_id);
  });

  it('a terminal too narrow to frame an event id: one block per record, the id whole on a line of its own', async () => {
    const { stdout } = await table('event', [sandboxEvent], 64);
    expect(stdout).toMatch(new RegExp(`^event_id\n${sandboxEvent.event_id}$`, 'm'));
    expect(stdout).not.toContain('┌');
  });

  it('events search against the second service: its composite ref leads, not its repeating id', async () => {
    const { stdout, header } = await table('event', [secondEvent, { ...secondEvent, ref: eventRef('TLM-00002', 'ev10'), device_hw: 'TLM-00002' }]);
    expect(header).toMatch(/^│ REF +│/);
    expect(stdout).toContain(secondEvent.ref);
  });

  it('vehicles: the id at 80 columns, whatever the service calls it', async () => {
    const sandbox = { id: '82b9c255-2083-43ab-809d-e8eccc0da9f4', organization_id: 'x', fleet_id: 'y', name: 'Truck 0001', vin: 'T562GFGEXCMK8VCPU', license_plate: 'ANK-9576', make: 'MAN', model: 'TGX', year: 2022 };
    expect((await table('vehicle', [sandbox])).stdout).toContain(sandbox.id);
    const second = { vehicle_ref: '0000007e-5e2c-4d00-9a00-000000000001', title: 'Truck one', plate: 'AB 12345', fleet_ref: 'f', registered_at: '2021-03-01T00:00:00Z' };
    const { stdout, header } = await table('vehicle', [second]);
    expect(header).toMatch(/^│ VEHICLE REF +│/);
    expect(stdout).toContain(second.vehicle_ref);
  });
});

describe('one device list', () => {
  const media = (n: number) => ({ media_ref: `md-0${n}`, hw: 'TLM-00001', kind: 'video/mp4', camera: n % 2 ? 'cabin' : 'road', bytes: 1_048_576 + n, captured_at: `2026-11-2${n}T00:22:08Z` });

  it('says the hardware id (and what else every row shares) once, above the table; the media id leads', async () => {
    const { stdout, stderr, header } = await table('deviceMedia', [media(0), media(1)]);
    expect(stderr).toMatch(/^Every row: hw TLM-00001, kind video\/mp4$/m);
    expect(stdout).not.toContain('TLM-00001');
    expect(header).toMatch(/^│ MEDIA REF +│/);
    expect(stdout).toContain('md-01');
    expect(stdout).toContain('cabin');
  });

  it('a one-device event list whose records do not repeat the device: nothing is said of it, the ref leads', async () => {
    const events = [0, 1].map((k) => ({ ref: eventRef('TLM-00001', `ev0${k}`), id: k + 1, kinds: k ? ['idle'] : ['hard_brake'], occurred_at: `2026-11-2${k}T00:22:08Z` }));
    const { stdout, stderr, header } = await table('deviceEvent', events);
    expect(header).toMatch(/^│ REF +│/);
    for (const e of events) expect(stdout).toContain(e.ref);
    expect(stderr).not.toContain('Every row');
  });
});

describe('devices', () => {
  it('a device that never reported reads "never", under whatever its report time is called', async () => {
    const sandbox = { id: 'a', hardware_id: 'HW-000006', name: 'Van 0006', model: 'FT-200', capabilities: ['reboot'], last_seen_at: null, created_at: '2024-01-01T00:00:00.000Z' };
    expect((await table('device', [sandbox, { ...sandbox, hardware_id: 'HW-000007', last_seen_at: '2026-11-21T03:36:00Z' }])).stdout).toMatch(/HW-000006 .*│ never +│/);
    const second = { id: 'b', hardware_id: 'TLM-00002', serial: 'SR1', label: 'Unit 2', reported_at: null, enrolled_on: '2023-05-04' };
    const { stdout, header } = await table('device', [second, { ...second, hardware_id: 'TLM-00003', reported_at: '2026-11-21T03:36:00Z' }]);
    expect(header).toContain('REPORTED AT');
    expect(stdout).toMatch(/TLM-00002 .*│ never +│/);
  });

  it('names on one line what the table leaves out, and that -o wide shows it', async () => {
    const device = { id: 'a', hardware_id: 'HW-000001', name: 'Truck', model: 'FT', fleet_id: 'f', capabilities: [], last_seen_at: '2026-11-21T03:36:00Z', firmware_version: '4.1' };
    const { stderr } = await table('device', [device], 160);
    expect(stderr.trim().split('\n')).toEqual(['Not shown at 160 columns: id, fleet_id, firmware_version; -o wide shows them']);
  });

  it('--columns: what the person chose, nothing said of the rest', async () => {
    const device = { id: 'a', hardware_id: 'HW-000001', name: 'Truck', last_seen_at: null };
    const { stdout, stderr } = await table('device', [device], 80, ['name', 'hardware_id']);
    expect(stdout).toMatch(/│ NAME +│ HARDWARE ID │/);
    expect(stderr).toBe('');
  });
});

describe('rows fleetctl makes', () => {
  it('sandbox requests: method and status stay, a fault column empty on every row goes, said so', async () => {
    const request = (id: number, path: string) => ({ id, at: '2026-11-27T12:09:00Z', method: 'GET', path, operation_id: 'listDevices', client_id: 'sandbox-admin', status: 200, outcome: 'answered', duration_ms: 3, fault: null });
    const requests = [request(1, '/v1/devices'), request(2, '/v1/devices/HW-000001/commands/reboot')];
    const { header } = await table('sandboxRequest', requests);
    expect(header).toMatch(/ID .*METHOD .*PATH .*STATUS .*OUTCOME/);
    expect(header).not.toContain('FAULT');
    const wide = await table('sandboxRequest', requests, 160);
    expect(wide.header).not.toContain('FAULT');
    expect(wide.stderr).toBe('Not shown at 160 columns: fault (empty); -o wide shows them\n');
  });

  it('sandbox emit: two uuids and more fit 80 columns', async () => {
    const emitted = { id: '39b0de8b-70e2-4fc3-96c9-64e5c5ae9a7c', type: 'alarm.triggered', hardware_id: 'HW-000001', organization_id: '0aa6a1c2-de0e-40a9-adff-8a4f5a043fc9', destinations: 0 };
    const { stdout, header } = await table('webhookEmitted', [emitted]);
    expect(header).toMatch(/ID .*TYPE .*HARDWARE ID/);
    expect(stdout).toContain(emitted.id);
  });
});

describe('what is said once is made harmless', () => {
  it('a key prefix and a shared value with escape sequences reach stderr as visible escapes', async () => {
    const evil = '\u001b]0;pwned\u0007';
    const keyed = ['HW-000001', 'HW-000003'].map((hw) => ({ ...result(hw, 'accepted', 202, null), idempotency_key: `${evil}:${hw}` }));
    const bulk = await table('deviceCommandResult', keyed);
    expect(bulk.stderr).toContain('keys: \\x1b]0;pwned\\x07:<hardware id>');
    const media = [0, 1].map((n) => ({ id: `m${n}`, hardware_id: 'HW-000001', kind: evil }));
    const one = await table('deviceMedia', media);
    expect(one.stderr).toContain('kind \\x1b]0;pwned\\x07');
    expect(bulk.stderr + one.stderr).not.toContain('\u001b');
  });
});
