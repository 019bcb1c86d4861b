import { describe, expect, it } from 'vitest';
import { newJourneysListCommand, journeysListRun, type JourneysListOptions } from '../../../src/commands/journeys/list.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const NOW = '2024-06-01T12:00:00.000Z';
const FLEET = '22222222-2222-4222-8222-222222222222';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const journey = {
  id: 'j1', hardware_id: 'HW-1', vehicle_id: VEHICLE, fleet_id: FLEET, start_utc: '2024-06-01T08:00:00Z', end_utc: '2024-06-01T09:00:00Z',
  start_latitude: 1, start_longitude: 2, end_latitude: 3, end_longitude: 4, distance_meters: 12000, duration_seconds: 3600,
};

describe('journeys list: parse', () => {
  const cases: { argv: string[]; want?: Partial<JourneysListOptions>; error?: string }[] = [
    { argv: ['--hardware-id', 'HW-1', '--since', '7d'], want: { subject: { hardwareId: 'HW-1' }, window: { dateFrom: '2024-05-25T12:00:00.000Z', dateTo: NOW } } },
    { argv: ['--vehicle-id', VEHICLE, '--from', '2024-05-01', '--to', '2024-05-02'], want: { subject: { vehicleId: VEHICLE }, window: { dateFrom: '2024-05-01T00:00:00.000Z', dateTo: '2024-05-02T00:00:00.000Z' } } },
    { argv: ['--fleet-id', FLEET, '--since', '1d'], want: { subject: { fleetId: FLEET } } },
    { argv: [], error: 'journeys list needs one of --hardware-id, --vehicle-id or --fleet-id and a date window (--since, or --from and --to)' },
    { argv: ['--since', '1d'], error: 'journeys list needs one of --hardware-id, --vehicle-id or --fleet-id' },
    { argv: ['--fleet-id', FLEET], error: 'journeys list needs a date window (--since, or --from and --to)' },
    { argv: ['--fleet-id', FLEET, '--from', '1d'], error: 'journeys list needs the end of the date window (--to; or use --since alone)' },
    { argv: ['--fleet-id', FLEET, '--hardware-id', 'HW-1', '--since', '1d'], error: 'give only one of --hardware-id, --vehicle-id or --fleet-id' },
    { argv: ['--vehicle-id', 'v', '--since', '1d'], error: '--vehicle-id must be a UUID' },
    { argv: ['--hardware-id', 'HW-1', '--from', '1d', '--to', '2d'], error: 'must be before --to' },
  ];
  for (const c of cases) {
    it(c.argv.join(' ') || '(no flags)', async () => {
      const { run, calls } = recordRun<JourneysListOptions>();
      const promise = parseVerb(newJourneysListCommand(fakeDeps({ now: NOW }).deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls[0]).toMatchObject(c.want!);
    });
  }
});

describe('journeys list: run', () => {
  it.each([true, false])('sends the one subject and the window (tty %s)', async (tty) => {
    const f = fakeDeps({
      tty,
      answers: [{ method: 'GET', path: `/v1/journeys?vehicle_id=${VEHICLE}&date_from=2024-05-01T00%3A00%3A00.000Z&date_to=2024-05-02T00%3A00%3A00.000Z&limit=50`, body: { data: [journey], has_more: false, next_cursor: null } }],
    });
    await journeysListRun(f.deps, { subject: { vehicleId: VEHICLE }, window: { dateFrom: '2024-05-01T00:00:00.000Z', dateTo: '2024-05-02T00:00:00.000Z' }, paging: { limit: 50, all: false } });
    expect(f.sent[0]!.scope).toBe('thirdparty.api.journeys_read');
    if (tty) expect(f.io.stdout()).toMatch(/DISTANCE METERS/);
    else expect(f.io.stdout()).toBe(`id\thardware_id\tstart_utc\tend_utc\tdistance_meters\tduration_seconds\tvehicle_id\nj1\tHW-1\t2024-06-01T08:00:00Z\t2024-06-01T09:00:00Z\t12000\t3600\t${VEHICLE}\n`);
  });
});
