// The built CLI in a real pseudo-terminal, its output rendered by a headless terminal of the same size: tests
// assert what a person would see (the screen, colours per cell) and answer prompts by keystrokes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import type { IBufferCell, Terminal as HeadlessTerminal } from '@xterm/headless';
import { BIN, ROOT, type SandboxHarness } from '../e2e/harness.js';
import { tempConfigDir } from './cli.js';

/** Generous: two cores shared with other jobs can make a Node start-up take seconds. */
export const PTY_WAIT_MS = 15_000;

const KEYS = {
  Enter: '\r',
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  Space: ' ',
  Tab: '\t',
  'Shift-Tab': '\x1b[Z',
  Backspace: '\x7f',
  Escape: '\x1b',
  'Ctrl-C': '\x03',
  'Ctrl-D': '\x04',
} as const;

export type KeyName = keyof typeof KEYS;

export interface PtyOptions {
  cols?: number;
  rows?: number;
  /** The CLI talks to this sandbox, as `client` (default sandbox-admin). */
  sandbox?: SandboxHarness;
  client?: string;
  /**
   * Over the defaults (PATH, HOME, TERM=xterm-256color, a fresh FLEETCTL_CONFIG_DIR and the sandbox's variables);
   * undefined removes one (except TERM: a pseudo-terminal always names its type). Nothing else is inherited from the
   * test process: CI, NO_COLOR, FORCE_COLOR are absent unless given here.
   */
  env?: Record<string, string | undefined>;
}

export interface CellStyle {
  char: string;
  /** 'default', a palette index (0-255: 1 red, 2 green, 3 yellow, 6 cyan, 9 bright red ...) or '#rrggbb'. */
  fg: 'default' | number | `#${string}`;
  bold: boolean;
  dim: boolean;
}

export interface RenderedLine {
  text: string;
  /** The terminal wrapped the previous line onto this one: it was wider than the terminal. */
  wrapped: boolean;
}

export interface PtyExit {
  code: number;
  /** The signal number that ended the process, if one did. */
  signal: number | undefined;
}

export interface PtySession {
  readonly cols: number;
  readonly rows: number;
  readonly pid: number;
  readonly configDir: string;
  /** The visible rows, trailing spaces and trailing empty rows dropped. */
  screen(): string[];
  /** Every line written so far (scrollback and screen), with whether the terminal wrapped it. */
  lines(): RenderedLine[];
  /** The cells of a visible row, as screen() numbers them. */
  cells(row: number): CellStyle[];
  /** The cells of the first visible occurrence of text (throws when it is not on the screen). */
  styleOf(text: string): CellStyle[];
  /** Everything the process wrote, escape sequences included. */
  raw(): string;
  /** Resolves once the visible screen matches, after output so far is rendered; rejects with the screen on timeout. */
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  press(...keys: KeyName[]): void;
  type(text: string): void;
  /** Resolves when the process has ended and all its output is rendered. */
  readonly exit: Promise<PtyExit>;
  /** Like exit, but rejects with the screen when the process outlives timeoutMs. */
  waitForExit(timeoutMs?: number): Promise<PtyExit>;
  /** Ends the process and its process group (SIGKILL when SIGTERM is not enough); idempotent. */
  close(): Promise<void>;
}

/** Process groups still running, killed when the worker exits however the tests ended. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) killGroup(pid, 'SIGKILL');
});

/**
 * Starts `fleetctl ...args` in a pseudo-terminal. Call it inside a test: the process is ended and its config
 * directory removed when the test finishes, passed or failed.
 */
export function startPty(args: string[], opts: PtyOptions = {}): PtySession {
  if (!existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/ is missing: run `npm run build` before the terminal tests');
  const cols = opts.cols ?? 80;
  const rows = opts.rows ?? 24;
  const configDir = tempConfigDir();
  const env = childEnv(configDir, opts);
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
  const child = spawn(process.execPath, [BIN, ...args], { name: env.TERM ?? 'xterm-256color', cols, rows, cwd: configDir, env });
  live.add(child.pid);
  let raw = '';
  let rendered = Promise.resolve();
  let lastDataAt = Date.now();
  child.onData((data) => {
    raw += data;
    lastDataAt = Date.now();
    rendered = rendered.then(() => new Promise<void>((resolve) => term.write(data, resolve)));
  });
  const exit = new Promise<PtyExit>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      live.delete(child.pid);
      // the exit may be reported before the last of the output is read: known once the output has gone quiet
      void quiet(() => lastDataAt).then(() => rendered).then(() => resolve({ code: exitCode, signal: signal || undefined }));
    });
  });
  const session = newSession(term, child, { cols, rows, configDir, exit, raw: () => raw, rendered: () => rendered });
  onTestFinished(() => session.close());
  return session;
}

