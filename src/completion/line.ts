// The command line being completed, as the hidden command receives it: the words before the cursor and the
// start of the word under it. Only the flags that change where lookups go are read from it.
import type { GlobalOptions } from '../config/global-flags.js';

export interface CompletionLine {
  /** The start of the word under the cursor: candidates begin with it. */
  prefix: string;
  /** --profile, --base-url, --auth-url and --insecure typed earlier on the line. */
  globals: Pick<GlobalOptions, 'profile' | 'baseUrl' | 'authUrl' | 'insecure'>;
  /** --sandbox on the line: the embedded sandbox is not started for a completion. */
  sandbox: boolean;
}

const VALUE_FLAGS = { '--profile': 'profile', '--base-url': 'baseUrl', '--auth-url': 'authUrl' } as const;
type ValueFlag = keyof typeof VALUE_FLAGS;
const isValueFlag = (word: string): word is ValueFlag => Object.hasOwn(VALUE_FLAGS, word);

/**
 * Reads the words after the program name; the last one is the prefix. Both `--flag value` and `--flag=value`
 * count, and bash's split of the latter (`--flag`, `=`, `value`) too. After `--` nothing is a flag.
 */
export function readCompletionLine(words: readonly string[]): CompletionLine {
  const before = words.slice(0, -1);
  const line: CompletionLine = { prefix: words.at(-1) ?? '', globals: {}, sandbox: false };
  for (let i = 0; i < before.length; i++) {
    const word = before[i];
    if (word === '--') break;
    if (word === '--sandbox') line.sandbox = true;
    else if (word === '--insecure') line.globals.insecure = true;
    else if (isValueFlag(word)) {
      if (before[i + 1] === '=') i++;
      const value = before[i + 1];
      if (value !== undefined) line.globals[VALUE_FLAGS[word]] = value;
      i++;
    } else {
      const [flag, value] = splitAtEquals(word);
      if (value !== undefined && isValueFlag(flag)) line.globals[VALUE_FLAGS[flag]] = value;
    }
  }
  return line;
}

function splitAtEquals(word: string): [string, string | undefined] {
  const at = word.indexOf('=');
  return at < 0 ? [word, undefined] : [word.slice(0, at), word.slice(at + 1)];
}
