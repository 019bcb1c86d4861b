// `fleetctl status --fail-if 'stale>5%'`: thresholds for cron and alerting. Each is a freshness count compared
// with a count or a percentage of all devices; a breached one (or one that cannot be judged) is exit 13.
import { ThresholdBreachedError, UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';

/** The freshness counts a threshold may name; `never` is short for never_reported. */
export const THRESHOLD_METRICS = ['reporting', 'stale', 'never_reported', 'unknown'] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];

const ALIASES: Record<string, ThresholdMetric> = { never: 'never_reported' };
const OPERATORS = ['>=', '<=', '!=', '==', '>', '<', '='] as const;
type Operator = (typeof OPERATORS)[number];

export interface Threshold {
  /** As typed, to name it in messages and the report. */
  expression: string;
  metric: ThresholdMetric;
  operator: Operator;
  value: number;
  percent: boolean;
}

const FORM = /^\s*([a-z_]+)\s*(>=|<=|!=|==|>|<|=)\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/;

export function parseThreshold(text: string): Threshold {
  const match = FORM.exec(text);
  const metrics = `${THRESHOLD_METRICS.join(', ')} (or never)`;
  if (!match) {
    throw new UsageError(
      `--fail-if ${quoteInput(text)} is not a threshold`,
      `write METRIC OPERATOR NUMBER[%], such as 'stale>5%', 'never>0' or 'reporting<95%'; metrics: ${metrics}; operators: ${OPERATORS.join(' ')}`,
    );
  }
  const name = match[1]!;
  const metric = ALIASES[name] ?? (THRESHOLD_METRICS as readonly string[]).find((m) => m === name);
  if (metric === undefined) throw new UsageError(`--fail-if ${quoteInput(text)} names no known metric ${quoteInput(name)}`, `metrics: ${metrics}`);
  const percent = match[4] === '%';
  const value = Number(match[3]);
  if (percent && value > 100) throw new UsageError(`--fail-if ${quoteInput(text)}: a percentage is at most 100`);
  return { expression: text.trim(), metric: metric as ThresholdMetric, operator: match[2] as Operator, value, percent };
}

/** The freshness counts of a report; undefined counts cannot be told (the report time is unknown). */
export interface FreshnessCounts {
  total: number;
  reporting?: number;
  stale?: number;
  never_reported?: number;
  unknown: number;
}

export interface ThresholdVerdict {
  expression: string;
  /** The count or percentage the threshold was compared with; null when it cannot be told. */
  actual: number | null;
  breached: boolean;
  /** Why it is breached, in words: `stale is 7.5% (3 of 40), over 5%`. */
  reason: string | null;
}

const COMPARE: Record<Operator, (a: number, b: number) => boolean> = {
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '=': (a, b) => a === b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

/**
 * A threshold judged against the counts. One that cannot be judged (the report time field is unknown, so no
 * device is known to be stale) counts as breached: a monitor must not read "cannot tell" as "healthy".
 */
export function judge(threshold: Threshold, counts: FreshnessCounts): ThresholdVerdict {
  const count = counts[threshold.metric];
  if (count === undefined) {
    return { expression: threshold.expression, actual: null, breached: true, reason: `${threshold.metric} cannot be told: the devices' report time is unknown` };
  }
  // a percentage of no devices is 0%: an empty fleet is not stale
  const actual = threshold.percent ? (counts.total === 0 ? 0 : round((count / counts.total) * 100)) : count;
  const breached = COMPARE[threshold.operator](actual, threshold.value);
  const shown = threshold.percent ? `${actual}% (${count} of ${counts.total})` : String(count);
  return {
    expression: threshold.expression,
    actual,
    breached,
    reason: breached ? `${threshold.metric} is ${shown}, ${threshold.operator} ${threshold.value}${threshold.percent ? '%' : ''}` : null,
  };
}

/** Two decimals: what a person compares with "5%". */
export function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Exit 13, naming each breached threshold and why: `status: stale>5% breached (stale is 7.5% (3 of 40), > 5%)`. */
export function breachError(breached: readonly ThresholdVerdict[]): ThresholdBreachedError {
  return new ThresholdBreachedError(`status: ${breached.map((t) => `${t.expression} breached (${t.reason})`).join('; ')}`);
}
