import { describe, expect, it } from 'vitest';
import { newEventsSearchCommand, eventsSearchRun, type EventsSearchOptions } from '../../../src/commands/events/search.js';
import { newEventsGetCommand, eventsGetRun } from '../../../src/commands/events/get.js';
import { newEventsMediaCommand, eventsMediaRun, type EventsMediaOptions } from '../../../src/commands/events/media.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const NOW = '2024-06-01T12:00:00.000Z';
const FLEET = '22222222-2222-4222-8222-222222222222';
const FLEET2 = '44444444-4444-4444-8444-444444444444';
const VEHICLE = '55555555-5555-4555-8555-555555555555';
const EVENT_ID = Buffer.from('HW-000001~66666666-6666-4666-8666-666666666666').toString('base64url');
const item = {
  event_id: EVENT_ID,
  hardware_id: 'HW-000001',
  vehicle_id: VEHICLE,
  fleet_id: FLEET,
  event_types: ['harsh_braking', 'speeding'],
  event_categories: ['driving'],
  triggered_at: '2024-05-31T10:00:00.000Z',
  is_accident: false,
  is_important: true,
};
const paging = { limit: 50, cursor: undefined, all: false, maxItems: undefined };

describe('events search: parse', () => {
  const cases: { argv: string[]; want?: Partial<EventsSearchOptions>; error?: string }[] = [
    {
      argv: ['--hardware-id', 'HW-000001', '--since', '24h'],
      want: { hardwareId: 'HW-000001', window: { dateFrom: '2024-05-31T12:00:00.000Z', dateTo: NOW }, paging },
    },
    {
      argv: ['--fleet-id', FLEET, '--fleet-id', `${FLEET2},${VEHICLE}`, '--from', '2024-05-01T00:00:00+02:00', '--to', '2024-05-02', '--type', 'a,b', '--type', 'c'],
      want: { fleetIds: [FLEET, FLEET2, VEHICLE], window: { dateFrom: '2024-04-30T22:00:00.000Z', dateTo: '2024-05-02T00:00:00.000Z' }, types: ['a', 'b', 'c'] },
    },
    { argv: ['--vehicle-id', VEHICLE, '--since', '7d', '--limit', '10', '--all'], want: { vehicleIds: [VEHICLE], paging: { ...paging, limit: 10, all: true } } },
    { argv: [], error: 'events search needs a narrowing filter (--hardware-id, --fleet-id or --vehicle-id) and a date window (--since, or --from and --to)' },
    { argv: ['--since', '24h'], error: 'events search needs a narrowing filter (--hardware-id, --fleet-id or --vehicle-id)' },
    { argv: ['--hardware-id', 'HW-1'], error: 'events search needs a date window (--since, or --from and --to)' },
    { argv: ['--hardware-id', 'HW-1', '--from', '2d'], error: 'events search needs the end of the date window (--to; or use --since alone)' },
    { argv: ['--hardware-id', 'HW-1', '--to', '1d'], error: 'events search needs the start of the date window (--from)' },
    { argv: ['--hardware-id', 'HW-1', '--since', '1d', '--to', '1h'], error: '--since cannot be combined with --from or --to' },
    { argv: ['--hardware-id', 'HW-1', '--from', '1h', '--to', '2h'], error: 'must be before --to' },
    { argv: ['--hardware-id', 'HW-1', '--since', 'yesterday'], error: '--since must be an ISO 8601 date-time' },
    { argv: ['--hardware-id', 'HW-1', '--since', '2024-05-01T08:00'], error: '--since "2024-05-01T08:00" has no time zone' },
    { argv: ['--fleet-id', 'nope', '--since', '1d'], error: '--fleet-id: must be a valid uuid, got "nope"' },
    { argv: ['--vehicle-id', `${VEHICLE},x`, '--since', '1d'], error: '--vehicle-id: must be a valid uuid, got "x"' },
    { argv: ['--hardware-id', '', '--since', '1d'], error: 'events search needs a narrowing filter' },
    { argv: ['--hardware-id', 'HW-1', '--since', '1d', '--type', 'a,'], want: { types: ['a'] } },
    { argv: ['--hardware-id', 'HW-1', '--since', '1d', '--limit', '0'], error: '--limit must be from 1 to 500, got 0' },
  ];
  for (const c of cases) {
    it(c.argv.join(' ') || '(no flags)', async () => {
      const f = fakeDeps({ now: NOW });
      const { run, calls } = recordRun<EventsSearchOptions>();
      const promise = parseVerb(newEventsSearchCommand(f.deps, run), c.argv);
      if (c.error) {
        await expect(promise).rejects.toThrow(c.error);
        expect(calls).toEqual([]);
        return;
      }
      await promise;
      expect(calls[0]).toMatchObject(c.want!);
    });
  }
});

