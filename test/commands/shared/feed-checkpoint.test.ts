// --checkpoint: a feed stopped anywhere (after any event, mid-window, while devices report late) and started
// again with the same file writes every event of its window exactly once. Time is a fake clock; the checkpoint
// is a real file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { followEvents, followFrom, idleWait, LATE_ARRIVAL_MS, type EventSource, type FollowRun } from '../../../src/commands/shared/follow.js';
import { CHECKPOINT_FORMAT, FeedCheckpoint } from '../../../src/commands/shared/feed-checkpoint.js';
import { records } from '../../../src/records/resources.js';
import { Output } from '../../../src/output/render.js';
import { viewOf } from '../../../src/output/columns.js';
import { IOStreams } from '../../../src/io/streams.js';
import type { StdoutFile, StdoutFileState } from '../../../src/io/stdout-file.js';
import { FakeClock, T0 } from '../../support/fake-clock.js';
import { tempDir } from '../../support/temp-dir.js';
import { seeded } from '../../support/seeded-random.js';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();


interface Stored {
  record: { event_id: string; hardware_id: string; happened: string };
  storedAtMs: number;
}

/**
 * Two devices reporting over ten minutes from T0: per-device ids that repeat across devices, several events at one
 * instant, and one in five late (stamped up to LATE_ARRIVAL_MS before it is stored). Listed as the API lists: the
 * events stored by now whose time is in the window, newest first.
 */
function world(seed: number) {
  const random = seeded(seed);
  const stored: Stored[] = [];
  for (let i = 0; i < 60; i++) {
    const record = { event_id: String(Math.floor(i / 2)), hardware_id: `HW-${i % 2}`, happened: '' };
    const before = stored[i - 1];
    // one in four is stored with the event before it, at the same instant
    if (before && random() < 0.25) {
      stored.push({ record: { ...record, happened: before.record.happened }, storedAtMs: before.storedAtMs });
      continue;
    }
    const storedAtMs = T0.getTime() + Math.floor(random() * 10 * MINUTE);
    const lateMs = random() < 0.2 ? Math.floor(random() * (LATE_ARRIVAL_MS - 1_000)) : 0;
    stored.push({ record: { ...record, happened: iso(Math.max(T0.getTime(), storedAtMs - lateMs)) }, storedAtMs });
  }
  const source = (clock: FakeClock): EventSource<Stored['record']> => ({
    what: 'events of fleet F',
    id: (e) => records.event.keyOf(e),
    time: records.event.timeOf,
    async *fetch(from, to) {
      const now = clock.now().getTime();
      const inWindow = stored.filter((s) => s.storedAtMs <= now && Date.parse(s.record.happened) >= Date.parse(from) && Date.parse(s.record.happened) < Date.parse(to));
      yield* inWindow.map((s) => s.record).sort((a, b) => b.happened.localeCompare(a.happened));
    },
  });
  return { stored, source };
}

const UNTIL = iso(T0.getTime() + 12 * MINUTE);

/** One run of the feed until it ends by itself (--max-events or --until); the keys of the events it wrote. */
async function run(clock: FakeClock, source: EventSource<Stored['record']>, opts: Partial<FollowRun>, io = IOStreams.forTest({ tty: false })): Promise<string[]> {
  const output = new Output(io, { format: 'ndjson' });
  await followEvents({ io, clock, signal: new AbortController().signal, output: () => output }, source, viewOf('event'), {
    intervalMs: 5_000, dateFrom: iso(T0.getTime()), until: UNTIL, paging: { limit: 500, all: true }, ...opts,
  });
  return io.stdout().split('\n').filter(Boolean).map((line) => records.event.keyOf(JSON.parse(line)));
}

