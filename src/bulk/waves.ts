// A bulk run in waves with a brake: a canary first, the rest in waves of a given size, each wave held until the one
// before is back (--wait) and for --wave-pause, and a threshold of failures (or, with --wait, devices not back),
// checked before each wave, past which nothing more is sent. Rollout and abort as AWS IoT Jobs stage them server-side, done by the client for an API that has none.
// Pure: the plan, its description, and the brake's decision; bulk/wave-run.ts acts on them.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { formatDuration } from '../shared/duration.js';

/** N devices, or P% of them. */
export type Amount = { count: number } | { percent: number };

/** What the flags asked for; recorded in the journal so that --resume keeps the same plan. */
export interface WaveOptions {
  canary?: Amount;
  /** --canary-wait: how long to pause after the canary (without --wait). */
  canaryWaitMs?: number;
  wave?: Amount;
  /** --wave-pause: how long to hold between waves (with --wait: once the wave before is back). */
  wavePauseMs?: number;
  abortIfFailed?: Amount;
}

export interface WavePlan {
  /** Devices per wave over all the run's targets, in order; the canary, when there is one, is the first. */
  sizes: number[];
  canary: boolean;
  /** The hold after the canary (--canary-wait, else --wave-pause), and the flag it comes from. */
  canaryPauseMs?: number;
  canaryPauseFlag?: '--canary-wait' | '--wave-pause';
  /** The hold between the other waves (--wave-pause). */
  wavePauseMs?: number;
  threshold?: Amount;
  /** --wait: each wave goes out once every device of the one before is back, timed out or failed; and devices not back count against the brake. */
  wait: boolean;
}

/** `25`, `10%`, `2.5%`: a whole number of devices (at least 1) or a share of them above 0 and at most 100. */
export function parseAmount(value: string, flag: string): Amount {
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent) {
    const share = Number(percent[1]);
    if (share > 0 && share <= 100) return { percent: share };
  } else if (/^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text))) {
    return { count: Number(text) };
  }
  throw new UsageError(`${flag} must be a number of devices such as 20, or a share such as 5%, got ${quoteInput(value)}`);
}

export function amountText(amount: Amount): string {
  return 'count' in amount ? String(amount.count) : `${amount.percent}%`;
}

/** An amount of `total`: a share rounds up (5% of 30 is 2), so a canary or wave is never empty. */
export function resolveAmount(amount: Amount, total: number): number {
  if ('count' in amount) return Math.min(amount.count, total);
  return Math.min(total, Math.max(1, Math.ceil((amount.percent * total) / 100)));
}

export function hasWaves(opts: WaveOptions): boolean {
  return opts.canary !== undefined || opts.wave !== undefined || opts.abortIfFailed !== undefined || opts.wavePauseMs !== undefined;
}

/**
 * The waves over the run's `total` targets, in order. Always over all of them, never over what is left: a resumed
 * run keeps the waves it had (bulk/wave-run.ts skips the devices already done).
 */
export function planWaves(total: number, opts: WaveOptions, ctx: { wait: boolean }): WavePlan {
  const sizes: number[] = [];
  let left = total;
  const canary = opts.canary !== undefined && total > 0;
  if (canary) {
    const size = resolveAmount(opts.canary!, total);
    sizes.push(size);
    left -= size;
  }
  // a share is of the whole run, so waves of 10% are ten waves whatever the canary took
  const waveSize = opts.wave === undefined ? left : resolveAmount(opts.wave, total);
  while (left > 0) {
    const size = Math.min(waveSize, left);
    sizes.push(size);
    left -= size;
  }
  const canaryPauseMs = canary && sizes.length > 1 ? (opts.canaryWaitMs ?? opts.wavePauseMs) : undefined;
  const wavePauseMs = sizes.length > (canary ? 2 : 1) ? opts.wavePauseMs : undefined;
  const canaryPauseFlag = canaryPauseMs === undefined ? undefined : opts.canaryWaitMs !== undefined ? '--canary-wait' : '--wave-pause';
  return { sizes, canary, canaryPauseMs, canaryPauseFlag, wavePauseMs, threshold: opts.abortIfFailed, wait: ctx.wait };
}