describe('events search: parameters checked against the service\'s own document', () => {
  const servedDocument = {
    paths: {
      '/v1/events': {
        get: {
          parameters: [
            { name: 'fleet_ids', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'hardware_id', in: 'query', schema: { type: 'string', maxLength: 8 } },
          ],
        },
      },
    },
  };

  it('a fleet id its document allows (not a uuid) is sent', async () => {
    const { run, calls } = recordRun<EventsSearchOptions>();
    await parseVerb(newEventsSearchCommand(fakeDeps({ now: NOW, servedDocument }).deps, run), ['--fleet-id', '17,18', '--since', '1d']);
    expect(calls[0]).toMatchObject({ fleetIds: ['17', '18'] });
  });

  it('a value its document refuses is refused with its message', async () => {
    const promise = parseVerb(newEventsSearchCommand(fakeDeps({ now: NOW, servedDocument }).deps, recordRun<EventsSearchOptions>().run), ['--hardware-id', 'HW-0000001', '--since', '1d']);
    await expect(promise).rejects.toThrow('--hardware-id: must have at most 8 characters, got "HW-0000001"');
  });
});

describe('events search: run', () => {
  const opts: EventsSearchOptions = {
    fleetIds: [FLEET, FLEET2],
    window: { dateFrom: '2024-05-31T12:00:00.000Z', dateTo: NOW },
    types: ['harsh_braking'],
    paging: { limit: 2, all: true },
  };
  const q = `fleet_ids=${FLEET}&fleet_ids=${FLEET2}&date_from=2024-05-31T12%3A00%3A00.000Z&date_to=2024-06-01T12%3A00%3A00.000Z&event_types=harsh_braking`;

  it.each([true, false])('follows every page with --all (tty %s)', async (tty) => {
    const f = fakeDeps({
      tty,
      answers: [
        { method: 'GET', path: `/v1/events?${q}&limit=2`, body: { data: [item], next_cursor: 'c2', has_more: true } },
        { method: 'GET', path: `/v1/events?${q}&cursor=c2&limit=2`, body: { data: [{ ...item, is_important: false }], next_cursor: null, has_more: false } },
      ],
    });
    await eventsSearchRun(f.deps, opts);
    f.assertAllAnswered();
    expect(f.sent.map((s) => s.scope)).toEqual(['thirdparty.api.events_read', 'thirdparty.api.events_read']);
    if (tty) {
      // the event id leads, whole: it is what `events get` takes
      expect(f.io.stdout()).toMatch(new RegExp(`EVENT ID.*TRIGGERED AT.*HARDWARE ID.*EVENT TYPES[^]*${EVENT_ID} │ 2024-05-31 10:00 │ HW-000001 +│ harsh_braking`));
    } else {
      expect(f.io.stdout()).toBe(
        'event_id\thardware_id\ttriggered_at\tevent_types\tis_accident\tis_important\tvehicle_id\n' +
          `${EVENT_ID}\tHW-000001\t2024-05-31T10:00:00.000Z\tharsh_braking,speeding\tfalse\ttrue\t${VEHICLE}\n` +
          `${EVENT_ID}\tHW-000001\t2024-05-31T10:00:00.000Z\tharsh_braking,speeding\tfalse\tfalse\t${VEHICLE}\n`,
      );
    }
    expect(f.io.stderr()).toBe(tty ? 'Not shown at 120 columns: is_accident, is_important, vehicle_id, fleet_id, event_categories; -o wide shows them\n' : '');
  });

  it('a server 400 events.filter_required surfaces as an ApiError with exit 2', async () => {
    const f = fakeDeps({
      answers: [{ method: 'GET', path: `/v1/events?${q}&limit=2`, status: 400, body: { status: 400, code: 'events.filter_required', detail: 'A date window is required.' } }],
    });
    await expect(eventsSearchRun(f.deps, opts)).rejects.toMatchObject({ status: 400, code: 'events.filter_required', exitCode: 2 });
  });
});

