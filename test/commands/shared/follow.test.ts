// --follow: the window first (oldest first), then each new event once, through overlapping windows, failures
// and late events; stops quietly when the signal says so.
import { describe, expect, it } from 'vitest';
import { DEEP_POLL_EVERY_MS, followEvents, followFrom, LATE_ARRIVAL_MS, RECENT_OVERLAP_MS, type EventSource } from '../../../src/commands/shared/follow.js';
import { eventKey, eventTime } from '../../../src/records/event-identity.js';
import { Output } from '../../../src/output/render.js';
import type { OutputFormat } from '../../../src/output/writers/registry.js';
import { viewOf } from '../../../src/output/columns.js';
import { IOStreams } from '../../../src/io/streams.js';
import { ApiError } from '../../../src/errors.js';
import { FakeClock, T0 } from '../../support/fake-clock.js';

interface Ev {
  event_id: string;
  triggered_at: string;
  event_types: string[];
  is_accident: boolean;
  is_important: boolean;
}

const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000).toISOString();
const ev = (id: string, minutes: number): Ev => ({ event_id: id, triggered_at: at(minutes), event_types: ['speeding'], is_accident: false, is_important: true });

/**
 * A server whose events appear over time: each poll (in order) may add events and may fail. It answers every
 * window as the API does: the events whose time is inside it, newest first.
 */
function server(script: { add?: Ev[]; fail?: Error }[], initial: Ev[]) {
  const stored = [...initial];
  const windows: [string, string][] = [];
  let poll = 0;
  const source: EventSource<Ev> = {
    what: 'events of HW-1',
    id: (e) => e.event_id,
    time: (e) => e.triggered_at,
    async *fetch(from, to) {
      const step = script[poll++] ?? {};
      windows.push([from, to]);
      stored.push(...(step.add ?? []));
      if (step.fail) throw step.fail;
      yield* stored.filter((e) => e.triggered_at >= from && e.triggered_at < to).sort((a, b) => b.triggered_at.localeCompare(a.triggered_at));
    },
  };
  return { source, windows, polls: () => poll };
}

/** Runs the follow until `polls` polls were made (the fake clock's sleep aborts then). */
async function follow(src: ReturnType<typeof server>, polls: number, opts: { format?: OutputFormat; tty?: boolean; dateFrom?: string } = {}) {
  const io = IOStreams.forTest({ tty: opts.tty ?? false });
  const controller = new AbortController();
  const clock = new FakeClock(new Date(T0.getTime() + 10 * 60_000));
  const sleep = clock.sleep.bind(clock);
  clock.sleep = async (ms, signal) => {
    if (src.polls() >= polls) controller.abort(new Error('Ctrl-C'));
    return sleep(ms, signal);
  };
  const output = new Output(io, { format: opts.format ?? 'table' });
  const deps = { io, clock, signal: controller.signal, output: () => output };
  await followEvents(deps, src.source, viewOf('deviceEvent'), { intervalMs: 5_000, dateFrom: opts.dateFrom ?? at(0), paging: { limit: 500, all: true } });
  const printed = io.stdout().trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).event_id as string);
  return { io, clock, printed };
}

