// The built CLI in a pseudo-terminal, its output drawn by a headless terminal emulator: tests type keys and read
// the screen a person would see (wrapping, cursor moves and redraws included).
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import os from 'node:os';
import { BIN } from '../e2e/harness.js';

export const KEY = { up: '\u001b[A', down: '\u001b[B', enter: '\r', space: ' ', ctrlC: '\u0003' } as const;

export interface PtyRun {
  /** Sends keystrokes as typed. */
  type(keys: string): void;
  /** The rows on screen now, trailing spaces trimmed. */
  screen(): string[];
  /** Every row drawn, scrolled-off ones included. */
  history(): string[];
  /** Rows on screen that continue the row above because it was too wide: a line that did not fit. */
  wrappedRows(): number;
  /** Resolves with the screen once a row matches; fails with the screen after the timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string[]>;
  /** The exit code once the CLI ended. */
  exit: Promise<number>;
  kill(): void;
}

export interface PtyOptions {
  env: Record<string, string>;
  cols?: number;
  rows?: number;
}

/** Runs `fleetctl ARGS` with stdin, stdout and stderr on one terminal; not CI, so it may prompt. */
export function runInPty(args: string[], opts: PtyOptions): PtyRun {
  const cols = opts.cols ?? 80;
  const rows = opts.rows ?? 30;
  const terminal = new xterm.Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), TERM: 'xterm-256color', ...opts.env };
  const child = pty.spawn(process.execPath, [BIN, ...args], { name: 'xterm-256color', cols, rows, env });
  let pending = 0;
  let lastDataAt = Date.now();
  child.onData((data) => {
    pending++;
    lastDataAt = Date.now();
    terminal.write(data, () => pending--);
  });
  // The pty may report the exit before it has handed over what the process wrote last (an error line, the JSON a
  // command prints as it ends): the exit is known once the output has gone quiet and the terminal has drawn it.
  const exit = new Promise<number>((resolve) => child.onExit(({ exitCode }) => void settled().then(() => resolve(exitCode))));
  const settled = async () => {
    const givingUpAt = Date.now() + 2_000;
    while ((pending > 0 || Date.now() - lastDataAt < 150) && Date.now() < givingUpAt) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  const rowsOf = (from: number, to: number) => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let y = from; y < to; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines;
  };
  const screen = () => rowsOf(terminal.buffer.active.baseY, terminal.buffer.active.baseY + rows);
  return {
    type: (keys) => child.write(keys),
    screen,
    history: () => rowsOf(0, terminal.buffer.active.length),
    wrappedRows() {
      const buffer = terminal.buffer.active;
      let wrapped = 0;
      for (let y = buffer.baseY; y < buffer.baseY + rows; y++) if (buffer.getLine(y)?.isWrapped) wrapped++;
      return wrapped;
    },
    async waitFor(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (pending === 0 && screen().some((row) => pattern.test(row))) return screen();
        if (Date.now() > deadline) throw new Error(`no row matched ${pattern} within ${timeoutMs} ms; the screen:\n${screen().join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    exit,
    kill: () => child.kill(),
  };
}
