// A bulk run in waves with a brake: a canary first (then a pause, or with --wait until it is back), the rest in
// waves of a given size, and a threshold of failures (or, with --wait, devices not back) past which nothing more
// is sent. Rollout and abort as AWS IoT Jobs stage them server-side, done by the client for an API that has none.
// Pure: the plan, its description, and the brake's decision; bulk/wave-run.ts acts on them.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { formatDuration } from '../io/progress.js';

/** N devices, or P% of them. */
export type Amount = { count: number } | { percent: number };

/** What the flags asked for; recorded in the journal so that --resume keeps the same plan. */
export interface WaveOptions {
  canary?: Amount;
  /** --canary-wait: how long to pause after the canary (without --wait). */
  canaryWaitMs?: number;
  wave?: Amount;
  abortIfFailed?: Amount;
}

export interface WavePlan {
  /** Devices per wave, in order; the canary, when there is one, is the first. */
  sizes: number[];
  canary: boolean;
  /** After the canary: a pause of this long, or 'back' (with --wait: until the canary is back or timed out). */
  pause?: number | 'back';
  threshold?: Amount;
  /** --wait: devices not back count against the brake. */
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
  return opts.canary !== undefined || opts.wave !== undefined || opts.abortIfFailed !== undefined;
}

/**
 * The waves over `total` devices. `canaryDone`: a resumed run that sent to some devices already has had its canary,
 * so the rest goes out in waves. `wait`: the canary's pause is until it is back.
 */
export function planWaves(total: number, opts: WaveOptions, ctx: { wait: boolean; canaryDone: boolean }): WavePlan {
  const sizes: number[] = [];
  let left = total;
  const canary = opts.canary !== undefined && !ctx.canaryDone && total > 0;
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
  const pause = canary && sizes.length > 1 ? (ctx.wait ? 'back' : opts.canaryWaitMs) : undefined;
  return { sizes, canary, pause, threshold: opts.abortIfFailed, wait: ctx.wait };
}

/** The plan in a few lines, for the confirmation prompt and --dry-run. */
export function planLines(plan: WavePlan): string[] {
  const lines: string[] = [];
  const [first, ...rest] = plan.sizes;
  if (first === undefined) return lines;
  const waves = plan.canary ? rest : plan.sizes;
  if (plan.canary) {
    const pause = plan.pause === 'back' ? `then wait until ${first === 1 ? 'it is' : 'they are'} back` : plan.pause ? `then pause ${formatDuration(plan.pause)}` : 'no pause';
    lines.push(`Canary: ${first} device${first === 1 ? '' : 's'}, ${pause}`);
  }
  if (waves.length > 0) lines.push(`Waves: ${waves.length} (${sizesText(waves)}), one after the other, no pause`);
  lines.push(
    plan.threshold === undefined
      ? 'Brake: none (no --abort-if-failed)'
      : `Brake: stop sending once ${amountText(plan.threshold)} of the devices sent so far failed${plan.wait ? ' or did not come back' : ''}`,
  );
  return lines;
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
 * The brake: counts the devices sent (answered) and those that failed or did not come back; trips once the failures
 * reach the threshold, as a count or as a share of the devices sent so far.
 */
export class Brake {
  sent = 0;
  failed = 0;

  constructor(private readonly threshold: Amount | undefined) {}

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
