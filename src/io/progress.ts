// The one progress display of long work (bulk commands, downloads): a bar, the count, the rate and the time left,
// on one line of stderr redrawn at most ten times a second, fitted to the terminal's width, and left behind with
// its final figures and a newline (a download), or cleared when the command then reports on what was done (a bulk
// run's summary, `status`). Nothing at all when stderr is not a terminal for a person (progressEnabled).
import type { IOStreams } from './streams.js';
import type { Theme } from './theme.js';
import { safeText } from '../shared/terminal-text.js';
import { formatDuration } from '../shared/duration.js';

export interface ProgressOptions {
  /** What is under way: a verb, a file name (outside text: made safe here). */
  label: string;
  /** Unknown or 0: no bar and no time left, just the count and the rate. */
  total?: number;
  unit?: 'items' | 'bytes';
  /** Milliseconds; tests pass a fake. */
  now?: () => number;
  /**
   * What stays once finished: the final figures (a download's record of what was done), or nothing (work the
   * command then reports on: a bulk run's summary, `status` counting devices).
   */
  leave?: 'figures' | 'nothing';
}

export interface Progress {
  /** `failed` is shown when given, as "N failed", whatever the count; `label` replaces the label (counts that change). */
  update(done: number, failed?: number, label?: string): void;
  /** Writes to stdout (a streamed result) so that, on the same terminal, it does not land on the progress line. */
  above(write: () => void): void;
  /** Draws the final figures, ends the line, and hands the line back (spinners may show again). */
  finish(): void;
}

export interface ProgressState {
  label: string;
  done: number;
  total?: number;
  failed?: number;
  unit: 'items' | 'bytes';
  elapsedMs: number;
  finished: boolean;
}

/** Redraws closer together than this are put off (a change is always drawn, at most this much later). */
export const REDRAW_MS = 100;
/**
 * No rate and no time left before this much has passed: a count over the first milliseconds says nothing of the
 * pace (56 devices in 3 ms read as "18666.7/s").
 */
export const RATE_AFTER_MS = 1000;
const MAX_BAR = 30;
const MIN_BAR = 10;

const silent: Progress = { update() {}, above: (write) => write(), finish() {} };

/** Starts the display at 0; string-width loads only when there is a terminal to draw on. */
export async function startProgress(io: IOStreams, opts: ProgressOptions): Promise<Progress> {
  if (!io.progressEnabled()) return silent;
  const { default: stringWidth } = await import('string-width');
  const now = opts.now ?? Date.now;
  const started = now();
  const release = io.activity.hold();
  const state: ProgressState = { label: opts.label, done: 0, total: opts.total, unit: opts.unit ?? 'items', elapsedMs: 0, finished: false };
  let drawnAt = Number.NEGATIVE_INFINITY;
  let open = true;
  // a burst of changes inside REDRAW_MS is drawn once it is over: the line never stays behind what happened
  let later: ReturnType<typeof setTimeout> | undefined;
  const draw = () => {
    if (later !== undefined) clearTimeout(later);
    later = undefined;
    drawnAt = now();
    state.elapsedMs = drawnAt - started;
    io.rewriteErrLine(progressLine(state, { columns: io.stderrColumns(), theme: io.errTheme(), width: stringWidth }));
  };
  draw();
  return {
    update(done, failed, label) {
      if (!open) return;
      if (label !== undefined) state.label = label;
      state.done = done;
      state.failed = failed;
      const complete = state.total !== undefined && state.total > 0 && done >= state.total;
      const since = now() - drawnAt;
      if (complete || since >= REDRAW_MS) draw();
      else if (later === undefined) {
        later = setTimeout(() => open && draw(), REDRAW_MS - since);
        later.unref?.();
      }
    },
    above(write) {
      // piped, stdout cannot meet the line: no redraw for every result
      if (!open || !io.stdoutIsTTY) return write();
      io.rewriteErrLine('');
      write();
      draw();
    },
    finish() {
      if (!open) return;
      open = false;
      if (later !== undefined) clearTimeout(later);
      state.finished = true;
      if (opts.leave === 'nothing') io.rewriteErrLine('');
      else {
        draw();
        io.err.write('\n');
      }
      release();
    },
  };
}

