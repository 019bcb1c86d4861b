// What `status --watch` calls a change between two rounds: a device going stale, coming back, never reported, no
// longer listed; a threshold breached or cleared; and when the report goes into breach (--on-breach runs then).
import { describe, expect, it } from 'vitest';
import { StatusChanges } from '../../../src/commands/status/status-changes.js';
import type { Freshness } from '../../../src/commands/status/device-tally.js';
import type { ThresholdVerdict } from '../../../src/commands/status/thresholds.js';

const T = (n: number) => new Date(Date.UTC(2026, 10, 27, 8, n));
const device = (n: number) => ({ id: `id-${n}`, hardware_id: `HW-${n}` });
const verdict = (breached: boolean, actual = 1): ThresholdVerdict => ({ expression: 'stale>0', actual, breached, reason: breached ? `stale is ${actual}, > 0` : null });

/** One round: each device with its freshness (report time 07:00 when it has one). */
function round(changes: StatusChanges, at: number, devices: [number, Freshness][], verdicts: ThresholdVerdict[] = []) {
  changes.beginRound(T(at));
  for (const [n, freshness] of devices) changes.observe(device(n), freshness, freshness === 'never_reported' ? undefined : Date.UTC(2026, 10, 27, 7));
  return changes.endRound(verdicts);
}

describe('status --watch changes', () => {
  it('says nothing of the devices of the first round: they are where the watch starts', () => {
    const changes = new StatusChanges();
    expect(round(changes, 0, [[1, 'stale'], [2, 'reporting'], [3, 'never_reported']]).changes).toEqual([]);
  });

  it('a device going stale, coming back, never reported, no longer listed: one change each, from and to', () => {
    const changes = new StatusChanges();
    round(changes, 0, [[1, 'stale'], [2, 'reporting'], [4, 'stale']]);
    const next = round(changes, 1, [[1, 'reporting'], [2, 'stale'], [3, 'never_reported']]);
    expect(next.changes).toEqual([
      { time: T(1).toISOString(), kind: 'device', hardware_id: 'HW-1', id: 'id-1', from: 'stale', to: 'reporting', last_report: '2026-11-27T07:00:00.000Z' },
      { time: T(1).toISOString(), kind: 'device', hardware_id: 'HW-2', id: 'id-2', from: 'reporting', to: 'stale', last_report: '2026-11-27T07:00:00.000Z' },
      { time: T(1).toISOString(), kind: 'device', hardware_id: 'HW-3', id: 'id-3', from: 'reporting', to: 'never_reported', last_report: null },
      { time: T(1).toISOString(), kind: 'device', hardware_id: 'HW-4', id: 'id-4', from: 'stale', to: 'gone', last_report: null },
    ]);
    // nothing changed: nothing said
    expect(round(changes, 2, [[1, 'reporting'], [2, 'stale'], [3, 'never_reported']]).changes).toEqual([]);
  });

  it('remembers only the devices not reporting', () => {
    const changes = new StatusChanges();
    round(changes, 0, [[1, 'stale'], [2, 'reporting'], [3, 'reporting'], [4, 'unknown']]);
    expect(changes.state()).toEqual({ devices: [['id-1', 'HW-1', 'stale'], ['id-4', 'HW-4', 'unknown']], breached: [] });
  });

  it('a threshold breached, still breached, cleared, breached again: into breach twice, a line at each turn', () => {
    const changes = new StatusChanges();
    const first = round(changes, 0, [[1, 'stale']], [verdict(true)]);
    expect(first.changes).toEqual([{ time: T(0).toISOString(), kind: 'threshold', threshold: 'stale>0', from: null, to: 'breached', actual: 1, reason: 'stale is 1, > 0' }]);
    expect(first.intoBreach).toBe(true);
    const still = round(changes, 1, [[1, 'stale']], [verdict(true)]);
    expect([still.changes, still.intoBreach]).toEqual([[], false]);
    const cleared = round(changes, 2, [[1, 'reporting']], [verdict(false, 0)]);
    expect(cleared.changes.at(-1)).toEqual({ time: T(2).toISOString(), kind: 'threshold', threshold: 'stale>0', from: 'breached', to: 'clear', actual: 0, reason: null });
    expect(cleared.intoBreach).toBe(false);
    expect(round(changes, 3, [[1, 'stale']], [verdict(true)]).intoBreach).toBe(true);
  });

  it('a clear threshold at the first round says nothing; a second threshold breaching while one is breached is no new transition', () => {
    const changes = new StatusChanges();
    const other = (breached: boolean): ThresholdVerdict => ({ expression: 'never>0', actual: breached ? 1 : 0, breached, reason: breached ? 'never_reported is 1, > 0' : null });
    expect(round(changes, 0, [], [verdict(false, 0), other(false)]).changes).toEqual([]);
    expect(round(changes, 1, [], [verdict(true), other(false)]).intoBreach).toBe(true);
    const both = round(changes, 2, [], [verdict(true), other(true)]);
    expect(both.changes.map((c) => c.kind === 'threshold' && c.threshold)).toEqual(['never>0']);
    expect(both.intoBreach).toBe(false);
  });

  it('a round cut short changes nothing: the next whole one compares with the last whole one', () => {
    const changes = new StatusChanges();
    round(changes, 0, [[1, 'stale'], [2, 'reporting']]);
    changes.beginRound(T(1));
    changes.observe(device(1), 'reporting', Date.UTC(2026, 10, 27, 8));
    changes.abandonRound();
    const next = round(changes, 2, [[1, 'reporting'], [2, 'reporting']]);
    expect(next.changes.map((c) => c.kind === 'device' && [c.hardware_id, c.from, c.to])).toEqual([['HW-1', 'stale', 'reporting']]);
  });

  it('goes on from a state kept across a restart: changes since, no second transition into a breach already run for', () => {
    const changes = new StatusChanges({ devices: [['id-1', 'HW-1', 'stale']], breached: ['stale>0'] });
    const next = round(changes, 0, [[1, 'reporting'], [2, 'stale']], [verdict(true)]);
    expect(next.changes.map((c) => c.kind === 'device' && [c.hardware_id, c.to])).toEqual([['HW-1', 'reporting'], ['HW-2', 'stale']]);
    expect(next.intoBreach).toBe(false);
  });
});
