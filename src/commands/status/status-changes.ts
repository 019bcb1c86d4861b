// What changed between two rounds of `status --watch`: devices that went stale or came back, thresholds breached or
// cleared. Only the devices that are not reporting are remembered (a device not remembered was reporting, or was
// not listed yet), so memory follows the number of stale devices, never the number of rounds or reports. A round
// is taken whole or not at all: one cut short by a failed request changes nothing and says nothing.
import { records } from '../../records/resources.js';
import type { Freshness } from './device-tally.js';
import type { ThresholdVerdict } from './thresholds.js';

/** Where a device went: its freshness, or gone (no longer listed). */
export type DeviceState = Freshness | 'gone';

export interface DeviceChange {
  time: string;
  kind: 'device';
  hardware_id: string | null;
  id: string | null;
  from: DeviceState;
  to: DeviceState;
  /** Its last report (RFC 3339), when it has one. */
  last_report: string | null;
}

export interface ThresholdChange {
  time: string;
  kind: 'threshold';
  threshold: string;
  from: 'breached' | 'clear' | null;
  to: 'breached' | 'clear';
  actual: number | null;
  reason: string | null;
}

export type StatusChange = DeviceChange | ThresholdChange;

/** A device not reporting, as remembered between rounds: [key, hardware id, freshness]. */
export type RememberedDevice = [string, string | null, Freshness];

/** What a watch knows after a round: enough to tell the next round's changes (and to carry across a restart). */
export interface WatchState {
  devices: RememberedDevice[];
  /** The thresholds breached in the last round; null before the first. */
  breached: string[] | null;
}

export interface RoundResult {
  changes: StatusChange[];
  /** No threshold was breached before this round and one is now: --on-breach runs. */
  intoBreach: boolean;
  breached: ThresholdVerdict[];
}

export class StatusChanges {
  private remembered: Map<string, RememberedDevice>;
  private breached: Set<string> | null;
  private round: { seen: Map<string, RememberedDevice>; found: Set<string>; changes: DeviceChange[]; time: string } | undefined;

  constructor(state: WatchState = { devices: [], breached: null }) {
    this.remembered = new Map(state.devices.map((d) => [d[0], d]));
    this.breached = state.breached === null ? null : new Set(state.breached);
  }

  /** Before the first round nothing is known: its devices are where the watch starts, not changes. */
  get started(): boolean {
    return this.breached !== null;
  }

  beginRound(now: Date): void {
    this.round = { seen: new Map(), found: new Set(), changes: [], time: now.toISOString() };
  }

  /** One device of the round, as it is counted. */
  observe(device: unknown, freshness: Freshness, atMs: number | undefined): void {
    const round = this.round;
    if (!round) throw new Error('StatusChanges.observe before beginRound');
    const id = records.device.idOf(device) ?? null;
    const hardwareId = records.device.hardwareIdOf(device) ?? null;
    const key = id ?? hardwareId;
    if (key === null) return;
    round.found.add(key);
    if (freshness !== 'reporting') round.seen.set(key, [key, hardwareId, freshness]);
    const was = this.remembered.get(key)?.[2] ?? 'reporting';
    if (!this.started || was === freshness) return;
    const lastReport = atMs === undefined ? null : new Date(atMs).toISOString();
    round.changes.push({ time: round.time, kind: 'device', hardware_id: hardwareId, id, from: was, to: freshness, last_report: lastReport });
  }

  /** The round is whole: its changes, devices first, then thresholds. */
  endRound(verdicts: readonly ThresholdVerdict[]): RoundResult {
    const round = this.round;
    if (!round) throw new Error('StatusChanges.endRound before beginRound');
    this.round = undefined;
    const changes: StatusChange[] = [...round.changes];
    if (this.started) {
      for (const [key, [, hardwareId, was]] of this.remembered) {
        if (round.found.has(key)) continue;
        changes.push({ time: round.time, kind: 'device', hardware_id: hardwareId, id: hardwareId === key ? null : key, from: was, to: 'gone', last_report: null });
      }
    }
    const before = this.breached;
    const breached = verdicts.filter((v) => v.breached);
    for (const verdict of verdicts) {
      const was = before === null ? null : before.has(verdict.expression) ? 'breached' : 'clear';
      const now = verdict.breached ? 'breached' : 'clear';
      // the first round says only what is breached; a clear threshold is what is expected
      if (was === now || (was === null && now === 'clear')) continue;
      changes.push({ time: round.time, kind: 'threshold', threshold: verdict.expression, from: was, to: now, actual: verdict.actual, reason: verdict.reason });
    }
    this.remembered = round.seen;
    this.breached = new Set(breached.map((v) => v.expression));
    return { changes, intoBreach: breached.length > 0 && (before === null || before.size === 0), breached };
  }

  /** A round cut short: forgotten, the state of the last whole round stands. */
  abandonRound(): void {
    this.round = undefined;
  }

  state(): WatchState {
    return { devices: [...this.remembered.values()], breached: this.breached === null ? null : [...this.breached] };
  }

}
