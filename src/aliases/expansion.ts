// What an alias stands for, and the command line it makes of the arguments given to it. An expansion is stored as
// typed (`devices list --fleet-id $1`): split into words once, by the quoting rules of a POSIX shell, and each
// argument then put in where `$N` names it, or appended when no `$N` does. An argument is one word however it is
// made (spaces, quotes, `$2` inside it): never split again. An expansion starting with `!` is run by `sh -c`. An
// expansion may start with another alias, expanded in its turn; one that comes back to an alias of its chain loops.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';

/** `!devices list | wc -l`: run by the shell, the arguments its $1, $2, ... */
export const SHELL_PREFIX = '!';

export type ExpandedAlias = { kind: 'command'; words: string[] } | { kind: 'shell'; script: string; args: string[] };

export const isShellExpansion = (expansion: string): boolean => expansion.startsWith(SHELL_PREFIX);

/**
 * The words of an expansion, as `sh` would split them without expanding anything: single quotes keep every
 * character, double quotes and backslashes escape the next character; `$N` is kept, to be filled later.
 */
export function splitExpansion(expansion: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < expansion.length; i++) {
    const char = expansion[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && /["\\$`]/.test(expansion[i + 1] ?? '')) word += expansion[++i];
      else word += char;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      inWord = true;
      if (char === "'" || char === '"') quote = char;
      else if (char === '\\') word += expansion[++i] ?? '';
      else word += char;
    }
  }
  if (quote) throw new UsageError(`the expansion ${quoteInput(expansion)} has an unclosed ${quote}`, 'close the quote, or quote the whole expansion for your shell in single quotes');
  if (inWord) words.push(word);
  return words;
}

const PLACEHOLDER = /\$(\d+)/g;

/** The highest `$N` of the expansion (0 when none): the arguments the alias needs at least. */
export function positionalsOf(expansion: string): number {
  return Math.max(0, ...[...expansion.matchAll(PLACEHOLDER)].map((match) => Number(match[1])));
}

/**
 * The line alias `name` makes of its arguments: each `$N` replaced by the Nth argument (inside a word too:
 * `--since=$2`), the arguments no `$N` names appended in order. Fewer arguments than the highest `$N` is a usage
 * error naming the alias. A shell alias keeps its script as stored: the shell reads its arguments as $1, $2, ...
 */
export function expandAlias(name: string, expansion: string, args: readonly string[]): ExpandedAlias {
  if (isShellExpansion(expansion)) return { kind: 'shell', script: expansion.slice(SHELL_PREFIX.length), args: [...args] };
  const needed = positionalsOf(expansion);
  if (args.length < needed) {
    const named = needed === 1 ? '$1' : `$1 to $${needed}`;
    throw new UsageError(`alias ${name} needs ${needed} argument${needed === 1 ? '' : 's'} (${named}), got ${args.length}`, 'see what it expands to: fleetctl alias list');
  }
  const used = new Set<number>();
  const words = splitExpansion(expansion).map((word) =>
    word.replace(PLACEHOLDER, (_whole, digits: string) => {
      const index = Number(digits) - 1;
      if (index < 0) return _whole;
      used.add(index);
      return args[index]!;
    }),
  );
  return { kind: 'command', words: [...words, ...args.filter((_arg, index) => !used.has(index))] };
}

/**
 * The aliases a line of alias `name` goes through, `name` first: while an expansion's command (`firstWord` finds it
 * after any global flags) is another alias, that one. A chain that comes back to one of its aliases is exit 2,
 * naming it (set refuses it; a config written by hand may still hold one).
 */
export function aliasChain(name: string, aliases: Readonly<Record<string, string>>, firstWord: (words: string[]) => string | undefined): string[] {
  const chain = [name];
  for (;;) {
    const expansion = aliases[chain.at(-1)!]!;
    const next = isShellExpansion(expansion) ? undefined : firstWord(splitExpansion(expansion));
    if (next === undefined || !Object.hasOwn(aliases, next)) return chain;
    if (chain.includes(next)) {
      throw new UsageError(`alias ${next} reaches itself: ${[...chain, next].join(' → ')}`, 'fleetctl alias list shows what each expands to: change or delete one of them');
    }
    chain.push(next);
  }
}
