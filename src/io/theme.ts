// The one palette: every colour fleetctl shows comes from a Theme, built by IOStreams for the stream it paints.
import { Chalk, supportsColor, supportsColorStderr, type ChalkInstance } from 'chalk';

export type ColorLevel = 0 | 1 | 2 | 3;

/** What a status means to the person reading it. */
const STATUS_MEANING: Record<string, 'good' | 'replayed' | 'bad' | 'notable'> = {
  accepted: 'good',
  delivered: 'good',
  ok: 'good',
  enabled: 'good',
  replayed: 'replayed',
  failed: 'bad',
  error: 'bad',
  not_found: 'bad',
  refused: 'bad',
  capability_missing: 'notable',
  skipped: 'notable',
  disabled: 'notable',
};

export interface Theme {
  readonly enabled: boolean;
  /** The chalk instance behind the palette, for a library that takes one (ora's colour, a progress bar). */
  readonly chalk: ChalkInstance;
  error(text: string): string;
  warning(text: string): string;
  hint(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
  success(text: string): string;
  /** accepted/delivered green, replayed cyan, failed red, capability_missing yellow; others unchanged. */
  status(status: string, text?: string): string;
  added(text: string): string;
  removed(text: string): string;
  changed(text: string): string;
}

export function createTheme(level: ColorLevel): Theme {
  const chalk = new Chalk({ level });
  const byMeaning = {
    good: chalk.green,
    replayed: chalk.cyan,
    bad: chalk.red,
    notable: chalk.yellow,
  };
  return {
    enabled: level > 0,
    chalk,
    error: (text) => chalk.red.bold(text),
    warning: (text) => chalk.yellow(text),
    hint: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
    dim: (text) => chalk.dim(text),
    success: (text) => chalk.green(text),
    status(status, text = status) {
      const meaning = STATUS_MEANING[status];
      return meaning ? byMeaning[meaning](text) : text;
    },
    added: (text) => chalk.green(text),
    removed: (text) => chalk.red(text),
    changed: (text) => chalk.yellow(text),
  };
}

/** The depth a terminal supports (256 colours, true colour), at least basic colour once colour is on. */
export function detectedLevel(stream: 'out' | 'err'): ColorLevel {
  const found = stream === 'out' ? supportsColor : supportsColorStderr;
  return found ? (Math.max(1, found.level) as ColorLevel) : 1;
}
