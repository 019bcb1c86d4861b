// The poller behind --wait: a device is back once it reports a later time than the report it had before its command
// (by its own clock, whatever this machine's says); one not back by the timeout is not_back; polls are shared and few (about one per device once return times are known), never more
// than once a second per device; a record without the field is said once.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { MIN_POLL_MS, readReportBefore, ReturnWatcher, type WaitOutcome } from '../../src/bulk/return-watcher.js';
import { FakeClock, T0 } from '../support/fake-clock.js';
import { instantOfMs, type Instant } from '../../src/shared/rfc3339.js';


const BEFORE = new Date(T0.getTime() - 3_600_000).toISOString();
const BEFORE_MS = Date.parse(BEFORE);
const BEFORE_INSTANT = instantOfMs(BEFORE_MS);

/** Devices that report again `returnMs[id]` after they are watched (never when absent), and the polls they got. */
function fleet(clock: FakeClock, returnMs: Record<string, number>, opts: { field?: string; neverReported?: string[] } = {}) {
  const acceptedAt = new Map<string, number>();
  const polls: { id: string; at: number }[] = [];
  const reader = {
    async call(_op: string, options: { pathParams: { hardwareId: string } }) {
      const id = options.pathParams.hardwareId;
      const now = clock.now().getTime();
      polls.push({ id, at: now });
      const due = returnMs[id] === undefined || !acceptedAt.has(id) ? Infinity : acceptedAt.get(id)! + returnMs[id]!;
      if (opts.neverReported?.includes(id) && now < due) throw new ApiError({ status: 404, problem: { status: 404, code: 'device.never_reported' } });
      return { status: 200, headers: {}, body: { hardware_id: id, [opts.field ?? 'reported_at']: now >= due ? new Date(due).toISOString() : BEFORE } };
    },
  };
  return { reader: reader as never, polls, accept: (id: string) => acceptedAt.set(id, clock.now().getTime()) };
}

function watcherFor(clock: FakeClock, reader: never, timeoutMs: number, extra: { missing?: string[]; field?: string } = {}) {
  const outcomes: WaitOutcome[] = [];
  const watcher = new ReturnWatcher(reader, {
    field: extra.field ?? 'reported_at',
    timeoutMs,
    clock,
    signal: new AbortController().signal,
    onOutcome: (o) => outcomes.push(o),
    onMissingField: (id) => extra.missing?.push(id),
  });
  return { watcher, outcomes };
}

