// Spinners are for people: stderr only, only on a terminal; ora loads only when one is shown.
import type { IOStreams } from './streams.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const silent: Spinner = { update() {}, stop() {} };

export async function startSpinner(io: IOStreams, text: string): Promise<Spinner> {
  if (!io.progressEnabled()) return silent;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: io.err as NodeJS.WriteStream, color: io.colorEnabledErr() ? 'cyan' : undefined }).start();
  return {
    update(next) {
      spinner.text = next;
    },
    stop() {
      spinner.stop();
    },
  };
}
