// Sends a bulk run's commands wave by wave (bulk/waves.ts). Before each wave after the first: with --wait, until
// every device of the wave before is back, timed out or failed; then --canary-wait or --wave-pause; then the brake,
// over everything the run sent so far. With --wait each device's report is read before its command (back is a later
// one, bulk/return-watcher.ts) and every accepted device is handed to the one ReturnWatcher. Exactly once as the
// runner is: each device is taken once, with its own key; a device not taken stays pending in the journal for
// --resume, and a resumed run keeps its waves (the devices already done are skipped, not re-planned).
import type { Clock } from '../io/clock.js';
import type { ApiClient } from '../api/client.js';
import type { RetryPolicy } from '../shared/retry.js';
import { runBulk, type BulkOutcome } from './runner.js';
import type { JournalEntry } from './journal.js';
import type { ConcurrencyBounds } from './concurrency.js';
import type { Brake, WavePlan } from './waves.js';
import type { ReportBefore, ReturnWatcher } from './return-watcher.js';
import { formatDuration } from '../shared/duration.js';

/** A target's outcome: its result (journalled) and the failure behind it, if any. */
export type TargetOutcome<R extends JournalEntry = JournalEntry> = BulkOutcome & { result: R };

export interface WaveSending<O extends TargetOutcome> {
  api: ApiClient;
  retry: RetryPolicy;
  concurrency: ConcurrencyBounds;
  /** One attempt for a target (a device command with its key, an assignment); never throws for an API or network failure. */
  task: (hardwareId: string, signal: AbortSignal) => Promise<O>;
  /** Whether a result is a success (with --wait, the device is then followed). */
  succeeded: (result: O['result']) => boolean;
  /** Every attempt of `task` carries the same Idempotency-Key: one that timed out is made again. */
  repeatable: boolean;
  /** Every target of the run, in order: the plan's waves are over them. */
  targets: string[];
  /** The targets still to send to (a resumed run has done the others). */
  toSend: ReadonlySet<string>;
  plan: WavePlan;
  /** The run's brake (a resumed run's counts what its journal has). */
  brake: Brake;
  /** With --wait: follows each accepted device until it is back; `field` is its report time. */
  watcher?: ReturnWatcher;
  reportField?: string;
  /** A resumed run: when the run last did anything (this machine's clock, ms); what is left of a pause is held. */
  lastActivityAt?: number;
  signal: AbortSignal;
  clock: Clock;
  /** Every final send outcome, as it arrives, with the report the device had before it. */
  onResult: (outcome: O, before: ReportBefore) => void;
  /** A device's command goes out (its first try). */
  onSending?: (hardwareId: string) => void;
  /** A wave begins (0 is the canary when there is one). */
  onWave?: (index: number) => void;
  /** A line for the operator (a wait or a pause begins). */
  say: (line: string) => void;
}

export interface WavesDone {
  /** Devices whose command was answered in this process. */
  sent: number;
  /** Why the brake stopped the run; undefined when every wave went out. */
  aborted?: string;
}

export class WaveSender<O extends TargetOutcome> {
  private answered = 0;
  private didSomething = false;
  private readonly before = new Map<string, ReportBefore>();
  private readonly sentOnce = new Set<string>();

  constructor(private readonly s: WaveSending<O>) {}

