import { describe, expect, it } from 'vitest';
import { pickDevice, pickDevicesFor, pickEvent, pickMedia } from '../../../src/commands/shared/pickers.js';
import { givenOrPicked } from '../../../src/commands/shared/pick-list.js';
import { displayWidth } from '../../../src/output/text-width.js';
import { ApiError, UsageError } from '../../../src/errors.js';
import { fakeDeps } from '../fake-deps.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const hw = (n: number) => `HW-${String(n).padStart(6, '0')}`;
const device = (n: number, extra: Record<string, unknown> = {}) => ({
  id: uuid(n),
  hardware_id: hw(n),
  name: `Van ${n}`,
  model: 'DC-200',
  capabilities: ['reboot', 'wake_up'],
  ...extra,
});
const page = (data: unknown[], next: string | null = null) => ({ data, next_cursor: next, has_more: next !== null });
const devicesPage = (path: string, data: unknown[], next: string | null = null) => ({ method: 'GET', path, body: page(data, next) });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => device(from + i));

describe('pickDevice: search over the devices list', () => {
  it('opens on the first page; a term narrows what was read, reading further pages only as needed', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=100', range(1, 3), 'c2'), devicesPage('/v1/devices?cursor=c2&limit=100', range(4, 7))],
      searches: [{ term: 'van 7', choose: 'HW-000007' }],
    });
    const picked = await pickDevice(f.deps);
    expect(picked).toEqual(device(7));
    expect(f.prompts).toEqual(['Device (type a hardware id or name)']);
    expect(f.shown[0]!.lines).toEqual(['HW-000007  Van 7  DC-200  reboot wake_up']);
    f.assertAllAnswered();
  });

  it('a term shaped like a hardware id goes to the API filter; found there, no more pages are read for it', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=100', range(1, 2), 'c2'), devicesPage('/v1/devices?hardware_id=HW-000150&limit=100', [device(150)])],
      searches: [{ term: 'HW-000150', choose: 'HW-000150' }],
    });
    expect(await pickDevice(f.deps)).toMatchObject({ id: uuid(150) });
    expect(f.shown[0]!.lines).toEqual(['(first 2 devices; type to search them all)', 'HW-000150  Van 150  DC-200  reboot wake_up']);
    f.assertAllAnswered();
  });

  it('the filter\'s hit comes first, then the near matches read from the list', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [
        devicesPage('/v1/devices?limit=100', [device(1), device(10), device(11)]),
        devicesPage('/v1/devices?hardware_id=HW-00001&limit=100', [device(9, { hardware_id: 'HW-00001' })]),
      ],
      searches: [{ term: 'HW-00001', choose: 'HW-000011' }],
    });
    expect(await pickDevice(f.deps)).toMatchObject({ id: uuid(11) });
    expect(f.shown[0]!.lines.map((line) => line.split(' ')[0])).toEqual(['HW-00001', 'HW-000010', 'HW-000011']);
  });

  it('stops reading once a screenful matches, and says that more can be searched', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=100', range(1, 2), 'c2'), devicesPage('/v1/devices?cursor=c2&limit=100', range(3, 80), 'c3')],
      searches: [{ choose: 'HW-000002' }],
    });
    await pickDevice(f.deps);
    const lines = f.shown[0]!.lines;
    expect(lines).toHaveLength(81);
    expect(lines[0]).toBe('(first 80 devices; type to search them all)');
    f.assertAllAnswered();
  });

  it('lines are terminal-safe, aligned by display width, and cut to the terminal width', async () => {
    const hostile = device(1, { name: '\u001b]0;pwned\u0007Van\u001b[2J', capabilities: Array.from({ length: 30 }, (_, i) => `capability_${i}`) });
    const wide = device(2, { name: '東京の配送トラック' });
    const f = fakeDeps({ tty: true, answers: [devicesPage('/v1/devices?limit=100', [hostile, wide])], searches: [{ choose: 'HW-000002' }] });
    await pickDevice(f.deps);
    const [first, second] = f.shown[0]!.lines as [string, string];
    expect(first).toContain('\\x1b]0;pwned\\x07Van\\x1b[2J');
    expect(first).not.toMatch(/[\u0000-\u001f]/);
    // the test terminal is 120 columns; the cursor takes 2 and a margin 1
    expect(displayWidth(first)).toBe(117);
    expect(first.endsWith('…')).toBe(true);
    // the model column starts at the same column on both lines, the CJK name counting two columns a character
    expect(displayWidth(first.slice(0, first.indexOf('DC-200')))).toBe(displayWidth(second.slice(0, second.indexOf('DC-200'))));
    expect(second).toBe('HW-000002  東京の配送トラック          DC-200  reboot wake_up');
  });

  it('with no device at all, says so instead of showing an empty list (exit 2)', async () => {
    const f = fakeDeps({ tty: true, answers: [devicesPage('/v1/devices?limit=100', [])] });
    const error = await pickDevice(f.deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ message: 'there is no device to choose from', hint: 'give the device as an argument', exitCode: 2 });
    expect(f.prompts).toEqual([]);
  });

  it('a list the client may not read is a 403 that says the argument can still be given (exit 4)', async () => {
    const problem = { type: 'about:blank', title: 'Forbidden', status: 403, code: 'auth.insufficient_scope', detail: 'The token lacks devices_read.' };
    const f = fakeDeps({ tty: true, answers: [{ method: 'GET', path: '/v1/devices?limit=100', status: 403, body: problem }] });
    const error = await pickDevice(f.deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      exitCode: 4,
      detail: 'cannot list devices to choose from: The token lacks devices_read.',
      hint: 'give the device as an argument instead',
    });
  });

  it('a page that fails while searching ends the pick with its error', async () => {
    const problem = { type: 'about:blank', title: 'Unavailable', status: 503, code: 'service.unavailable', detail: 'try later' };
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=100', range(1, 2), 'c2'), { method: 'GET', path: '/v1/devices?cursor=c2&limit=100', status: 503, body: problem }],
      searches: [{ term: 'van 9', choose: 'HW-000009' }],
    });
    await expect(pickDevice(f.deps)).rejects.toMatchObject({ status: 503, exitCode: 9 });
  });
});