describe('--checkpoint: stopped anywhere, started again, every event once', () => {
  it.each([1, 2, 3, 4, 5])('seed %i: runs of 1 to 5 events each, then the rest', async (seed) => {
    const { stored, source } = world(seed);
    const file = path.join(tempDir('fleetctl-feed-'), 'feed.checkpoint');
    const clock = new FakeClock(T0);
    const stops = seeded(seed * 31);
    const written: string[] = [];
    let runs = 0;
    for (;;) {
      const maxEvents = 1 + Math.floor(stops() * 5);
      const keys = await run(clock, source(clock), { checkpoint: file, maxEvents });
      written.push(...keys);
      runs++;
      // a run that wrote fewer than it may has reached --until
      if (keys.length < maxEvents) break;
      // down for a while: devices go on reporting, some of it late
      clock.advance(Math.floor(stops() * 40_000));
    }
    expect(runs).toBeGreaterThan(10);
    const every = stored.map((s) => records.event.keyOf(s.record));
    expect(new Set(every).size).toBe(60);
    expect([...written].sort()).toEqual([...every].sort());
    // and what one uninterrupted run writes
    const once = await run(new FakeClock(T0), world(seed).source(new FakeClock(new Date(T0.getTime() + 20 * MINUTE))), {});
    expect([...once].sort()).toEqual([...written].sort());
  });

  it('to a pipe each event is recorded after its write; to a file, each poll\'s events once, after their one write', async () => {
    const saves = vi.spyOn(FeedCheckpoint.prototype, 'save');
    try {
      const toPipe = await run(new FakeClock(T0), world(1).source(new FakeClock(new Date(T0.getTime() + 20 * MINUTE))), { checkpoint: path.join(tempDir('fleetctl-feed-'), 'a') });
      expect(toPipe).toHaveLength(60);
      expect(saves.mock.calls.length).toBeGreaterThanOrEqual(60);
      saves.mockClear();
      const stdoutFile: StdoutFile = { state: () => ({ dev: 1, ino: 2, size: 0 }), truncate: () => {} };
      const toFile = await run(new FakeClock(T0), world(1).source(new FakeClock(new Date(T0.getTime() + 20 * MINUTE))), { checkpoint: path.join(tempDir('fleetctl-feed-'), 'b'), stdoutFile });
      expect(toFile).toEqual(toPipe);
      // at most one record a poll that wrote events, and one a move of the window's start: fewer than one an event
      expect(saves.mock.calls.length).toBeLessThan(toPipe.length / 1.5);
    } finally {
      saves.mockRestore();
    }
  });

  it('a late event that comes while the feed is down is written after the restart, once', async () => {
    const clock = new FakeClock(new Date(T0.getTime() + MINUTE));
    const events = [{ event_id: '1', hardware_id: 'HW-1', happened: iso(T0.getTime() + 30_000), storedAtMs: T0.getTime() }];
    const source: EventSource<(typeof events)[number]> = {
      what: 'events of HW-1', id: (e) => records.event.keyOf(e), time: records.event.timeOf,
      async *fetch(from, to) {
        yield* events.filter((e) => e.storedAtMs <= clock.now().getTime() && e.happened >= from && e.happened < to);
      },
    };
    const file = path.join(tempDir('fleetctl-feed-'), 'feed.checkpoint');
    expect(await run(clock, source, { checkpoint: file, maxEvents: 1, until: undefined })).toEqual(['HW-1\u00001']);
    // down two minutes; meanwhile a device reports an event from before the last event written
    clock.advance(2 * MINUTE);
    events.push({ event_id: '2', hardware_id: 'HW-1', happened: iso(T0.getTime() + 10_000), storedAtMs: clock.now().getTime() });
    const io = IOStreams.forTest({ tty: false });
    expect(await run(clock, source, { checkpoint: file, maxEvents: 1, until: undefined }, io)).toEqual(['HW-1\u00002']);
  });

  it('--until: the window up to it, then the end; waits grow while nothing comes, and stop at --until', async () => {
    const clock = new FakeClock(T0);
    const source: EventSource<{ happened: string }> = { what: 'events', id: (e) => records.event.keyOf(e), time: records.event.timeOf, fetch: async function* () {} };
    const io = IOStreams.forTest({ tty: false });
    const output = new Output(io, { format: 'ndjson' });
    const windows: string[] = [];
    const seen = { ...source, fetch: (from: string, to: string) => (windows.push(to), source.fetch(from, to, { limit: 500, all: true })) };
    await followEvents({ io, clock, signal: new AbortController().signal, output: () => output }, seen, viewOf('event'), { intervalMs: 5_000, until: iso(T0.getTime() + 100_000), paging: { limit: 500, all: true } });
    expect(clock.sleeps).toEqual([5_000, 10_000, 20_000, 40_000, 25_001]);
    expect(windows.at(-1)).toBe(iso(T0.getTime() + 100_000));
    expect(io.stdout()).toBe('');
  });

  it('idle waits double from the interval to 8 intervals, and never beyond a minute', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((idle) => idleWait(2_000, idle))).toEqual([2_000, 2_000, 4_000, 8_000, 16_000, 16_000, 16_000]);
    expect(idleWait(20_000, 6)).toBe(60_000);
  });
});