  async send(): Promise<WavesDone> {
    const { s } = this;
    const abort = (): WavesDone => ({ sent: this.answered, aborted: s.brake.reason(s.watcher !== undefined) });
    let offset = 0;
    let previous: string[] = [];
    let previousSent = false;
    for (const [index, size] of s.plan.sizes.entries()) {
      const wave = s.targets.slice(offset, offset + size);
      offset += size;
      const ids = wave.filter((id) => s.toSend.has(id));
      if (index > 0) await this.gate(index, previous, previousSent);
      if (s.signal.aborted) throw s.signal.reason;
      previous = wave;
      previousSent = ids.length > 0;
      // before each wave, over everything sent so far; a wave with nothing left to send sends nothing to stop
      if (ids.length === 0) continue;
      if (s.brake.tripped) return abort();
      s.onWave?.(index);
      this.didSomething = true;
      const answeredBefore = this.answered;
      await runBulk(
        s.api,
        { send: (id, signal) => this.sendOne(id, signal), hardwareIds: ids, concurrency: s.concurrency, retry: s.retry, repeatable: s.repeatable },
        { signal: s.signal, clock: s.clock, halt: () => s.brake.tripped, onResult: (outcome) => this.result(outcome) },
      );
      // the brake stopped this wave part way (devices not taken), or it stands before the next one
      const halted = this.answered - answeredBefore < ids.length;
      if (s.brake.tripped && (halted || offset < s.targets.length)) return abort();
    }
    return { sent: this.answered };
  }

  private async sendOne(hardwareId: string, signal: AbortSignal): Promise<O> {
    const { s } = this;
    // the report it has now, by its own clock, read once (a retried device keeps the first)
    if (s.watcher && s.reportField && !this.before.has(hardwareId)) {
      const { readReportBefore } = await import('./return-watcher.js');
      this.before.set(hardwareId, await readReportBefore(s.api, s.reportField, hardwareId, signal));
    }
    // the first try only: a device retried is still one device sent
    if (!this.sentOnce.has(hardwareId)) {
      this.sentOnce.add(hardwareId);
      s.onSending?.(hardwareId);
    }
    return s.task(hardwareId, signal);
  }

  private result(outcome: O): void {
    const { s } = this;
    const id = outcome.result.hardware_id;
    const accepted = s.succeeded(outcome.result);
    this.answered++;
    s.brake.answered(id, !accepted);
    const before = this.before.get(id);
    this.before.delete(id);
    this.sentOnce.delete(id);
    if (accepted) s.watcher?.watch(id, s.clock.now().getTime(), before);
    s.onResult(outcome, before);
  }

  /** Before wave `index`: the wave before back (--wait), then its pause. */
  private async gate(index: number, previous: string[], previousSent: boolean): Promise<void> {
    const { s } = this;
    const afterCanary = index === 1 && s.plan.canary;
    const waiting = s.watcher ? previous.filter((id) => s.watcher!.isWaitingFor(id)) : [];
    if (waiting.length > 0) {
      const them = waiting.length === 1 ? 'it is' : 'they are';
      s.say(
        afterCanary
          ? `Canary sent to ${previous.length} device${previous.length === 1 ? '' : 's'}: waiting until ${them} back before the waves.`
          : `Wave ${this.waveName(index - 1)} sent: waiting until its ${waiting.length} device${waiting.length === 1 ? '' : 's'} ${waiting.length === 1 ? 'is' : 'are'} back before wave ${this.waveName(index)}.`,
      );
      this.didSomething = true;
      await s.watcher!.settled(waiting);
    }
    const pauseMs = afterCanary ? s.plan.canaryPauseMs : s.plan.wavePauseMs;
    if (!pauseMs || s.signal.aborted || s.brake.tripped) return;
    // a resumed run that stopped during this pause holds what is left of it
    const left = previousSent || waiting.length > 0 ? pauseMs : !this.didSomething && s.lastActivityAt !== undefined ? pauseMs - (s.clock.now().getTime() - s.lastActivityAt) : 0;
    if (left <= 0) return;
    s.say(
      afterCanary
        ? `Canary sent to ${previous.length} device${previous.length === 1 ? '' : 's'}: pausing ${formatDuration(left)} before the waves (${s.plan.canaryPauseFlag}).`
        : `Pausing ${formatDuration(left)} before wave ${this.waveName(index)} (--wave-pause).`,
    );
    this.didSomething = true;
    await s.clock.sleep(left, s.signal);
  }

  /** "2/5", counting the canary as a wave as the progress does. */
  private waveName(index: number): string {
    return `${index + 1}/${this.s.plan.sizes.length}`;
  }
}