describe('givenOrPicked', () => {
  it('off a terminal, a missing argument is the usage error commander gives, and nothing is asked or sent', async () => {
    const f = fakeDeps({ tty: false });
    const error = await givenOrPicked(f.deps.io, undefined, 'hardware-id', () => Promise.resolve('never')).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: "missing required argument 'hardware-id'", exitCode: 2 });
    expect([f.prompts, f.sent]).toEqual([[], []]);
  });

  it('with --no-input or CI=true on a terminal, nothing is asked either', async () => {
    const f = fakeDeps({ tty: true });
    f.deps.io.noInput = true;
    await expect(givenOrPicked(f.deps.io, undefined, 'id', () => Promise.resolve('never'))).rejects.toThrow("missing required argument 'id'");
  });

  it('a given value is used as it is, even on a terminal', async () => {
    const f = fakeDeps({ tty: true });
    await expect(givenOrPicked(f.deps.io, 'HW-1', 'hardware-id', () => Promise.resolve('never'))).resolves.toBe('HW-1');
  });
});

describe('pickDevicesFor: devices for reboot or wake-up, ticked in one list', () => {
  it('shows capabilities; devices without the command\'s capability cannot be ticked', async () => {
    const noReboot = device(2, { capabilities: ['wake_up'] });
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=500', [device(1), noReboot, device(3)])],
      checks: [['HW-000001', 'HW-000003']],
    });
    expect((await pickDevicesFor(f.deps, 'reboot', 'reboot')).hardwareIds).toEqual(['HW-000001', 'HW-000003']);
    expect(f.prompts).toEqual(['Devices to reboot']);
    expect(f.shown[0]!.lines).toEqual([
      'HW-000001  Van 1  DC-200  reboot wake_up',
      'HW-000002  Van 2  DC-200  wake_up (no reboot)',
      'HW-000003  Van 3  DC-200  reboot wake_up',
    ]);
    expect(f.io.stderr()).toBe('');
  });

  it('records shaped otherwise: lines from their own fields, and no capabilities said means none lacking', async () => {
    const foreign = (n: number) => ({ id: uuid(n), hardware_id: hw(n), serial: `S-${n}`, label: `Cab ${n}`, reported_at: '2026-11-20T10:00:00Z' });
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=500', [foreign(1), foreign(2)])],
      checks: [['HW-000001', 'HW-000002']],
    });
    expect((await pickDevicesFor(f.deps, 'reboot', 'reboot')).hardwareIds).toEqual(['HW-000001', 'HW-000002']);
    expect(f.shown[0]!.lines).toEqual([
      `HW-000001  ${uuid(1)}  Cab 1  2026-11-20T10:00:00Z`,
      `HW-000002  ${uuid(2)}  Cab 2  2026-11-20T10:00:00Z`,
    ]);
    expect(f.shown[0]!.lines.join('\n')).not.toMatch(/no reboot|undefined|\[object Object\]/);
  });

  it('when no device listed has the capability, says so instead of showing a list nothing can be ticked in', async () => {
    const f = fakeDeps({ tty: true, answers: [devicesPage('/v1/devices?limit=500', [device(1, { capabilities: ['reboot'] })])] });
    await expect(pickDevicesFor(f.deps, 'wake_up', 'wake-up')).rejects.toMatchObject({
      message: 'none of the 1 devices listed can be chosen (no wake_up)',
      hint: 'give the devices as arguments',
      exitCode: 2,
    });
    expect(f.prompts).toEqual([]);
  });

  it('says when the tenant has more devices than the list holds', async () => {
    const f = fakeDeps({ tty: true, answers: [devicesPage('/v1/devices?limit=500', range(1, 3), 'c2')], checks: [['HW-000002']] });
    expect((await pickDevicesFor(f.deps, 'wake_up', 'wake-up')).hardwareIds).toEqual(['HW-000002']);
    expect(f.io.stderr()).toBe('Only the first 3 devices are listed; name others as arguments.\n');
  });
});

