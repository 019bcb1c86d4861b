// What devices reported while the sandbox ran (--telemetry-rate): new events, the latest state and live
// position, per device, on top of the telemetry derived from the seed. Bounded: a device keeps its latest
// MAX_EVENTS_PER_DEVICE live events (by their time: enough for 400 s of a device reporting an event every two
// seconds, so one that arrives 5 minutes late is kept, not dropped as the oldest at once), and the world the
// MAX_LIVE_EVENTS that arrived last (about 2.4 KB each).
import type { DeviceTelemetry, EventRecord, LastReportedState, LivePosition } from '../common/records.js';

export const MAX_EVENTS_PER_DEVICE = 200;
export const MAX_LIVE_EVENTS = 100_000;

export interface LiveReport {
  /** Newest first. */
  events: EventRecord[];
  lastReported: LastReportedState | null;
  livePosition: LivePosition | null;
}

const newer = (a: EventRecord, b: EventRecord) => b.triggeredMs - a.triggeredMs || (a.event_id < b.event_id ? -1 : 1);

export class LiveStore {
  private readonly reports = new Map<number, LiveReport>();
  /** Every live event, oldest added first: [device row, event id]. */
  private readonly order: [number, string][] = [];
  private orderStart = 0;
  /** Events added since start-up (the sandbox's health reports it: what a feed must keep up with). */
  eventsAdded = 0;

  report(row: number): LiveReport | undefined {
    return this.reports.get(row);
  }

  /** A new state; kept only when it is newer than the one there (a late report does not go back in time). */
  setState(row: number, state: LastReportedState, position: LivePosition | null): void {
    const report = this.reportOf(row);
    if (!report.lastReported || report.lastReported.reported_at < state.reported_at) report.lastReported = state;
    if (position && (!report.livePosition || report.livePosition.recorded_at < position.recorded_at)) report.livePosition = position;
  }

  /** A new event, in time order among the device's own (a late one lands in the past). */
  addEvent(row: number, event: EventRecord): void {
    const events = this.reportOf(row).events;
    let at = 0;
    while (at < events.length && newer(events[at]!, event) < 0) at++;
    events.splice(at, 0, event);
    if (events.length > MAX_EVENTS_PER_DEVICE) events.pop();
    this.order.push([row, event.event_id]);
    this.eventsAdded++;
    if (this.order.length - this.orderStart > MAX_LIVE_EVENTS) this.forgetOldest();
  }

  /** The derived telemetry with what the device reported since. */
  merged(derived: DeviceTelemetry, row: number): DeviceTelemetry {
    const live = this.reports.get(row);
    if (!live) return derived;
    return {
      ...derived,
      events: live.events.length === 0 ? derived.events : mergeNewestFirst(live.events, derived.events),
      lastReported: live.lastReported ?? derived.lastReported,
      livePosition: live.livePosition ?? derived.livePosition,
    };
  }

  private reportOf(row: number): LiveReport {
    let report = this.reports.get(row);
    if (!report) {
      report = { events: [], lastReported: null, livePosition: null };
      this.reports.set(row, report);
    }
    return report;
  }

  private forgetOldest(): void {
    const [row, eventId] = this.order[this.orderStart++]!;
    const events = this.reports.get(row)?.events;
    const at = events ? events.findIndex((e) => e.event_id === eventId) : -1;
    if (at >= 0) events!.splice(at, 1);
    // drop the consumed part of the queue now and then, so it does not grow for ever
    if (this.orderStart > MAX_LIVE_EVENTS) {
      this.order.splice(0, this.orderStart);
      this.orderStart = 0;
    }
  }
}

/** Two lists each newest first, as one (a merge: an events search merges every device's on each page). */
function mergeNewestFirst(a: EventRecord[], b: EventRecord[]): EventRecord[] {
  const merged = new Array<EventRecord>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) merged[k++] = newer(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) merged[k++] = a[i++]!;
  while (j < b.length) merged[k++] = b[j++]!;
  return merged;
}
