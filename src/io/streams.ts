// IOStreams owns every terminal decision: TTY per stream, colour, whether we may prompt, spinners.
import { PassThrough, Writable, type Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { createTheme, detectedLevel, type ColorLevel, type Theme } from './theme.js';
import { safeText } from '../shared/terminal-text.js';
import { oraSpinner, SpinnerActivity, type Activity, type ShowSpinner } from './spinner.js';
import { jsonLogLine, logFormatOf, logsAsJson, type LogFields, type LogFormat, type LogLevel } from './log-lines.js';

/** What of the environment decides colour and prompts. */
export type TerminalEnv = Partial<Record<'NO_COLOR' | 'FORCE_COLOR' | 'TERM' | 'CI' | 'COLUMNS' | 'FLEETCTL_LOG_FORMAT', string>>;

export interface IOStreamsInit {
  out: Writable;
  err: Writable;
  /** Or how to get it: process.stdin is made on first use (a stream for a file, a pipe or a terminal: ~3 ms). */
  in: Readable | (() => Readable);
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  env: TerminalEnv;
  /** --no-color */
  noColor?: boolean;
  /** --no-input */
  noInput?: boolean;
  /** Terminal width for tables, when known. */
  columns?: number;
  /** Colour depth once colour is on (256 colours, true colour); basic colour when not given. */
  colorLevel?: { out: ColorLevel; err: ColorLevel };
  /** Draws the spinner of `activity` (ora on stderr unless given). */
  showSpinner?: ShowSpinner;
  /** The time of a JSON log line (tests). */
  now?: () => Date;
}

export class IOStreams {
  readonly out: Writable;
  readonly err: Writable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly columns: number | undefined;
  /** Every wait longer than a moment shows a spinner through this (see spinner.ts). */
  readonly activity: Activity;
  private readonly env: TerminalEnv;
  private input: Readable | (() => Readable);
  private readonly colorLevel: { out: ColorLevel; err: ColorLevel };
  noColor: boolean;
  noInput: boolean;
  /** --log-format (or FLEETCTL_LOG_FORMAT): json makes each stderr message one JSON object (log-lines.ts). */
  logFormat: LogFormat;
  private readonly now: () => Date;
  /**
   * stdout takes no more: its reader went away (`| head` has all it wanted) or its disk is full. Nothing more is said
   * about what was printed (a resume point would skip what never reached the disk).
   */
  outClosed = false;

  constructor(init: IOStreamsInit) {
    this.out = init.out;
    this.err = init.err;
    this.input = init.in;
    this.stdoutIsTTY = init.stdoutIsTTY;
    this.stderrIsTTY = init.stderrIsTTY;
    this.stdinIsTTY = init.stdinIsTTY;
    this.env = init.env;
    this.noColor = init.noColor ?? false;
    this.noInput = init.noInput ?? false;
    this.logFormat = logFormatOf(init.env.FLEETCTL_LOG_FORMAT);
    this.now = init.now ?? (() => new Date());
    this.columns = init.columns;
    this.colorLevel = init.colorLevel ?? { out: 1, err: 1 };
    this.activity = new SpinnerActivity({
      enabled: () => this.spinnerEnabled(),
      show: init.showSpinner ?? oraSpinner(() => this.err, () => this.errTheme()),
    });
  }

  /** Standard input: what prompts read, and what `-` names in an input flag. */
  get in(): Readable {
    if (typeof this.input === 'function') this.input = this.input();
    return this.input;
  }

  static fromProcess(env: TerminalEnv): IOStreams {
    return new IOStreams({
      out: process.stdout,
      err: process.stderr,
      in: () => process.stdin,
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      stdinIsTTY: isatty(0),
      env,
      columns: process.stdout.columns,
      colorLevel: { out: detectedLevel('out'), err: detectedLevel('err') },
    });
  }

  /**
   * Buffers instead of a terminal, for tests. The spinner draws nothing unless a test gives `showSpinner`: a slow
   * machine must not change what a test reads.
   */
  static forTest(
    /** stdin: its whole text, or a stream a test writes to as it goes. */
    opts: { tty?: boolean; stdin?: string | Readable; env?: TerminalEnv; noInput?: boolean; columns?: number; showSpinner?: ShowSpinner } = {},
  ): TestIOStreams {
    const out = new StringSink();
    const err = new StringSink();
    let input: Readable;
    if (typeof opts.stdin === 'object') input = opts.stdin;
    else {
      const text = new PassThrough();
      if (opts.stdin !== undefined) text.end(opts.stdin);
      input = text;
    }
    const tty = opts.tty ?? false;
    const io = new IOStreams({
      out,
      err,
      in: input,
      stdoutIsTTY: tty,
      stderrIsTTY: tty,
      stdinIsTTY: tty,
      env: opts.env ?? {},
      noInput: opts.noInput,
      columns: opts.columns ?? 120,
      showSpinner: opts.showSpinner ?? silentSpinner,
    }) as TestIOStreams;
    io.stdout = () => out.text;
    io.stderr = () => err.text;
    return io;
  }

  private colorAllowed(): boolean {
    return !this.noColor && !this.env.NO_COLOR && this.env.TERM !== 'dumb';
  }

  /** Colour on stdout: only on a TTY outside CI (or FORCE_COLOR), never with NO_COLOR, --no-color or TERM=dumb. */
  colorEnabled(): boolean {
    return this.colorOn(this.stdoutIsTTY);
  }

  /** Colour on stderr, judged by stderr's own TTY. */
  colorEnabledErr(): boolean {
    return this.logFormat === 'text' && this.colorOn(this.stderrIsTTY);
  }

  private colorOn(streamIsTTY: boolean): boolean {
    if (!this.colorAllowed()) return false;
    if (isForced(this.env.FORCE_COLOR)) return true;
    // a CI log viewer may emulate a terminal, but its logs are read as text
    return streamIsTTY && !this.isCI();
  }

  isCI(): boolean {
    const ci = this.env.CI;
    return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  }

  /** Prompts need a person: stdin and stdout on a terminal, not --no-input, not CI. */
  canPrompt(): boolean {
    return this.stdinIsTTY && this.stdoutIsTTY && this.stderrIsTTY && !this.noInput && !this.isCI();
  }

  /** Spinners and progress bars: stderr on a terminal, not CI, and not where colour was turned off. */
  progressEnabled(): boolean {
    return this.stderrIsTTY && !this.isCI() && this.colorAllowed() && this.logFormat === 'text';
  }

  /**
   * The spinner needs stdout on the terminal too: when stdout feeds another program (a pager, `head`), that
   * program writes to the same screen and a spinner line would be left among its output.
   */
  spinnerEnabled(): boolean {
    return this.progressEnabled() && this.stdoutIsTTY;
  }

  /**
   * The width help is laid out to: the terminal's, when the stream is on one; else COLUMNS when it is set to a
   * width (`COLUMNS=60 fleetctl devices --help | less`, as POSIX has COLUMNS name the width of the screen); else
   * undefined, for the default.
   */
  helpWidth(stream: 'out' | 'err'): number | undefined {
    if (stream === 'out' ? this.stdoutIsTTY : this.stderrIsTTY) return stream === 'out' ? this.columns : this.stderrColumns();
    const given = this.env.COLUMNS?.trim();
    return given && /^\d{1,4}$/.test(given) && Number(given) > 0 ? Number(given) : undefined;
  }

  /** Width of the terminal stderr is on (progress lines fit it), read at each call since a window can be resized. */
  stderrColumns(): number {
    const live = (this.err as Partial<NodeJS.WriteStream>).columns;
    return live && live > 0 ? live : (this.columns ?? 80);
  }

  /** Replaces the current line of stderr with `line` (a progress line): nothing of the longer line before remains. */
  rewriteErrLine(line: string): void {
    const { clearLine, cursorTo } = readline();
    cursorTo(this.err, 0);
    clearLine(this.err, 0);
    this.err.write(line);
  }

  /** Clears the terminal stdout is on and puts the cursor top left, for a view redrawn in place (--watch). */
  clearScreen(): void {
    const { clearScreenDown, cursorTo } = readline();
    cursorTo(this.out, 0, 0);
    clearScreenDown(this.out);
  }

  /** The palette for what goes to stdout (tables, diffs): plain text when colour is off there. */
  outTheme(): Theme {
    return createTheme(this.colorEnabled() ? this.colorLevel.out : 0);
  }

  /** The palette for messages on stderr. */
  errTheme(): Theme {
    return createTheme(this.colorEnabledErr() ? this.colorLevel.err : 0);
  }

  /**
   * A message for the person (never data): goes to stderr. Control characters in it are made visible, since
   * messages quote records, files and the user's own input. `fields` are members of its JSON log line only.
   */
  info(line: string, fields?: LogFields): void {
    this.say('info', line, '', fields);
  }

  /** `Warning: ...` on stderr, the label in the palette's colour. */
  warn(message: string, fields?: LogFields): void {
    this.say('warn', message, this.errTheme().warning('Warning:'), fields);
  }

  /** `Hint: ...` on stderr, dimmed: what to do next. */
  hint(message: string, fields?: LogFields): void {
    if (logsAsJson(this.logFormat)) return this.say('hint', message, '', fields);
    this.paintedInfo(this.errTheme().hint(`Hint: ${safeText(message, { newlines: true, tabs: true })}`));
  }

  /** `Error: ...` on stderr. */
  error(message: string, fields?: LogFields): void {
    this.say('error', message, this.errTheme().error('Error:'), fields);
  }

  /** A message already painted by errTheme(), whose outside text the caller made safe with safeText(). */
  paintedInfo(line: string): void {
    if (logsAsJson(this.logFormat)) return void this.err.write(jsonLogLine('info', line, undefined, this.now()));
    this.err.write(line.endsWith('\n') ? line : `${line}\n`);
  }

  /** One message: a JSON line, or its text after its painted label. */
  private say(level: LogLevel, message: string, label: string, fields: LogFields | undefined): void {
    if (logsAsJson(this.logFormat)) return void this.err.write(jsonLogLine(level, message, fields, this.now()));
    const text = safeText(message, { newlines: true, tabs: true });
    this.paintedInfo(label ? `${label} ${text}` : text);
  }
}

export interface TestIOStreams extends IOStreams {
  stdout(): string;
  stderr(): string;
}

/** Loaded at first use: `--version` has no terminal to move a cursor on. */
function readline(): typeof import('node:readline') {
  return process.getBuiltinModule('node:readline');
}

const silentSpinner: ShowSpinner = async () => ({ setText() {}, stop() {} });

function isForced(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

class StringSink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }
}