/** The plan in a few lines, for the confirmation prompt and --dry-run: the waves, what gates each, and the brake. */
export function planLines(plan: WavePlan): string[] {
  const lines: string[] = [];
  const [first, ...rest] = plan.sizes;
  if (first === undefined) return lines;
  const waves = plan.canary ? rest : plan.sizes;
  if (plan.canary) {
    const them = first === 1 ? 'it is' : 'they are';
    const hold = plan.canaryPauseMs ? `pause ${formatDuration(plan.canaryPauseMs)}` : undefined;
    const gate = plan.wait ? `then wait until ${them} back${hold ? `, then ${hold}` : ''}` : hold ? `then ${hold}` : 'no pause';
    lines.push(`Canary: ${first} device${first === 1 ? '' : 's'}, ${gate}`);
  }
  if (waves.length > 0) lines.push(`Waves: ${waves.length} (${sizesText(waves)}), ${wavesGate(plan, waves.length)}`);
  lines.push(
    plan.threshold === undefined
      ? 'Brake: none (no --abort-if-failed)'
      : `Brake: before each wave, stop once ${amountText(plan.threshold)} of the devices sent so far failed${plan.wait ? ' or did not come back' : ''}`,
  );
  return lines;
}

/** What each wave waits for before it goes out. */
function wavesGate(plan: WavePlan, count: number): string {
  if (count === 1) return plan.canary ? 'after the canary' : 'all at once';
  const pause = plan.wavePauseMs ? `${formatDuration(plan.wavePauseMs)}` : undefined;
  if (plan.wait) return `each once every device of the one before is back, timed out or failed${pause ? `, then a pause of ${pause}` : ''}`;
  if (pause) return `each ${pause} after the one before was answered`;
  return 'one after the other with no pause: they only batch the sending (--wait or --wave-pause makes each wait for the one before)';
}

function sizesText(sizes: number[]): string {
  const last = sizes[sizes.length - 1]!;
  const same = sizes.slice(0, -1).every((s) => s === sizes[0]);
  if (sizes.length === 1) return `${last} device${last === 1 ? '' : 's'}`;
  if (same && last === sizes[0]) return `${sizes.length} x ${last}`;
  if (same && sizes.length > 2) return `${sizes.length - 1} x ${sizes[0]}, then ${last}`;
  return sizes.join(', ');
}

/**
 * The brake: counts the devices sent (answered) and those that failed or did not come back, each device once (by
 * its last outcome: a device retried on --resume that succeeds no longer counts as failed); trips once the failures
 * reach the threshold, as a count or as a share of the devices sent so far.
 */
export class Brake {
  private readonly sentIds = new Set<string>();
  private readonly failedIds = new Set<string>();

  constructor(private readonly threshold: Amount | undefined) {}

  get sent(): number {
    return this.sentIds.size;
  }

  get failed(): number {
    return this.failedIds.size;
  }

  /** A device's command was answered: `failed` when it was not accepted. */
  answered(hardwareId: string, failed: boolean): void {
    this.sentIds.add(hardwareId);
    if (failed) this.failedIds.add(hardwareId);
    else this.failedIds.delete(hardwareId);
  }

  /** A device accepted did not come back before --wait-timeout. */
  notBack(hardwareId: string): void {
    this.failedIds.add(hardwareId);
  }

  get tripped(): boolean {
    const t = this.threshold;
    if (t === undefined || this.failed === 0) return false;
    if ('count' in t) return this.failed >= t.count;
    return this.sent > 0 && (this.failed * 100) / this.sent >= t.percent;
  }

  /** Why it tripped, for the message: "3 of 20 devices sent so far failed or are not back (--abort-if-failed 10%)". */
  reason(wait: boolean): string {
    const what = wait ? 'failed or did not come back' : 'failed';
    return `${this.failed} of ${this.sent} device${this.sent === 1 ? '' : 's'} sent so far ${what} (--abort-if-failed ${amountText(this.threshold!)})`;
  }
}
