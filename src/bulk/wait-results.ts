// What a bulk run tells of its devices as they go (the progress: sent, back, waiting, timed out) and at its end
// (each result with `back` or `not_back`, the summary, the exit codes of a brake and of devices not back).
import { NotBackError, WaveAbortedError } from '../errors.js';
import { isSuccess, type DeviceCommandResult } from '../api/device-commands.js';
import { formatDuration } from '../shared/duration.js';
import type { WaitOutcome } from './return-watcher.js';

const SAMPLE = 20;

/** A device's result with what --wait saw: `back` and the seconds it took, or `not_back`. */
export interface WaitedResult extends DeviceCommandResult {
  wait: 'back' | 'not_back' | null;
  back_after_s: number | null;
}

export function withWait(result: DeviceCommandResult, outcome: WaitOutcome | undefined): WaitedResult {
  if (!outcome) return { ...result, wait: null, back_after_s: null };
  return { ...result, wait: outcome.back ? 'back' : 'not_back', back_after_s: outcome.afterMs === null ? null : Math.round(outcome.afterMs / 100) / 10 };
}

/** Counts for the progress line: it changes whenever a device is sent, answered, back or timed out, and names the wave. */
export class RunTally {
  answered = 0;
  private started = 0;
  private accepted = 0;
  private failedSends = 0;
  private back = 0;
  private notBack = 0;
  private waveText = '';

  constructor(private readonly verb: string, private readonly total: number, private readonly waiting: boolean) {}

  /** A resumed run follows again devices an earlier process sent (they are sent and waiting). */
  alreadySent(count: number): void {
    this.started += count;
    this.accepted += count;
  }

  /** Wave `index` (from 0) of `count` begins. */
  wave(index: number, count: number): void {
    this.waveText = count > 1 ? ` wave ${index + 1}/${count}` : '';
  }

  /** A device's command went out. */
  sending(): void {
    this.started++;
  }

  sent(result: DeviceCommandResult): void {
    this.answered++;
    if (!isSuccess(result.status)) this.failedSends++;
    else this.accepted++;
  }

  waited(outcome: WaitOutcome): void {
    if (outcome.back) this.back++;
    else this.notBack++;
  }

  /** Devices with nothing more to come: answered, or with --wait, failed, back or timed out. */
  get settled(): number {
    return this.waiting ? this.failedSends + this.back + this.notBack : this.answered;
  }

  get failed(): number {
    return this.failedSends;
  }

  label(): string {
    const name = `${this.verb}${this.waveText}`;
    if (!this.waiting) return name;
    const waiting = this.accepted - this.back - this.notBack;
    return `${name}: ${this.started}/${this.total} sent, ${this.back} back, ${waiting} waiting, ${this.notBack} timed out`;
  }
}

/** Lines for stderr after a --wait: how many came back (and how long the slowest took), which did not. */
export function waitSummaryLines(waits: Map<string, WaitOutcome>): string[] {
  const outcomes = [...waits.values()];
  const back = outcomes.filter((o) => o.back);
  const notBack = outcomes.filter((o) => !o.back).map((o) => o.hardwareId);
  const slowest = back.reduce((max, o) => Math.max(max, o.afterMs ?? 0), 0);
  const lines = [`Back: ${back.length} of ${outcomes.length} reported again${back.length > 0 ? ` (the slowest after ${formatDuration(slowest)})` : ''}; not back: ${notBack.length}`];
  if (notBack.length > 0) {
    const more = notBack.length > SAMPLE ? `, and ${notBack.length - SAMPLE} more (all of them with -o json)` : '';
    lines.push(`  not back: ${notBack.slice(0, SAMPLE).join(', ')}${more}`);
  }
  return lines;
}

/** Exit 12 when some device did not report again in time. */
export function notBackError(waits: Map<string, WaitOutcome>): NotBackError | undefined {
  const notBack = [...waits.values()].filter((o) => !o.back).length;
  if (notBack === 0) return undefined;
  return new NotBackError(
    `${notBack} of ${waits.size} device${waits.size === 1 ? '' : 's'} did not report again before --wait-timeout`,
    'check them with fleetctl devices last-reported HW; a longer --wait-timeout waits longer',
  );
}

/** Exit 11: the brake stopped the run; it says why, how many were sent, and how to go on. */
export function abortedError(what: { verb: string; runId: string }, sent: number, total: number, reason: string, resumeHint: string): WaveAbortedError {
  return new WaveAbortedError(
    `${what.verb} run ${what.runId} stopped by its brake: ${reason}; sent to ${sent} of ${total} device${total === 1 ? '' : 's'}, nothing more was sent`,
    `once you have decided to go on, ${resumeHint}`,
  );
}