describe('followEvents', () => {
  it('the window oldest first, then each new event once, through overlapping windows', async () => {
    const src = server([{}, { add: [ev('c', 10.05)] }, { add: [ev('d', 10.1), ev('e', 10.12)] }, {}], [ev('b', 8), ev('a', 2), ev('old', -5)]);
    const { printed, clock } = await follow(src, 4);
    expect(printed).toEqual(['a', 'b', 'c', 'd', 'e']);
    // the fourth wait was cut short by Ctrl-C
    expect(clock.sleeps).toEqual([5_000, 5_000, 5_000]);
    // the first window is the one asked for; each next one starts RECENT_OVERLAP_MS before the last one ended
    expect(src.windows[0]).toEqual([at(0), at(10)]);
    expect(src.windows[1]).toEqual([new Date(Date.parse(at(10)) - RECENT_OVERLAP_MS).toISOString(), new Date(Date.parse(at(10)) + 5_000).toISOString()]);
    for (let i = 2; i < src.windows.length; i++) expect(Date.parse(src.windows[i]![0])).toBe(Date.parse(src.windows[i - 1]![1]) - RECENT_OVERLAP_MS);
  });

  it('an event that arrives later than the recent overlap is printed by the next deep poll, once', async () => {
    // 'slow' happened a minute before the first window's end and arrives at the third poll: too old for the
    // ordinary polls' windows, inside LATE_ARRIVAL_MS
    const src = server([{}, {}, { add: [ev('slow', 9)] }, { add: [ev('b', 10.2)] }], [ev('a', 5)]);
    const { printed } = await follow(src, 14);
    expect(printed).toEqual(['a', 'b', 'slow']);
    // an ordinary poll starts RECENT_OVERLAP_MS before the last window's end; a deep one, a minute or more after
    // the last deep one (the first window is one), reads back to LATE_ARRIVAL_MS before the last deep one's end
    const ms = src.windows.map(([from, to]) => [Date.parse(from), Date.parse(to)] as const);
    let lastDeep = ms[0]![1];
    let deepPolls = 0;
    for (let i = 1; i < ms.length; i++) {
      const [start, end] = ms[i]!;
      const before = ms[i - 1]![1];
      if (end - lastDeep >= DEEP_POLL_EVERY_MS) {
        expect(start).toBe(lastDeep - LATE_ARRIVAL_MS);
        lastDeep = end;
        deepPolls++;
      } else {
        expect(start).toBe(before - RECENT_OVERLAP_MS);
      }
    }
    expect(deepPolls).toBeGreaterThanOrEqual(1);
  });

  it('pages as large as the API allows unless --limit says: the follow reads every page of its window anyway', () => {
    const now = new Date(T0);
    expect(followFrom({ follow: true }, now)?.pageLimit).toBe(500);
    expect(followFrom({ follow: true, limit: '20' }, now)?.pageLimit).toBeUndefined();
  });

  it('an event whose device time is before the last window end (it reported late) is still printed, once', async () => {
    const src = server([{}, {}, { add: [ev('late', 10 - RECENT_OVERLAP_MS / 2 / 60_000)] }, {}, {}], [ev('a', 5)]);
    const { printed } = await follow(src, 5);
    expect(printed).toEqual(['a', 'late']);
  });

  it('events print in the order of their instants, whatever offset or fraction their times are written with', async () => {
    const timed = (id: string, time: string): Ev => ({ ...ev(id, 0), triggered_at: time });
    // T0 is 12:00:00Z; the server's window compares text, so these are served as one window
    const events = [timed('x', '2025-06-01T12:05:00.0000002Z'), timed('y', '2025-06-01T17:35:00.0000001+05:30'), timed('z', '2025-06-01T04:04:59.9-08:00')];
    const source: EventSource<Ev> = { what: 'events', id: (e) => e.event_id, time: (e) => e.triggered_at, fetch: async function* () { yield* events; } };
    const src = { source, windows: [], polls: () => 1 } as unknown as ReturnType<typeof server>;
    const { printed } = await follow(src, 1);
    expect(printed).toEqual(['z', 'y', 'x']);
  });

  it('429, 503 and network failures: a line on stderr, a back-off, the same window again; nothing lost or doubled', async () => {
    const busy = new ApiError({ status: 503, problem: { status: 503, code: 'service.unavailable' } });
    const limited = new ApiError({ status: 429, problem: { status: 429 }, retryAfter: 30 });
    const src = server([{}, { add: [ev('c', 10.05)], fail: busy }, { fail: limited }, { add: [ev('d', 10.2)] }, {}], [ev('a', 1)]);
    const { printed, io, clock } = await follow(src, 5);
    expect(printed).toEqual(['a', 'c', 'd']);
    expect(io.stderr()).toContain('Warning: polling events of HW-1 failed (HTTP 503 service.unavailable); trying again in');
    expect(io.stderr()).toContain('Warning: polling events of HW-1 failed (HTTP 429); trying again in 30 s');
    expect(io.stderr()).toContain('Polling again: 2 new events.');
    // back-off: at least the interval, Retry-After honoured
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(2_500);
    expect(clock.sleeps[2]).toBe(30_000);
    // the failed windows are asked again from the same start
    expect(src.windows[2]![0]).toBe(src.windows[1]![0]);
    expect(src.windows[3]![0]).toBe(src.windows[1]![0]);
  });

  it('a refusal (404, 403) ends the follow with that error', async () => {
    const gone = new ApiError({ status: 404, problem: { status: 404, code: 'resource.not_found' } });
    const src = server([{}, { fail: gone }], [ev('a', 1)]);
    await expect(follow(src, 5)).rejects.toBe(gone);
  });

  it('on a terminal: a table that grows, its header once', async () => {
    const src = server([{}, { add: [ev('c', 10.05)] }, {}], [ev('a', 1)]);
    const io = IOStreams.forTest({ tty: true });
    const controller = new AbortController();
    const clock = new FakeClock(new Date(T0.getTime() + 10 * 60_000));
    const sleep = clock.sleep.bind(clock);
    clock.sleep = async (ms, signal) => {
      if (src.polls() >= 3) controller.abort(new Error('Ctrl-C'));
      return sleep(ms, signal);
    };
    io.noColor = true;
    const output = new Output(io, { format: 'table' });
    await followEvents({ io, clock, signal: controller.signal, output: () => output }, src.source, viewOf('deviceEvent'), { intervalMs: 5_000, dateFrom: at(0), paging: { limit: 500, all: true } });
    const lines = io.stdout().split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    // the event id leads: it is what `events get` takes
    expect(lines[0]).toMatch(/^EVENT ID +TRIGGERED AT +EVENT TYPES +IS ACCIDENT +IS IMPORTANT$/);
    expect(lines[1]).toMatch(/^a +2025-06-01 12:01 +speeding +false +true$/);
    expect(lines[2]).toMatch(/^c +2025-06-01 12:10 +speeding +false +true$/);
    expect(lines[1]!.indexOf('speeding')).toBe(lines[0]!.indexOf('EVENT TYPES'));
    expect(io.stderr()).toContain('Following: new events every 5 s; Ctrl-C to stop.');
  });

  it.each([
    ['csv', false],
    ['table', true],
  ] as const)('-o %s --columns nosuchcol: refused with the first events, before a byte of them (terminal %s)', async (format, tty) => {
    const src = server([{}], [ev('a', 1)]);
    const io = IOStreams.forTest({ tty });
    const clock = new FakeClock(new Date(T0.getTime() + 10 * 60_000));
    const output = new Output(io, { format, columns: ['event_id', 'nosuchcol'], declaredFields: async () => new Set(['event_id']) });
    const following = followEvents({ io, clock, signal: new AbortController().signal, output: () => output }, src.source, viewOf('deviceEvent'), { intervalMs: 5_000, dateFrom: at(0), paging: { limit: 500, all: true } });
    await expect(following).rejects.toThrow(/--columns: no record has the field "nosuchcol"/);
    expect(io.stdout()).toBe('');
  });

  it('-o yaml: one document per event', async () => {
    const src = server([{}, { add: [ev('c', 10.05)] }], [ev('a', 1)]);
    const io = IOStreams.forTest({ tty: false });
    const controller = new AbortController();
    const clock = new FakeClock(new Date(T0.getTime() + 10 * 60_000));
    clock.sleep = async (ms) => {
      if (src.polls() >= 2) controller.abort(new Error('Ctrl-C'));
      clock.advance(ms);
    };
    const output = new Output(io, { format: 'yaml' });
    await followEvents({ io, clock, signal: controller.signal, output: () => output }, src.source, viewOf('deviceEvent'), { intervalMs: 5_000, paging: { limit: 500, all: true } });
    expect(io.stdout().match(/^---$/gm)).toHaveLength(2);
    expect(io.stdout()).toContain('event_id: c\n');
  });
});