function childEnv(configDir: string, opts: PtyOptions): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '',
    HOME: configDir,
    TERM: 'xterm-256color',
    ...opts.sandbox?.envFor(opts.client),
    FLEETCTL_CONFIG_DIR: configDir,
    ...opts.env,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

interface SessionParts {
  cols: number;
  rows: number;
  configDir: string;
  exit: Promise<PtyExit>;
  raw: () => string;
  rendered: () => Promise<void>;
}

function newSession(term: HeadlessTerminal, child: IPty, parts: SessionParts): PtySession {
  let closed: Promise<void> | undefined;
  const screen = () => visibleRows(term);
  const session: PtySession = {
    cols: parts.cols,
    rows: parts.rows,
    pid: child.pid,
    configDir: parts.configDir,
    exit: parts.exit,
    screen,
    lines: () => allLines(term),
    cells: (row) => rowCells(term, row),
    styleOf(text) {
      const row = screen().findIndex((line) => line.includes(text));
      if (row < 0) throw new Error(`"${text}" is not on the screen:\n${framed(screen())}`);
      const start = cellIndexOf(rowCells(term, row), text);
      return rowCells(term, row).slice(start, start + [...text].length);
    },
    raw: parts.raw,
    async waitForText(text, timeoutMs = PTY_WAIT_MS) {
      const matches = () => {
        const shown = screen().join('\n');
        return typeof text === 'string' ? shown.includes(text) : text.test(shown);
      };
      await until(async () => {
        await parts.rendered();
        return matches();
      }, timeoutMs, () => `timed out after ${timeoutMs} ms waiting for ${String(text)} on the screen:\n${framed(screen())}`);
    },
    press: (...keys) => child.write(keys.map((key) => KEYS[key]).join('')),
    type: (text) => child.write(text),
    async waitForExit(timeoutMs = PTY_WAIT_MS) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms; the screen:\n${framed(screen())}`)), timeoutMs);
      });
      try {
        return await Promise.race([parts.exit, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      closed ??= stop(child, parts.exit).finally(() => term.dispose());
      return closed;
    },
  };
  return session;
}

async function stop(child: IPty, exit: Promise<PtyExit>): Promise<void> {
  if (!live.has(child.pid)) return;
  killGroup(child.pid, 'SIGTERM');
  const ended = await Promise.race([exit.then(() => true), delay(3_000).then(() => false)]);
  if (!ended) killGroup(child.pid, 'SIGKILL');
  await Promise.race([exit, delay(3_000)]);
  live.delete(child.pid);
}

/** The child leads its own session (the pty's), so the negative pid reaches anything it started too. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function visibleRows(term: HeadlessTerminal): string[] {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = buffer.viewportY; y < buffer.viewportY + term.rows; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
  return withoutTrailingEmpty(rows);
}

function allLines(term: HeadlessTerminal): RenderedLine[] {
  const buffer = term.buffer.active;
  const lines: RenderedLine[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    lines.push({ text: line?.translateToString(true) ?? '', wrapped: line?.isWrapped ?? false });
  }
  while (lines.length > 0 && lines[lines.length - 1]!.text === '') lines.pop();
  return lines;
}

function rowCells(term: HeadlessTerminal, row: number): CellStyle[] {
  const buffer = term.buffer.active;
  const line = buffer.getLine(buffer.viewportY + row);
  const cells: CellStyle[] = [];
  if (!line) return cells;
  const cell = buffer.getNullCell();
  for (let x = 0; x < line.length; x++) {
    line.getCell(x, cell);
    // the second half of a wide character has no character of its own
    if (cell.getWidth() === 0) continue;
    cells.push(styleOfCell(cell));
  }
  return cells;
}

function styleOfCell(cell: IBufferCell): CellStyle {
  const color = cell.getFgColor();
  const fg: CellStyle['fg'] = cell.isFgDefault() ? 'default' : cell.isFgRGB() ? `#${color.toString(16).padStart(6, '0')}` : color;
  return { char: cell.getChars() || ' ', fg, bold: cell.isBold() !== 0, dim: cell.isDim() !== 0 };
}

function cellIndexOf(cells: CellStyle[], text: string): number {
  const chars = [...text];
  return cells.findIndex((_, i) => chars.every((c, j) => cells[i + j]?.char === c));
}

function withoutTrailingEmpty(rows: string[]): string[] {
  const out = [...rows];
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

function framed(rows: string[]): string {
  return rows.map((row) => `|${row}`).join('\n');
}

async function until(check: () => Promise<boolean>, timeoutMs: number, message: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message());
    await delay(25);
  }
}

/** Resolves once no output has come for 150 ms, or after 2 s whatever comes. */
async function quiet(lastDataAt: () => number): Promise<void> {
  const givingUpAt = Date.now() + 2_000;
  while (Date.now() - lastDataAt() < 150 && Date.now() < givingUpAt) await delay(25);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