interface Part {
  plain: string;
  paint: (text: string) => string;
}

/**
 * One line that fits `columns` (the last column is left free: writing there wraps on some terminals). When it is
 * too wide, the bar shrinks, then goes, then the rate, the time, the percentage and the failures; the label is cut
 * last (the count always stays).
 */
export function progressLine(state: ProgressState, opts: { columns: number; theme: Theme; width: (text: string) => number }): string {
  const { theme, width } = opts;
  const room = Math.max(10, opts.columns - 1);
  const known = state.total !== undefined && state.total > 0;
  const share = known ? Math.min(1, state.done / state.total!) : 0;
  const label: Part = { plain: safeText(state.label), paint: theme.bold };
  const figures: Record<'percent' | 'count' | 'failed' | 'rate' | 'time', Part | undefined> = {
    percent: known ? { plain: `${Math.floor(share * 100)}%`, paint: plain } : undefined,
    count: { plain: `${amount(state.done, state.unit)}${known ? `/${amount(state.total!, state.unit)}` : ''}`, paint: plain },
    failed: state.failed === undefined ? undefined : { plain: `${state.failed} failed`, paint: state.failed > 0 ? (t: string) => theme.status('failed', t) : plain },
    rate: rateText(state),
    time: timeText(state, known),
  };
  const optional = ['rate', 'time', 'percent', 'failed'] as const;
  const parts = (): Part[] => [figures.percent, figures.count, figures.failed, figures.rate, figures.time].filter((p): p is Part => p !== undefined);
  const used = () => [label, ...parts()].reduce((sum, part) => sum + width(part.plain) + 2, -2);
  let bar = known ? Math.min(MAX_BAR, room - used() - 2) : 0;
  if (bar < MIN_BAR) bar = 0;
  for (const name of optional) if (used() > room) figures[name] = undefined;
  const over = used() - room;
  if (over > 0) label.plain = cut(label.plain, Math.max(1, width(label.plain) - over), width);
  const filled = Math.round(share * bar);
  const barPart = bar > 0 ? [`${theme.chalk.cyan('█'.repeat(filled))}${theme.dim('░'.repeat(bar - filled))}`] : [];
  return [label.paint(label.plain), ...barPart, ...parts().map((part) => part.paint(part.plain))].join('  ');
}

const plain = (text: string): string => text;

function rateText(state: ProgressState): Part | undefined {
  if (state.done === 0 || state.elapsedMs < RATE_AFTER_MS) return undefined;
  const perSecond = (state.done * 1000) / state.elapsedMs;
  return { plain: state.unit === 'bytes' ? `${formatBytes(perSecond)}/s` : `${perSecond.toFixed(1)}/s`, paint: plain };
}

/** While running, the time left at the rate so far; once finished, how long it took. */
function timeText(state: ProgressState, known: boolean): Part | undefined {
  if (state.finished) return { plain: `in ${formatDuration(state.elapsedMs)}`, paint: plain };
  if (!known || state.done === 0 || state.done >= state.total! || state.elapsedMs < RATE_AFTER_MS) return undefined;
  const leftMs = ((state.total! - state.done) * state.elapsedMs) / state.done;
  return { plain: `ETA ${formatDuration(leftMs)}`, paint: plain };
}

function amount(n: number, unit: 'items' | 'bytes'): string {
  return unit === 'bytes' ? formatBytes(n) : String(n);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GiB`;
}

/** The text cut to at most `max` columns, ending with an ellipsis; never inside a surrogate pair. */
function cut(text: string, max: number, width: (text: string) => number): string {
  if (width(text) <= max) return text;
  const chars = Array.from(text);
  while (chars.length > 0 && width(chars.join('')) + 1 > max) chars.pop();
  return `${chars.join('')}…`;
}
