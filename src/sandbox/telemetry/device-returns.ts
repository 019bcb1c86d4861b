// What a command does to a device's reporting (the scenario's device_reporting, control document schema
// ScenarioDeviceReporting): a rebooted device is silent for its downtime (plus its own jitter, drawn from the seed),
// then reports again; a woken device reports within seconds; a device of never_back, once rebooted, never does.
// Lazy: nothing runs on a timer; the reports that are due are made when someone looks (settle), stamped at the
// time they were due, so a sandbox under load answers the same as an idle one.
import { prngFor } from '../common/prng.js';
import { isoString } from '../common/iso-time.js';
import type { Capability, DeviceRecord, LastReportedState } from '../common/records.js';
import type { WorldStore } from '../world-store.js';
import type { CommandLogEntry } from '../store/commands.js';
import type { ScenarioDeviceReporting } from '../scenario/scenario.js';

export const DEFAULT_REPORTING = { reboot_downtime_ms: 20_000, reboot_jitter_ms: 0, wake_up_report_ms: 2_000 } as const;

export class DeviceReturns {
  /** Device row → when it reports again (Infinity: never). Only devices with a report to come. */
  private readonly due = new Map<number, number>();
  /** Rows that stopped reporting (rebooting, or gone for good). */
  private readonly silent = new Set<number>();
  private readonly neverBack: Set<string>;
  private readonly model: Required<Omit<ScenarioDeviceReporting, 'never_back'>>;

  constructor(private readonly seed: number, reporting: ScenarioDeviceReporting | undefined) {
    const { never_back: neverBack, ...timings } = reporting ?? {};
    this.model = { ...DEFAULT_REPORTING, ...timings };
    this.neverBack = new Set(neverBack ?? []);
  }

  /** A command was executed (not replayed) at `atMs`. */
  accepted(device: DeviceRecord, command: Capability, atMs: number): void {
    const row = device.seq;
    if (command === 'wake_up') {
      // a rebooting device that is woken still comes back when its reboot is over
      if (!this.silent.has(row)) this.due.set(row, Math.min(this.due.get(row) ?? Infinity, atMs + this.model.wake_up_report_ms));
      return;
    }
    this.silent.add(row);
    if (this.neverBack.has(device.hardware_id)) {
      this.due.set(row, Infinity);
      return;
    }
    const jitter = Math.floor(prngFor(this.seed, 'reboot-jitter', device.hardware_id).next() * (this.model.reboot_jitter_ms + 1));
    this.due.set(row, atMs + this.model.reboot_downtime_ms + jitter);
  }

  /**
   * The commands of a saved log, each as it was executed: a device rebooted by an earlier run, or by another
   * process sharing the state, comes back when its downtime is over, as if this sandbox had taken the command.
   */
  replay(world: WorldStore, log: readonly CommandLogEntry[]): void {
    for (const entry of log) {
      const device = world.deviceByHardwareId(entry.hardware_id);
      if (!device) continue;
      const atMs = Date.parse(entry.executed_at);
      // whether it had come back before this command (a wake-up finds a device back from its reboot); only its
      // own return matters to it, so a long log costs one step per entry
      this.settleRow(world, device.seq, atMs);
      this.accepted(device, entry.command, atMs);
    }
  }

  /** Whether the device reports now (a moving world leaves a silent one alone). */
  isSilent(row: number): boolean {
    return this.silent.has(row);
  }

  /** Makes the reports due by `nowMs`, each at its own time. */
  settle(world: WorldStore, nowMs: number): void {
    for (const row of this.due.keys()) this.settleRow(world, row, nowMs);
  }

  private settleRow(world: WorldStore, row: number, nowMs: number): void {
    const at = this.due.get(row);
    if (at === undefined || at > nowMs) return;
    this.due.delete(row);
    this.silent.delete(row);
    reportAgain(world, row, at);
  }
}

/** The device's last state, reported anew at `atMs` (a device that never reported starts from a parked one). */
function reportAgain(world: WorldStore, row: number, atMs: number): void {
  const device = world.devices.at(row);
  const before = world.telemetry.get(device).lastReported;
  const state: LastReportedState = {
    ...(before ?? { ignition_on: false, speed_kph: 0, odometer_km: 10_000, battery_voltage: 12.6, latitude: 50, longitude: 8 }),
    hardware_id: device.hardware_id,
    reported_at: isoString(atMs),
  };
  world.telemetry.live.setState(row, state, null);
  world.devices.reported(row, atMs);
}