describe('ReturnWatcher', () => {
  it('back with the time from acceptance to the report; not_back at the timeout', async () => {
    const clock = new FakeClock();
    const { reader, accept, polls } = fleet(clock, { 'HW-1': 4_200 }, { neverReported: ['HW-2'] });
    const { watcher, outcomes } = watcherFor(clock, reader, 30_000);
    accept('HW-1');
    watcher.watch('HW-1', clock.now().getTime(), BEFORE_INSTANT);
    accept('HW-2');
    watcher.watch('HW-2', clock.now().getTime(), null);
    await watcher.drain();
    expect(outcomes).toEqual([
      // seen back by the poll after its report: polls grow rarer, at most an eighth of the time away later
      { hardwareId: 'HW-1', back: true, afterMs: expect.any(Number) },
      { hardwareId: 'HW-2', back: false, afterMs: null },
    ]);
    // more and more rarely: 30 s away is not 30 polls
    expect(polls.filter((p) => p.id === 'HW-2').length).toBeLessThan(22);
  });

  it('never polls a device more than once a second, and 1,000 devices cost about one poll each once returns are known', async () => {
    const clock = new FakeClock();
    const returns: Record<string, number> = { canary: 10_000 };
    const ids = Array.from({ length: 1000 }, (_, i) => `HW-${i}`);
    for (const [i, id] of ids.entries()) returns[id] = 9_000 + (i % 10) * 100;
    const { reader, accept, polls } = fleet(clock, returns);
    const { watcher, outcomes } = watcherFor(clock, reader, 60_000);
    accept('canary');
    watcher.watch('canary', clock.now().getTime(), BEFORE_INSTANT);
    await watcher.settled(['canary']);
    for (const id of ids) {
      accept(id);
      watcher.watch(id, clock.now().getTime(), BEFORE_INSTANT);
    }
    await watcher.drain();
    expect(outcomes.filter((o) => o.back)).toHaveLength(1001);
    const perDevice = new Map<string, number[]>();
    for (const p of polls) perDevice.set(p.id, [...(perDevice.get(p.id) ?? []), p.at]);
    for (const times of perDevice.values()) for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(MIN_POLL_MS);
    const fleetPolls = polls.filter((p) => p.id !== 'canary').length;
    expect(fleetPolls).toBeLessThan(1.2 * ids.length);
  });

  it('a record without the field is said once, and its devices wait until the timeout', async () => {
    const clock = new FakeClock();
    const { reader, accept } = fleet(clock, { 'HW-1': 1_000, 'HW-2': 1_000 }, { field: 'observed_at' });
    const missing: string[] = [];
    const { watcher, outcomes } = watcherFor(clock, reader, 5_000, { missing });
    for (const id of ['HW-1', 'HW-2']) {
      accept(id);
      watcher.watch(id, clock.now().getTime(), BEFORE_INSTANT);
    }
    await watcher.drain();
    expect(missing).toEqual(['HW-1']);
    expect(outcomes.map((o) => o.back)).toEqual([false, false]);
  });

  it('a nested field is followed by its dotted name', async () => {
    const clock = new FakeClock();
    const reader = { call: async () => ({ status: 200, headers: {}, body: { meta: { seen: new Date(clock.now().getTime()).toISOString() } } }) } as never;
    const { watcher, outcomes } = watcherFor(clock, reader, 5_000, { field: 'meta.seen' });
    watcher.watch('HW-1', clock.now().getTime(), undefined);
    await watcher.drain();
    expect(outcomes).toEqual([{ hardwareId: 'HW-1', back: true, afterMs: MIN_POLL_MS }]);
  });

  it('compares instants: a report 0.4 ms after the one before, written at +05:30 with six digits, is back; one at the acceptance is not', async () => {
    const clock = new FakeClock();
    const accepted = clock.now().getTime();
    // T0 is 12:00:00Z: the same instant at +05:30 is 17:30:00
    const reports: Record<string, string> = { 'HW-1': '2025-06-01T17:30:00.000400+05:30', 'HW-2': '2025-06-01T04:00:00.000000000-08:00' };
    const reader = { call: async (_op: string, o: { pathParams: { hardwareId: string } }) => ({ status: 200, headers: {}, body: { seen: reports[o.pathParams.hardwareId] } }) } as never;
    const { watcher, outcomes } = watcherFor(clock, reader, 2_000, { field: 'seen' });
    watcher.watch('HW-1', accepted, instantOfMs(accepted));
    watcher.watch('HW-2', accepted, instantOfMs(accepted));
    await watcher.drain();
    // afterMs is by this machine's clock, from the acceptance to the poll that saw it back (the first, a second on)
    expect(outcomes).toEqual([{ hardwareId: 'HW-1', back: true, afterMs: MIN_POLL_MS }, { hardwareId: 'HW-2', back: false, afterMs: null }]);
  });

  it('a device whose clock runs 40 s behind this one is back at its next report (no clock is compared with ours)', async () => {
    const clock = new FakeClock();
    const SKEW = 40_000;
    let acceptedAt = Infinity;
    const reader = {
      async call() {
        const now = clock.now().getTime();
        // by the device's clock: 40 s behind; it reported an hour ago, then again 4.2 s after the reboot
        const reported = now >= acceptedAt + 4_200 ? acceptedAt + 4_200 - SKEW : T0.getTime() - 3_600_000 - SKEW;
        return { status: 200, headers: {}, body: { reported_at: new Date(reported).toISOString() } };
      },
    } as never;
    const { watcher, outcomes } = watcherFor(clock, reader, 30_000);
    const before = await readReportBefore(reader, 'reported_at', 'HW-1', new AbortController().signal);
    expect(before).toEqual(instantOfMs(T0.getTime() - 3_600_000 - SKEW));
    acceptedAt = clock.now().getTime();
    watcher.watch('HW-1', acceptedAt, before);
    await watcher.drain();
    expect(outcomes).toMatchObject([{ hardwareId: 'HW-1', back: true }]);
    expect(outcomes[0]!.afterMs).toBeGreaterThanOrEqual(4_200);
    expect(outcomes[0]!.afterMs).toBeLessThan(6_000);
  });

  it('a report before that is not known is read at once, at the first poll, and told (a resumed run journals it)', async () => {
    const clock = new FakeClock();
    const { reader, accept, polls } = fleet(clock, { 'HW-1': 3_000 });
    const outcomes: WaitOutcome[] = [];
    const befores: [string, Instant | null][] = [];
    const watcher = new ReturnWatcher(reader, {
      field: 'reported_at', timeoutMs: 30_000, clock, signal: new AbortController().signal,
      onOutcome: (o) => outcomes.push(o),
      onBefore: (id, before) => befores.push([id, before]),
    });
    accept('HW-1');
    const at = clock.now().getTime();
    watcher.watch('HW-1', at, undefined);
    await watcher.drain();
    expect(polls[0]).toEqual({ id: 'HW-1', at });
    expect(befores).toEqual([['HW-1', BEFORE_INSTANT]]);
    expect(outcomes).toMatchObject([{ hardwareId: 'HW-1', back: true }]);
  });

  it('a device that had never reported (404 before its command) is back at its first report', async () => {
    const clock = new FakeClock();
    const { reader, accept } = fleet(clock, { 'HW-9': 2_000 }, { neverReported: ['HW-9'] });
    const before = await readReportBefore(reader, 'reported_at', 'HW-9', new AbortController().signal);
    expect(before).toBeNull();
    const { watcher, outcomes } = watcherFor(clock, reader, 30_000);
    accept('HW-9');
    watcher.watch('HW-9', clock.now().getTime(), before);
    await watcher.drain();
    expect(outcomes).toMatchObject([{ hardwareId: 'HW-9', back: true }]);
  });

  it('a report that cannot be read before (503) is left to the first poll; an interrupt is thrown', async () => {
    const unavailable = { call: async () => { throw new ApiError({ status: 503, problem: { status: 503 } }); } } as never;
    expect(await readReportBefore(unavailable, 'reported_at', 'HW-1', new AbortController().signal)).toBeUndefined();
    const stopped = new AbortController();
    stopped.abort(new Error('interrupted'));
    const cancelled = { call: async () => { throw new Error('interrupted'); } } as never;
    await expect(readReportBefore(cancelled, 'reported_at', 'HW-1', stopped.signal)).rejects.toThrow('interrupted');
  });

  it('a poll that falls due while the poller reads the clock is still made (it used to wait for ever)', async () => {
    // a clock that moves on by 1 ms each time it is read, as a busy machine's does between two readings
    const clock = new FakeClock();
    let t = clock.now().getTime();
    const ticking = { now: () => new Date(++t), sleep: async (ms: number) => void (t += ms) };
    const reader = { call: async () => ({ status: 200, headers: {}, body: { reported_at: new Date(t).toISOString() } }) } as never;
    const outcomes: WaitOutcome[] = [];
    const watcher = new ReturnWatcher(reader, { field: 'reported_at', timeoutMs: 30_000, clock: ticking, signal: new AbortController().signal, onOutcome: (o) => outcomes.push(o) });
    // its first poll is due 1 ms after the poller's first reading of the clock
    watcher.watch('HW-1', t + 2 - MIN_POLL_MS, BEFORE_INSTANT);
    await watcher.drain();
    expect(outcomes).toMatchObject([{ hardwareId: 'HW-1', back: true }]);
  });
});
