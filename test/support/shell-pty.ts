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
  /**
   * Runs a command line and waits until it has finished, then for a fresh prompt. Keys typed while a command runs
   * reach the shell before its line editor is back (echoed raw by the terminal, or dropped when the editor starts),
   * so the next keys are only sent once the command has printed a marker after itself.
   */
  run(line: string, prompt: string, timeoutMs?: number): Promise<void>;
  /** Clears the screen and the line, then waits for a fresh prompt. */
  reset(prompt: string, timeoutMs?: number): Promise<void>;
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

  const reset: ShellPty['reset'] = async (prompt, timeoutMs = 20_000) => {
    // Ctrl-U drops what is typed; Ctrl-L clears the screen below a fresh prompt, so old lists cannot satisfy a wait.
    // Both are harmless twice: on a loaded machine the shell may still be busy with the last keys, so they are sent
    // again every few seconds until the prompt stands alone or the deadline passes.
    const fresh = (text: string) => text.trimEnd() === prompt.trimEnd();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      pty.write('\x15\x0c');
      const left = deadline - Date.now();
      try {
        await waitFor(fresh, Math.min(5_000, left));
        return;
      } catch (error) {
        if (left <= 5_000) throw error;
      }
    }
  };

  return {
    type: (keys) => pty.write(keys),
    screen,
    cursorLine: () => terminal.buffer.active.getLine(terminal.buffer.active.baseY + terminal.buffer.active.cursorY)?.translateToString(true) ?? '',
    waitFor,
    async run(line, prompt, timeoutMs = 30_000) {
      // The marker is computed by the shell, so the echo of the typed line cannot satisfy the wait.
      pty.write(`${line}; echo "done-$((6 * 7))"\r`);
      await waitFor((text) => text.split('\n').some((row) => row.trimEnd() === 'done-42'), timeoutMs);
      await reset(prompt, timeoutMs);
    },
    reset,
    close() {
      pty.kill();
      terminal.dispose();
    },
  };
}