describe('eventKey and eventTime: events shaped otherwise', () => {
  it('the id and time the records carry, whatever their names', () => {
    expect([eventKey({ event_id: 'E1', triggered_at: at(1) }), eventTime({ event_id: 'E1', triggered_at: at(1) })]).toEqual(['E1', at(1)]);
    expect([eventKey({ ref: 'r-9', created_at: at(0), occurred_at: at(3) }), eventTime({ ref: 'r-9', created_at: at(0), occurred_at: at(3) })]).toEqual(['r-9', at(3)]);
    expect([eventKey({ eventId: 'E2', triggerUtc: at(4) }), eventTime({ eventId: 'E2', triggerUtc: at(4) })]).toEqual(['E2', at(4)]);
    // received_at is when the service heard of it, not when it happened
    expect(eventTime({ received_at: at(9), at: at(5) })).toBe(at(5));
    expect(eventTime({ kind: 'x' })).toBe('');
  });

  it('records with no id at all: two events are never taken for one, and each is printed once', async () => {
    const bare = (kind: string, minutes: number) => ({ kind, happened: at(minutes) });
    const stored = [bare('speeding', 2), bare('harsh_braking', 3)];
    const lines = await followStored(stored, (poll) => (poll === 1 ? [bare('idling', 10.05)] : []));
    expect(lines.map((line) => line.kind)).toEqual(['speeding', 'harsh_braking', 'idling']);
  });
});

