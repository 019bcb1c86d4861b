// What a person sees: bytes rendered by a headless terminal emulator, read back as screen lines. Runs a command
// in a real pseudo-terminal too, recording the screen as the output arrives.
import { Writable } from 'node:stream';
import { clearLine, cursorTo, moveCursor, type Direction } from 'node:readline';
import xterm from '@xterm/headless';
import pty from '@lydell/node-pty';

export interface ScreenSize {
  cols: number;
  rows: number;
}

/** A headless terminal fed with raw output; `lines()` is the screen as text, trailing blanks trimmed. */
export class Screen {
  readonly terminal: xterm.Terminal;

  constructor(size: ScreenSize) {
    // convertEol: a terminal's line discipline turns \n into \r\n; bytes captured without a pty need the same
    this.terminal = new xterm.Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true, scrollback: 1000, convertEol: true });
  }

  /** Resolves once the emulator has parsed the data. */
  write(data: string): Promise<void> {
    return new Promise((resolve) => this.terminal.write(data, resolve));
  }

  /** Every line of the buffer (scrollback included), right-trimmed, without the blank lines at the end. */
  lines(): string[] {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }

  text(): string {
    return this.lines().join('\n');
  }
}

/** Renders raw terminal output and returns the screen's lines. */
export async function renderScreen(raw: string, size: ScreenSize = { cols: 80, rows: 24 }): Promise<string[]> {
  const screen = new Screen(size);
  await screen.write(raw);
  const lines = screen.lines();
  screen.terminal.dispose();
  return lines;
}

/**
 * A writable that claims to be a terminal (isTTY, columns, the cursor methods of tty.WriteStream), keeping what
 * was written: for code that draws on stderr, rendered afterwards by a Screen.
 */
export class FakeTerminalStream extends Writable {
  readonly isTTY = true;
  raw = '';

  constructor(
    readonly columns = 80,
    readonly rows = 24,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.raw += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }

  cursorTo(x: number, y?: number | (() => void), callback?: () => void): boolean {
    return typeof y === 'number' ? cursorTo(this, x, y, callback) : cursorTo(this, x, undefined, y);
  }

  moveCursor(dx: number, dy: number, callback?: () => void): boolean {
    return moveCursor(this, dx, dy, callback);
  }

  clearLine(dir: Direction, callback?: () => void): boolean {
    return clearLine(this, dir, callback);
  }

  getColorDepth(): number {
    return 8;
  }

  hasColors(): boolean {
    return true;
  }
}

export interface PtyRun {
  exitCode: number;
  /** Every byte the program wrote to the terminal (stdout and stderr both go there). */
  raw: string;
  /** The final screen. */
  lines: string[];
  /** Screens seen while it ran, one per chunk of output, each as its lines joined by \n. */
  snapshots: string[];
}

export interface PtyOptions extends ScreenSize {
  env: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** Called with each new screen; `type` sends keys (Ctrl-C is \x03). */
  onScreen?: (screen: string, type: (keys: string) => void) => void;
}

/** Runs a program in a pseudo-terminal of the given size until it exits (killed after timeoutMs). */
export function runInPty(file: string, args: string[], opts: PtyOptions): Promise<PtyRun> {
  const screen = new Screen(opts);
  // node-pty sets TERM from `name`: take it from the environment given, so TERM=dumb can be tried
  const child = pty.spawn(file, args, { name: opts.env.TERM ?? 'xterm-256color', cols: opts.cols, rows: opts.rows, cwd: opts.cwd, env: opts.env });
  let raw = '';
  const snapshots: string[] = [];
  let parsed = Promise.resolve();
  child.onData((data) => {
    raw += data;
    parsed = parsed
      .then(() => screen.write(data))
      .then(() => {
        snapshots.push(screen.text());
        opts.onScreen?.(screen.text(), (keys) => child.write(keys));
      });
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 30_000} ms; output so far: ${JSON.stringify(raw)}`));
    }, opts.timeoutMs ?? 30_000);
    child.onExit(({ exitCode }) => {
      clearTimeout(timer);
      // the last bytes can arrive just after the exit event
      setTimeout(() => {
        void parsed.then(() => {
          const lines = screen.lines();
          screen.terminal.dispose();
          resolve({ exitCode, raw, lines, snapshots });
        });
      }, 50);
    });
  });
}