describe('pickEvent and pickMedia', () => {
  const event = (id: string, types: string[], at: string) => ({ event_id: id, hardware_id: 'HW-000001', event_types: types, triggered_at: at, is_accident: false, is_important: true });
  const window = 'date_from=2024-05-02T12%3A00%3A00.000Z&date_to=2024-06-01T12%3A00%3A00.000Z';

  it('an event: a device first, then its events of the last 30 days (the search needs a filter and a window)', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [
        devicesPage('/v1/devices?limit=100', range(1, 2)),
        devicesPage(`/v1/events?hardware_id=HW-000001&${window}&limit=100`, [event('E1', ['speeding'], '2024-05-30T10:00:00Z'), event('E2', ['harsh_braking'], '2024-05-31T10:00:00Z')]),
      ],
      searches: [
        { choose: 'HW-000001' },
        { term: 'braking', choose: 'harsh_braking' },
      ],
    });
    expect(await pickEvent(f.deps)).toBe('E2');
    expect(f.prompts).toEqual(['Device of the event (type a hardware id or name)', 'Event of HW-000001, last 30 days (type a type or date)']);
    expect(f.shown[1]!.lines).toEqual(['2024-05-31T10:00:00Z  harsh_braking    important']);
    f.assertAllAnswered();
  });

  it("an event's composite id (what `events get` takes) is passed on, whatever member holds it, not its per-device id", async () => {
    const composite = Buffer.from('HW-000001|17', 'utf8').toString('base64url');
    const f = fakeDeps({
      tty: true,
      answers: [
        devicesPage('/v1/devices?limit=100', range(1, 1)),
        devicesPage(`/v1/events?hardware_id=HW-000001&${window}&limit=100`, [{ id: '17', lookup_key: composite, event_types: ['speeding'], triggered_at: '2024-05-30T10:00:00Z' }]),
      ],
      searches: [{ choose: 'HW-000001' }, { term: 'speeding', choose: 'speeding' }],
    });
    expect(await pickEvent(f.deps)).toBe(composite);
    f.assertAllAnswered();
  });

  it('a device without events in the window is said plainly, with where to look', async () => {
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices?limit=100', range(1, 1)), devicesPage(`/v1/events?hardware_id=HW-000001&${window}&limit=100`, [])],
      searches: [{ choose: 'HW-000001' }],
    });
    await expect(pickEvent(f.deps)).rejects.toMatchObject({
      message: 'device HW-000001 has no events in the last 30 days',
      hint: 'give the event id; older ones: fleetctl events search --hardware-id HW-000001 --since 90d',
      exitCode: 2,
    });
  });

  it('a media item of the device, within the command\'s own window', async () => {
    const media = { id: 'm1', hardware_id: 'HW-1', file_name: 'front.mp4', mime_type: 'video/mp4', recorded_at: '2024-05-31T00:00:00Z', size_bytes: 10 };
    const f = fakeDeps({
      tty: true,
      answers: [devicesPage('/v1/devices/HW-1/media?date_from=2024-05-01T00%3A00%3A00.000Z&limit=100', [media])],
      searches: [{ choose: 'front.mp4' }],
    });
    expect(await pickMedia(f.deps, 'HW-1', { dateFrom: '2024-05-01T00:00:00.000Z' })).toBe('m1');
    expect(f.shown[0]).toEqual({ message: 'Media of HW-1 (type a file name or date)', term: undefined, lines: ['front.mp4  2024-05-31T00:00:00Z  video/mp4  10'] });
  });

  it('records naming their ids otherwise: the id the service gives is what is picked; none at all is said', async () => {
    const media = { media_ref: 'md-07', hw: 'HW-1', kind: 'video/mp4', captured_at: '2024-05-31T00:00:00Z' };
    const f = fakeDeps({ tty: true, answers: [devicesPage('/v1/devices/HW-1/media?limit=100', [media])], searches: [{ choose: 'md-07' }] });
    expect(await pickMedia(f.deps, 'HW-1', {})).toBe('md-07');
    const bare = fakeDeps({ tty: true, answers: [devicesPage('/v1/devices/HW-1/media?limit=100', [{ kind: 'video/mp4', captured_at: '2024-05-31T00:00:00Z' }])], searches: [{ choose: 'video/mp4' }] });
    await expect(pickMedia(bare.deps, 'HW-1', {})).rejects.toMatchObject({ message: 'the media item picked carries no id', hint: 'give the media item id as an argument', exitCode: 9 });
  });
});