describe('--follow over many devices: a per-device event id that repeats is not one event', () => {
  it('two devices\' event "17" are both printed, once each, through overlapping windows', async () => {
    const one = (hardware_id: string, minutes: number) => ({ event_id: '17', hardware_id, happened: at(minutes) });
    const lines = await followStored([one('HW-1', 2), one('HW-2', 3)], () => []);
    expect(lines.map((line) => line.hardware_id)).toEqual(['HW-1', 'HW-2']);
  });
});

/** Follows records held in a list (identified and dated by the record boundary) for three polls; the NDJSON lines printed. */
async function followStored<T extends { happened: string }>(stored: T[], added: (poll: number) => T[]): Promise<Record<string, unknown>[]> {
  let poll = 0;
  const source: EventSource<T> = {
    what: 'events of HW-1',
    id: (e) => eventKey(e),
    time: eventTime,
    async *fetch(from, to) {
      stored.push(...added(poll++));
      yield* stored.filter((e) => e.happened >= from && e.happened < to).reverse();
    },
  };
  const io = IOStreams.forTest({ tty: false });
  const controller = new AbortController();
  const clock = new FakeClock(new Date(T0.getTime() + 10 * 60_000));
  const sleep = clock.sleep.bind(clock);
  clock.sleep = async (ms, signal) => {
    if (poll >= 3) controller.abort(new Error('Ctrl-C'));
    return sleep(ms, signal);
  };
  const output = new Output(io, { format: 'ndjson' });
  await followEvents({ io, clock, signal: controller.signal, output: () => output }, source, viewOf('event'), { intervalMs: 5_000, dateFrom: at(0), paging: { limit: 500, all: true } });
  return io.stdout().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('followFrom', () => {
  it.each([
    [{ follow: true }, { intervalMs: 5_000, pageLimit: 500 }],
    [{ follow: true, interval: "2s" }, { intervalMs: 2_000, pageLimit: 500 }],
    [{}, undefined],
  ])('%j → %j', (flags, expected) => {
    expect(followFrom(flags, T0)).toEqual(expected);
  });

  it.each([
    [{ interval: '2s' }, '--interval only applies with --follow'],
    [{ follow: true, interval: '0.5s' }, '--interval must be at least 1s, got "0.5s"'],
    [{ follow: true, interval: 'soon' }, '--interval must be a duration such as 5s'],
    [{ follow: true, to: '1h', sort: 'x' }, '--follow cannot be combined with --to, --sort'],
    [{ follow: true, maxItems: '5', cursor: 'c' }, '--follow cannot be combined with --cursor, --max-items'],
  ])('%j is refused', (flags, message) => {
    expect(() => followFrom(flags, T0)).toThrow(message);
  });
});
