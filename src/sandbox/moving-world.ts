// A world that moves (--telemetry-rate N): N times a second a device reports, at its own wire time: a new
// last-reported state, a live position (for devices that have one) and now and then a telematics event. One
// report in ten arrives late, stamped up to five minutes back: its event lands in the past of the lists and
// its state does not replace a newer one. Subscribers hear of them as live.gps and event.generic webhooks.
// Devices that never reported stay silent, so the seeded examples (HW-000006) keep their meaning; at most the
// first MAX_MOVING_DEVICES devices move, which keeps the memory of a long run bounded (store/live-store.ts).
import { prngFor, type Prng } from './common/prng.js';
import { makeEvent, nearTo, round } from './seed/telemetry.js';
import { eventGeneric } from './webhooks/event-source.js';
import { isoString } from './common/iso-time.js';
import type { SandboxApp } from './app.js';
import type { DeviceRecord, EventRecord, LastReportedState, LivePosition } from './common/records.js';

export const MAX_MOVING_DEVICES = 10_000;
const LATE_SHARE = 0.1;
const EVENT_SHARE = 0.25;
/** A tick makes up for at most a second of reports (a thousand at least): after a long pause (a laptop asleep), no burst. */
const MIN_REPORTS_PER_TICK_CAP = 1000;

export interface DeviceReport {
  hardwareId: string;
  wireMs: number;
  late: boolean;
  state: LastReportedState;
  position: LivePosition | null;
  event: EventRecord | null;
}

export class MovingWorld {
  private readonly rng: Prng;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly app: SandboxApp, private readonly ratePerSecond: number) {
    this.rng = prngFor(app.seed, 'moving-world');
  }

  start(): void {
    if (this.ratePerSecond <= 0 || this.timer) return;
    const intervalMs = Math.max(20, 1000 / this.ratePerSecond);
    let due = 0;
    let lastTick = performance.now();
    // reports due by the time elapsed, not by the ticks counted: a tick that comes late (the event loop busy
    // answering requests) makes up for the time it missed, so the world keeps its rate under load
    this.timer = setInterval(() => {
      const now = performance.now();
      due = Math.min(due + (this.ratePerSecond * (now - lastTick)) / 1000, Math.max(MIN_REPORTS_PER_TICK_CAP, this.ratePerSecond));
      lastTick = now;
      for (; due >= 1; due--) this.report();
    }, intervalMs);
    this.timer.unref();
    this.app.log(`sandbox: ${this.ratePerSecond} device report(s) per second (--telemetry-rate), some late`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One device reports now; null when no device of the moving part of the world ever reported. */
  report(): DeviceReport | null {
    const { world } = this.app;
    const row = this.pickDevice();
    // a device rebooting (or gone for good after a reboot) reports nothing
    if (row < 0 || this.app.returns.isSilent(row)) return null;
    const device = world.devices.at(row);
    const rng = this.rng;
    const late = rng.chance(LATE_SHARE);
    const wireMs = this.app.now().getTime() - (late ? rng.int(30_000, 300_000) : rng.int(0, 2_000));
    const { state, position } = this.nextState(device, wireMs);
    world.telemetry.live.setState(row, state, position);
    world.devices.reported(row, wireMs);
    if (position) {
      this.app.hooks.eventEmitted({
        type: 'live.gps', organizationId: device.organization_id, hardwareId: device.hardware_id, time: position.recorded_at,
        record: {
          hardwareId: device.hardware_id, latitude: position.latitude, longitude: position.longitude, heading: position.heading,
          speed: position.speed_kph, utc: position.recorded_at, invalidGps: !position.is_valid_gps,
        },
      });
    }
    const event = rng.chance(EVENT_SHARE) ? this.newEvent(device, wireMs, state) : null;
    return { hardwareId: device.hardware_id, wireMs, late, state, position, event };
  }

  /** A device of the moving part that has reported before (a few draws; null when there seems to be none). */
  private pickDevice(): number {
    const devices = this.app.world.devices;
    const movers = Math.min(devices.size, MAX_MOVING_DEVICES);
    for (let tries = 0; tries < 32 && movers > 0; tries++) {
      const row = this.rng.int(0, movers - 1);
      if (!Number.isNaN(devices.lastSeenMs(row))) return row;
    }
    return -1;
  }

  /** A step from where the device was, at wire time. */
  private nextState(device: DeviceRecord, wireMs: number): { state: LastReportedState; position: LivePosition | null } {
    const rng = this.rng;
    const before = this.app.world.telemetry.get(device);
    const from = before.livePosition ?? before.lastReported;
    const { latitude, longitude } = nearTo(rng, from?.latitude ?? 50, from?.longitude ?? 8)(0.002);
    const speed = rng.int(0, 110);
    const at = isoString(wireMs);
    const state: LastReportedState = {
      hardware_id: device.hardware_id,
      reported_at: at,
      ignition_on: speed > 0 || rng.chance(0.3),
      speed_kph: speed,
      odometer_km: (before.lastReported?.odometer_km ?? 10_000) + rng.int(0, 2),
      battery_voltage: round(12 + rng.next() * 2.2, 2),
      latitude,
      longitude,
    };
    const position: LivePosition | null = device.hasLivePosition
      ? { hardware_id: device.hardware_id, latitude, longitude, heading: rng.int(0, 359), speed_kph: speed, recorded_at: at, is_valid_gps: rng.chance(0.97) }
      : null;
    return { state, position };
  }

  private newEvent(device: DeviceRecord, wireMs: number, at: { latitude: number; longitude: number }): EventRecord {
    const event = makeEvent(this.rng, device, wireMs, nearTo(this.rng, at.latitude, at.longitude));
    this.app.world.telemetry.live.addEvent(device.seq, event);
    const { data } = eventGeneric(event);
    this.app.hooks.eventEmitted({ type: 'event.generic', organizationId: event.organization_id, hardwareId: event.hardware_id, time: event.triggered_at, record: data });
    return event;
  }
}
