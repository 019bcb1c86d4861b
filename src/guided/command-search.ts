// The first question of the guided mode: which command. Every verb of the tree (a group of verbs is not one),
// found by the words the operator types in its name and its description, as help shows them.
import type { Command } from 'commander';
import type { Deps } from '../factory.js';
import type { SearchItem } from '../io/prompter.js';
import { isDescribedVerb } from '../commands/shared/help.js';
import { visibleSubcommands } from '../completion/tree.js';
import { cutToWidth, displayWidth, fitToWidth } from '../output/text-width.js';
import { safeText } from '../shared/terminal-text.js';

export interface VerbEntry {
  command: Command;
  /** The words from the program to the verb: ['devices', 'reboot']. */
  path: string[];
  description: string;
}

// A name longer than this does not push every description to the right.
const MAX_NAME_WIDTH = 28;
const PAGE_SIZE = 12;

/** Every verb under the program, in the order help lists them; hidden commands stay out. */
export function verbsOf(program: Command): VerbEntry[] {
  const found: VerbEntry[] = [];
  const visit = (command: Command, path: string[]) => {
    for (const sub of visibleSubcommands(command)) {
      const words = [...path, sub.name()];
      if (isDescribedVerb(sub)) found.push({ command: sub, path: words, description: sub.description() });
      visit(sub, words);
    }
  };
  visit(program, []);
  return found;
}

/**
 * The verbs whose name and description hold every word typed (in any order, any case); those whose name holds
 * more of the words come first. Nothing typed: every verb.
 */
export function matchingVerbs(verbs: readonly VerbEntry[], term: string): VerbEntry[] {
  const words = term.toLowerCase().split(/\s+/).filter(Boolean);
  const scored = verbs
    .map((verb) => {
      const name = verb.path.join(' ').toLowerCase();
      const text = `${name} ${verb.description.toLowerCase()}`;
      return { verb, all: words.every((word) => text.includes(word)), inName: words.filter((word) => name.includes(word)).length };
    })
    .filter((entry) => entry.all);
  // a stable sort: equals keep the order of the help
  return scored.sort((a, b) => b.inName - a.inName).map((entry) => entry.verb);
}

/** The line of a verb in the list: its name in a column, its description after it, cut to the terminal's width. */
function verbLine(verb: VerbEntry, nameWidth: number, width: number): string {
  const name = verb.path.join(' ');
  const padded = displayWidth(name) >= nameWidth ? name : fitToWidth(name, nameWidth);
  return cutToWidth(`${padded}  ${safeText(verb.description)}`, width);
}

/** Asks for the command, searched as the operator types. */
export async function chooseVerb(deps: Pick<Deps, 'io' | 'prompter'>, program: Command): Promise<VerbEntry> {
  const verbs = verbsOf(program);
  const nameWidth = Math.min(MAX_NAME_WIDTH, Math.max(...verbs.map((verb) => displayWidth(verb.path.join(' ')))));
  // room for the prompt's cursor and marks
  const width = Math.max(20, (deps.io.columns ?? 80) - 3);
  const source = async (term: string): Promise<SearchItem<VerbEntry>[]> => {
    const found = matchingVerbs(verbs, term);
    if (found.length === 0) return [{ separator: `(no command has all of "${safeText(term.trim())}": fewer words?)` }];
    return found.map((verb) => ({ value: verb, name: verbLine(verb, nameWidth, width), short: verb.path.join(' ') }));
  };
  return deps.prompter.search('Command (type words of its name or what it does)', { source, pageSize: PAGE_SIZE });
}
