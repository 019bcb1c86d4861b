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
  const ensure = () => {
    if (!io.canPrompt()) throw new UsageError('cannot prompt: input is not interactive');
  };
  return {
    async input(message, opts) {
      ensure();
      const { input } = await import('@inquirer/prompts');
      return asked(input({ message, default: opts?.default, validate: opts?.validate }, context()));
    },
    async password(message) {
      ensure();
      const { password } = await import('@inquirer/prompts');
      return asked(password({ message, mask: '*' }, context()));
    },
    async confirm(message, opts) {
      ensure();
      const { confirm } = await import('@inquirer/prompts');
      return asked(confirm({ message, default: opts?.default ?? false }, context()));
    },
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
  requireYesUnlessInteractive(deps.io, opts);
  const confirmed = await deps.prompter.confirm(opts.question, { default: false });
  if (!confirmed) throw new UsageError(`${opts.refusal}: not confirmed`);
}

/**
 * The part of confirmOrRequireYes that needs no question: a verb that reads before it can ask refuses a script
 * without --yes before making any request.
 */
export function requireYesUnlessInteractive(io: IOStreams, opts: { yes: boolean | undefined; refusal: string }): void {
  if (opts.yes || io.canPrompt()) return;
  throw new UsageError(`${opts.refusal}: confirmation required`, 'pass --yes to confirm when not running interactively');
}
