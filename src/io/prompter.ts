// Prompts go to stderr so they never mix with data on stdout; @inquirer/prompts loads only when asked.
import { CancelledError, UsageError } from '../errors.js';
import type { IOStreams } from './streams.js';

export interface Prompter {
  input(message: string, opts?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
}

export function createPrompter(io: IOStreams): Prompter {
  const context = () => ({ input: io.in, output: io.err });
  // A prompt owns the terminal while it is open: no spinner may draw under it, even if a request is under way.
  const prompt = async <T>(ask: (prompts: typeof import('@inquirer/prompts')) => Promise<T>): Promise<T> => {
    if (!io.canPrompt()) throw new UsageError('cannot prompt: input is not interactive');
    const release = io.activity.hold();
    try {
      return await asked(ask(await import('@inquirer/prompts')));
    } finally {
      release();
    }
  };
  return {
    input: (message, opts) => prompt(({ input }) => input({ message, default: opts?.default, validate: opts?.validate }, context())),
    password: (message) => prompt(({ password }) => password({ message, mask: '*' }, context())),
    confirm: (message, opts) => prompt(({ confirm }) => confirm({ message, default: opts?.default ?? false }, context())),
  };
}

/** Ctrl-C at a prompt is an interruption (exit 130), not a failure of the prompt. */
export async function asked<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError();
    throw error;
  }
}

/**
 * A disruptive action asks first on a terminal; a script must say --yes, so nothing happens by accident.
 * Throws UsageError when the action is refused or cannot be confirmed.
 */
export async function confirmOrRequireYes(
  deps: { io: IOStreams; prompter: Prompter },
  opts: { yes: boolean | undefined; question: string; refusal: string },
): Promise<void> {
  if (opts.yes) return;
  if (!deps.io.canPrompt()) {
    throw new UsageError(`${opts.refusal}: confirmation required`, 'pass --yes to confirm when not running interactively');
  }
  const confirmed = await deps.prompter.confirm(opts.question, { default: false });
  if (!confirmed) throw new UsageError(`${opts.refusal}: not confirmed`);
}
