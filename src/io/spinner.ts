// "Something is under way": one spinner on stderr for every wait a person would notice. It appears only after a
// short delay (a fast call never flashes), shows the innermost task's text, and goes away completely as soon as
// nothing is pending, something else owns the line (a progress bar, a prompt, a redrawn screen), or Ctrl-C.
import type { Writable } from 'node:stream';
import type { Theme } from './theme.js';
import { safeText } from '../shared/terminal-text.js';

/** Waits shorter than this show nothing. */
export const SPINNER_DELAY_MS = 150;

/** A running task's handle: its text can change (a retry, a page count). */
export interface ActivityTask {
  update(text: string): void;
}

export interface Activity {
  /** Runs work; if it is still pending after the delay, a spinner shows its text until it settles. */
  during<T>(text: string, work: (task: ActivityTask) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Something else owns the line from now on (no spinner at all) until the returned release is called. */
  hold(): () => void;
}

/** What the spinner library gives back once a spinner is drawn. */
export interface SpinnerView {
  setText(text: string): void;
  /** Clears the spinner's line completely and gives the cursor back. */
  stop(): void;
}

/** Draws a spinner; loaded only when one is shown. */
export type ShowSpinner = (text: string) => Promise<SpinnerView>;

/** Never shows anything: for code that runs without a person watching. */
export const noActivity: Activity = {
  during: (_text, work) => work({ update() {} }),
  hold: () => () => {},
};

interface Task {
  text: string;
}

export class SpinnerActivity implements Activity {
  private readonly tasks: Task[] = [];
  private holds = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private view: SpinnerView | undefined;
  /** Bumped whenever the spinner must go: a view still loading when it changed is stopped as soon as it arrives. */
  private generation = 0;
  /**
   * A view being loaded (the spinner library is imported on first use). Never two: a second spinner drawn while
   * the first still held the stream is the "Multiple concurrent spinners" ora warns of, on the user's terminal.
   */
  private loading = false;

  constructor(
    private readonly opts: {
      /** Asked at each wait: stderr on a terminal, colour and motion allowed. */
      enabled: () => boolean;
      show: ShowSpinner;
      delayMs?: number;
    },
  ) {}

  async during<T>(text: string, work: (task: ActivityTask) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const task: Task = { text };
    const end = () => this.end(task);
    signal?.addEventListener('abort', end, { once: true });
    this.tasks.push(task);
    this.changed();
    try {
      return await work({
        update: (next) => {
          task.text = next;
          this.view?.setText(this.text());
        },
      });
    } finally {
      signal?.removeEventListener('abort', end);
      end();
    }
  }

  hold(): () => void {
    this.holds++;
    this.changed();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.changed();
    };
  }

  private end(task: Task): void {
    const index = this.tasks.indexOf(task);
    if (index < 0) return;
    this.tasks.splice(index, 1);
    this.changed();
  }

  private text(): string {
    return safeText(this.tasks.at(-1)?.text ?? '');
  }

  /** Brings the spinner in line with the tasks and holds: scheduled, shown with the newest text, or gone. */
  private changed(): void {
    if (this.tasks.length === 0 || this.holds > 0) return this.clear();
    if (this.view) return this.view.setText(this.text());
    if (this.timer || this.loading || !this.opts.enabled()) return;
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.show(generation);
    }, this.opts.delayMs ?? SPINNER_DELAY_MS);
    // a pending spinner must never keep the process alive
    this.timer.unref?.();
  }

  private async show(generation: number): Promise<void> {
    let view: SpinnerView;
    this.loading = true;
    try {
      view = await this.opts.show(this.text());
    } catch {
      return; // a spinner is a courtesy: failing to draw one must not fail the command
    } finally {
      this.loading = false;
    }
    if (generation !== this.generation || this.tasks.length === 0 || this.holds > 0 || this.view) {
      view.stop();
      // a wait that began while this one loaded gets its own spinner, after its own delay
      this.changed();
      return;
    }
    this.view = view;
    view.setText(this.text());
  }

  private clear(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const view = this.view;
    this.view = undefined;
    view?.stop();
  }
}

/**
 * ora on the given stream, its frames painted by the palette. While it spins, ora clears its line before any
 * other write to stdout or stderr and draws itself again below it, so a trace line or a message never lands in
 * the middle of a frame.
 */
export function oraSpinner(stream: () => Writable, theme: () => Theme): ShowSpinner {
  return async (text) => {
    const { default: ora } = await import('ora');
    // discardStdin puts the terminal in raw mode but never reads a fresh stdin, so Ctrl-C would be swallowed
    // (test/e2e/spinner-pty.test.ts): the terminal stays as it is, and Ctrl-C is its own SIGINT.
    const spinner = ora({ text, stream: stream() as NodeJS.WriteStream, color: false, isEnabled: true, discardStdin: false, hideCursor: true });
    const paint = theme().chalk.cyan;
    const chosen = spinner.spinner;
    spinner.spinner = { frames: chosen.frames.map((frame) => paint(frame)), interval: chosen.interval };
    spinner.start();
    return {
      setText(next) {
        spinner.text = next;
      },
      stop: () => spinner.stop(),
    };
  };
}
