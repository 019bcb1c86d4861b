// A span of time as the command line spells it (5s, 30m, 24h, 7d, 2w): the one reading that flags (--wait-timeout,
// --stale-after) and the selection language (seen:>2h) share; and how a span is written back (formatDuration).

export const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
export const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(s|m|h|d|w)$/;

/** The milliseconds a duration spells, or undefined when it is not one (no sign, no unit, no spaces inside). */
export function durationMs(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : undefined;
}

/** 0s, 42s, 3m05s, 2h07m: whole seconds, rounded up while something is left. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
