// A real interactive shell in a pseudo-terminal, its output rendered by a headless terminal emulator: tests type
// keys and wait (with a deadline, never a fixed sleep) for text on the screen a person would see.
import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';

export interface ShellPtyOptions {
  /** The shell and its arguments, e.g. ['bash', '--norc', '--noprofile', '-i']. */
  command: string[];
  env: Record<string, string>;
  cwd: string;
  cols?: number;
  rows?: number;
}

export interface ShellPty {
  /** Sends keys as typed: '\t' is Tab, '\r' is Enter, '\x15' is Ctrl-U. */
  type(keys: string): void;
  /** The rendered screen, one line per row, trailing blanks removed. */
  screen(): string;
  /** The row the cursor is on. */
  cursorLine(): string;
  /** Waits until the screen satisfies the test; fails with the screen as it was after `timeoutMs`. */
  waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Clears the screen and the line, then waits for a fresh prompt. */
  reset(prompt: string): Promise<void>;
  close(): void;
}

export function startShellPty(opts: ShellPtyOptions): ShellPty {
  const cols = opts.cols ?? 120;
  const rows = opts.rows ?? 40;
  const terminal = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const [file, ...args] = opts.command;
  const pty: IPty = spawn(file, args, { name: 'xterm-256color', cols, rows, cwd: opts.cwd, env: opts.env });
  const listeners = new Set<() => void>();
  pty.onData((data) => terminal.write(data, () => listeners.forEach((notify) => notify())));

  const lines = () => {
    const buffer = terminal.buffer.active;
    const out: string[] = [];
    for (let row = 0; row < rows; row++) out.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return out;
  };
  const screen = () => lines().join('\n').replace(/\n+$/, '');
  const matches = (test: string | RegExp | ((screen: string) => boolean), text: string) =>
    typeof test === 'string' ? text.includes(test) : test instanceof RegExp ? test.test(text) : test(text);

  const waitFor: ShellPty['waitFor'] = (test, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const text = screen();
        if (!matches(test, text)) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve(text);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${String(test)}; the screen:\n${screen()}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  return {
    type: (keys) => pty.write(keys),
    screen,
    cursorLine: () => terminal.buffer.active.getLine(terminal.buffer.active.baseY + terminal.buffer.active.cursorY)?.translateToString(true) ?? '',
    waitFor,
    async reset(prompt) {
      // Ctrl-U drops what is typed; Ctrl-L clears the screen below a fresh prompt, so old lists cannot satisfy a wait.
      pty.write('\x15\x0c');
      await waitFor((text) => text.trimEnd() === prompt.trimEnd());
    },
    close() {
      pty.kill();
      terminal.dispose();
    },
  };
}