describe('events get', () => {
  it('passes the opaque id on unchanged, URL-encoded into the path', async () => {
    const odd = 'a/b+c=?';
    const f = fakeDeps({ format: 'json', answers: [{ method: 'GET', path: '/v1/events/a%2Fb%2Bc%3D%3F', body: { ...item, media_ids: [] } }] });
    await parseVerb(newEventsGetCommand(f.deps), [odd]);
    f.assertAllAnswered();
    expect(JSON.parse(f.io.stdout()).event_id).toBe(EVENT_ID);
  });

  it('refuses an empty id before any request', async () => {
    const f = fakeDeps();
    await expect(parseVerb(newEventsGetCommand(f.deps), [''])).rejects.toThrow('event id must not be empty');
    expect(f.sent).toEqual([]);
  });

  it('404 is an ApiError with exit 5', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: `/v1/events/${EVENT_ID}`, status: 404, body: { status: 404, code: 'resource.not_found' } }] });
    await expect(eventsGetRun(f.deps, { eventId: EVENT_ID })).rejects.toMatchObject({ exitCode: 5 });
  });
});

describe('events media', () => {
  const media = {
    id: 'm1',
    hardware_id: 'HW-000001',
    event_id: EVENT_ID,
    file_name: 'clip.mp4',
    mime_type: 'video/mp4',
    channel: 1,
    size_bytes: 1024,
    recorded_at: '2024-05-31T10:00:00.000Z',
    download_url: 'https://media.example/x?signature=s',
    download_url_expires_at: '2024-05-31T11:00:00.000Z',
  };

  it('parses paging flags', async () => {
    const { run, calls } = recordRun<EventsMediaOptions>();
    await parseVerb(newEventsMediaCommand(fakeDeps().deps, run), [EVENT_ID, '--max-items', '3']);
    expect(calls[0]).toEqual({ eventId: EVENT_ID, paging: { ...paging, maxItems: 3 } });
  });

  it.each([true, false])('lists the media (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, answers: [{ method: 'GET', path: `/v1/events/${EVENT_ID}/media?limit=50`, body: { data: [media], next_cursor: null, has_more: false } }] });
    await eventsMediaRun(f.deps, { eventId: EVENT_ID, paging });
    if (tty) expect(f.io.stdout()).toContain('clip.mp4');
    else expect(f.io.stdout()).toBe(`id\thardware_id\tfile_name\tmime_type\tchannel\tsize_bytes\trecorded_at\tevent_id\nm1\tHW-000001\tclip.mp4\tvideo/mp4\t1\t1024\t2024-05-31T10:00:00.000Z\t${EVENT_ID}\n`);
  });

  it('an empty list says so on a terminal, prints only the header when piped', async () => {
    for (const tty of [true, false]) {
      const f = fakeDeps({ tty, answers: [{ method: 'GET', path: `/v1/events/${EVENT_ID}/media?limit=50`, body: { data: [], next_cursor: null, has_more: false } }] });
      await eventsMediaRun(f.deps, { eventId: EVENT_ID, paging });
      expect(f.io.stderr()).toBe(tty ? 'No results.\n' : '');
    }
  });
});