describe('the checkpoint file', () => {
  const sayings: string[] = [];
  const fakeStdout = (state: StdoutFileState): StdoutFile & { cut?: number; current: StdoutFileState } => {
    const file: StdoutFile & { cut?: number; current: StdoutFileState } = { current: state, state: () => file.current, truncate: (size) => (file.cut = size) };
    return file;
  };

  it("is fleetctl's versioned JSON: the feed, the next window's start, the events written from it", async () => {
    const file = path.join(tempDir('fleetctl-feed-'), 'nested', 'feed.checkpoint');
    const checkpoint = new FeedCheckpoint(file, 'events of HW-1', fakeStdout({ dev: 1, ino: 2, size: 40 }), (line) => sayings.push(line));
    await checkpoint.save({ from: iso(T0.getTime()), written: new Map([['k1', T0.getTime()], ['k2', Number.NaN]]) });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      format: CHECKPOINT_FORMAT, version: 1, feed: 'events of HW-1', from: iso(T0.getTime()),
      written: [['k1', T0.getTime()], ['k2', null]], stdout: { dev: 1, ino: 2, size: 40 },
    });
    const loaded = await checkpoint.load();
    expect(loaded!.from).toBe(iso(T0.getTime()));
    expect([...loaded!.written]).toEqual([['k1', T0.getTime()], ['k2', Number.NaN]]);
  });

  it('standard output, the same file grown past the recorded length, is cut back to it (a write the kill left unrecorded)', async () => {
    const file = path.join(tempDir('fleetctl-feed-'), 'feed.checkpoint');
    const stdout = fakeStdout({ dev: 1, ino: 2, size: 40 });
    const said: string[] = [];
    const checkpoint = new FeedCheckpoint(file, 'events of HW-1', stdout, (line) => said.push(line));
    await checkpoint.save({ from: iso(T0.getTime()), written: new Map() });
    stdout.current = { dev: 1, ino: 2, size: 75 };
    await checkpoint.load();
    expect(stdout.cut).toBe(40);
    expect(said).toEqual(['Checkpoint: cut 35 byte(s) written to standard output after the last recorded event; they are written again.']);
    // another file (a new `>` target, another inode), or one emptied: left alone
    for (const other of [{ dev: 1, ino: 3, size: 99 }, { dev: 1, ino: 2, size: 0 }]) {
      stdout.cut = undefined;
      stdout.current = other;
      await checkpoint.load();
      expect(stdout.cut).toBeUndefined();
    }
  });

  it.each([
    ['not JSON', 'is not a fleetctl feed checkpoint (not JSON)'],
    [JSON.stringify({ format: 'other' }), 'is not a fleetctl feed checkpoint'],
    [JSON.stringify({ format: CHECKPOINT_FORMAT, version: 2 }), 'is of version 2; this fleetctl reads version 1'],
    [JSON.stringify({ format: CHECKPOINT_FORMAT, version: 1, feed: 'events of HW-2' }), 'is the position of "events of HW-2", not of "events of HW-1"'],
    [JSON.stringify({ format: CHECKPOINT_FORMAT, version: 1, feed: 'events of HW-1', from: 'yesterday', written: [] }), 'is damaged'],
    [JSON.stringify({ format: CHECKPOINT_FORMAT, version: 1, feed: 'events of HW-1', from: iso(0), written: [[1, 2]] }), 'is damaged'],
  ])('%s is refused, naming the file and what to do', async (text, message) => {
    const file = path.join(tempDir('fleetctl-feed-'), 'feed.checkpoint');
    writeFileSync(file, text);
    const load = new FeedCheckpoint(file, 'events of HW-1', undefined, () => {}).load();
    await expect(load).rejects.toThrow(`--checkpoint "${file}" ${message}`);
    await expect(new FeedCheckpoint(file, 'events of HW-1', undefined, () => {}).load()).rejects.toMatchObject({ hint: expect.stringContaining('give a new file') });
  });
});

describe('followFrom: --checkpoint, --max-events, --until', () => {
  it('are read with --follow', () => {
    expect(followFrom({ follow: true, checkpoint: 'feed.json', maxEvents: '10', until: '2025-06-01T13:00:00+01:00' }, T0)).toEqual({
      intervalMs: 5_000, checkpoint: 'feed.json', maxEvents: 10, until: '2025-06-01T12:00:00.000Z', pageLimit: 500,
    });
  });

  it.each([
    [{ checkpoint: 'f' }, '--checkpoint only applies with --follow'],
    [{ maxEvents: '3' }, '--max-events only applies with --follow'],
    [{ until: '1h' }, '--until only applies with --follow'],
    [{ follow: true, maxEvents: '0' }, '--max-events must be a whole number of at least 1, got "0"'],
    [{ follow: true, until: 'soon' }, '--until must be an ISO 8601 date-time'],
    [{ follow: true, checkpoint: ' ' }, '--checkpoint needs a file name'],
  ])('%j is refused', (flags, message) => {
    expect(() => followFrom(flags, T0)).toThrow(message);
  });
});
