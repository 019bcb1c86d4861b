// Sends a bulk run's commands wave by wave (bulk/waves.ts): the canary, its pause (or, with --wait, until it is
// back), then the waves, each taken by the runner while the brake allows; with --wait every accepted device is
// handed to the one ReturnWatcher, and its devices not back count against the brake. Exactly once as the runner
// is: each device is taken once, with its own key; a device not taken stays pending in the journal for --resume.
import type { Clock } from '../io/clock.js';
import type { ApiClient } from '../api/client.js';
import type { RetryPolicy } from '../shared/retry.js';
import { isSuccess, type DeviceCommand, type DeviceCommandOutcome } from '../api/device-commands.js';
import { runBulk } from './runner.js';
import type { ConcurrencyBounds } from './concurrency.js';
import { Brake, type WavePlan } from './waves.js';
import type { ReturnWatcher, WaitOutcome } from './return-watcher.js';
import { formatDuration } from '../io/progress.js';

export interface WaveSending {
  api: ApiClient;
  retry: RetryPolicy;
  concurrency: ConcurrencyBounds;
  command: DeviceCommand;
  keyFor: (hardwareId: string) => string;
  /** Devices to send to, in order. */
  pending: string[];
  plan: WavePlan;
  /** With --wait: follows each accepted device until it is back. */
  watcher?: ReturnWatcher;
  signal: AbortSignal;
  clock: Clock;
  /** Every final send outcome, as it arrives. */
  onResult: (outcome: DeviceCommandOutcome) => void;
  /** A line for the operator (a pause begins). */
  say: (line: string) => void;
}

export interface WavesDone {
  /** Devices whose command was answered (sent), of `pending`. */
  sent: number;
  /** Why the brake stopped the run; undefined when every wave went out. */
  aborted?: string;
}

export class WaveSender {
  readonly brake: Brake;

  constructor(private readonly s: WaveSending) {
    this.brake = new Brake(s.plan.threshold);
  }

  /** The watcher's outcome of a device: one not back counts against the brake. */
  waited(outcome: WaitOutcome): void {
    if (!outcome.back) this.brake.failed++;
  }

  async send(): Promise<WavesDone> {
    const { s, brake } = this;
    let offset = 0;
    const abort = (): WavesDone => ({ sent: brake.sent, aborted: brake.reason(s.watcher !== undefined) });
    for (const [index, size] of s.plan.sizes.entries()) {
      if (index === 1 && s.plan.canary) await this.pause(s.pending.slice(0, offset));
      if (brake.tripped) return abort();
      const ids = s.pending.slice(offset, offset + size);
      offset += size;
      await runBulk(
        s.api,
        { command: s.command, hardwareIds: ids, keyFor: s.keyFor, concurrency: s.concurrency, retry: s.retry },
        {
          signal: s.signal,
          clock: s.clock,
          halt: () => brake.tripped,
          onResult: (outcome) => {
            brake.sent++;
            if (!isSuccess(outcome.result.status)) brake.failed++;
            else s.watcher?.watch(outcome.result.hardware_id, s.clock.now().getTime());
            s.onResult(outcome);
          },
        },
      );
      // the last wave is out: a brake tripped now stopped nothing (a device not back is said by --wait's own code)
      if (brake.tripped && (offset < s.pending.length || brake.sent < offset)) return abort();
    }
    return { sent: brake.sent };
  }

  /** After the canary: until it is back (--wait), or --canary-wait. */
  private async pause(canary: string[]): Promise<void> {
    const { s } = this;
    if (this.brake.tripped) return;
    if (s.plan.pause === 'back' && s.watcher) {
      s.say(`Canary sent to ${canary.length} device${canary.length === 1 ? '' : 's'}: waiting until ${canary.length === 1 ? 'it is' : 'they are'} back before the waves.`);
      await s.watcher.settled(canary);
    } else if (typeof s.plan.pause === 'number') {
      s.say(`Canary sent to ${canary.length} device${canary.length === 1 ? '' : 's'}: pausing ${formatDuration(s.plan.pause)} before the waves (--canary-wait).`);
      await s.clock.sleep(s.plan.pause, s.signal);
    }
  }
}
