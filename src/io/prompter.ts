// Prompts go to stderr so they never mix with data on stdout; @inquirer/prompts loads only when asked.
import { CancelledError, DeclinedError, UsageError } from '../errors.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { IOStreams } from './streams.js';

export interface PromptChoice<T> {
  value: T;
  /** The line shown in the list (already made terminal-safe and cut to the width by the caller). */
  name: string;
  /** Shown after the question once answered; the name when not given. */
  short?: string;
  /** Shown but not selectable; a string says why. */
  disabled?: boolean | string;
  /** A tick list: ticked from the start (a set the operator chose to start from). */
  checked?: boolean;
}

/** A search result: a choice, or a line of text between choices. */
export type SearchItem<T> = PromptChoice<T> | { separator: string };

/** Answers a search term ('' when the operator has typed nothing) with the items to show. */
export type SearchSource<T> = (term: string, signal: AbortSignal) => Promise<SearchItem<T>[]>;

export interface Prompter {
  input(message: string, opts?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
  /** One item from a list that follows what the operator types. A source that fails ends the prompt with its error. */
  search<T>(message: string, opts: { source: SearchSource<T>; pageSize?: number }): Promise<T>;
  /** Any number of items (at least one) from a fixed list, filtered as the operator types; ticking all is a labelled line. */
  checkbox<T>(message: string, opts: { choices: PromptChoice<T>[]; pageSize?: number }): Promise<T[]>;
  /** One item from a fixed list, moved through with the arrows; lines of text may stand between choices. */
  select<T>(message: string, opts: { choices: SearchItem<T>[]; default?: T; pageSize?: number }): Promise<T>;
}

// Keystrokes closer together than this are one search: a term is looked up once the operator pauses.
const SEARCH_PAUSE_MS = 120;

/** The prompts, loaded on first use (most commands never ask). */
const loadPrompts = () => import('./inquirer-prompts.js');

type Prompts = Awaited<ReturnType<typeof loadPrompts>>;

export function createPrompter(io: IOStreams): Prompter {
  const context = () => ({ input: io.in, output: io.err });
  // A prompt owns the terminal while it is open: no spinner may draw under it, even if a request is under way.
  const prompt = async <T>(ask: (prompts: Prompts) => Promise<T>): Promise<T> => {
    if (!io.canPrompt()) throw new UsageError('cannot prompt: input is not interactive');
    const release = io.activity.hold();
    try {
      return await asked(ask(await loadPrompts()));
    } finally {
      release();
    }
  };
  return {
    input: (message, opts) => prompt(({ input }) => input({ message, default: opts?.default, validate: opts?.validate }, context())),
    password: (message) => prompt(({ password }) => password({ message, mask: '*' }, context())),
    confirm: (message, opts) => prompt(({ confirm }) => confirm({ message, default: opts?.default ?? false }, context())),
    async search(message, opts) {
      // a failed look-up (403, network) ends the prompt: the error then reaches main.ts with its exit code,
      // where the prompt alone would only show its message and wait
      const failed = new AbortController();
      let failure: unknown;
      try {
        return await prompt(({ search, Separator }) => {
          const source = async (term: string | undefined, { signal }: { signal: AbortSignal }) => {
            if (term) await delay(SEARCH_PAUSE_MS, undefined, { signal }).catch(() => undefined);
            if (signal.aborted) return [];
            try {
              const items = await opts.source(term ?? '', signal);
              return items.map((item) => ('separator' in item ? new Separator(item.separator) : item));
            } catch (error) {
              if (signal.aborted) return [];
              failure = error;
              failed.abort();
              return [];
            }
          };
          return search({ message, source, pageSize: opts.pageSize }, { ...context(), signal: failed.signal });
        });
      } catch (error) {
        throw failure ?? error;
      }
    },
    select: (message, opts) =>
      prompt(({ select, Separator }) => {
        const choices = opts.choices.map((item) => ('separator' in item ? new Separator(item.separator) : item));
        return select({ message, choices, default: opts.default, pageSize: opts.pageSize }, context());
      }),
    // not @inquirer's checkbox: it cannot filter, and its `a`/`i` keys tick or invert every line (multi-select.ts)
    checkbox: (message, opts) =>
      prompt(async () => {
        const { multiSelect } = await import('./multi-select.js');
        return multiSelect({ message, choices: opts.choices, pageSize: opts.pageSize }, context()) as Promise<(typeof opts.choices)[number]['value'][]>;
      }),
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
  if (!confirmed) throw new DeclinedError(`${opts.refusal}: not confirmed`);
}

/**
 * The part of confirmOrRequireYes that needs no question: a verb that reads before it can ask refuses a script
 * without --yes before making any request.
 */
export function requireYesUnlessInteractive(io: IOStreams, opts: { yes: boolean | undefined; refusal: string }): void {
  if (opts.yes || io.canPrompt()) return;
  throw new UsageError(`${opts.refusal}: confirmation required`, 'pass --yes to confirm when not running interactively');
}
