// Saved selections (@NAME) looked up where they are used: a saved selection is an expression kept under a name and
// evaluated each time it is used (a dynamic group), so a device that went stale since it was saved is in it now.
import { UsageError } from '../errors.js';
import { didYouMeanSuffix } from '../shared/did-you-mean.js';
import { parseSelection, type Selection, type Term } from './grammar.js';

/** The saved expressions of the profile in use, by name. */
export type SavedSelections = Readonly<Record<string, string>>;

/** The selection with every @NAME replaced by the terms saved under it; a name unknown, or one using itself, is exit 2. */
export function lookUpSaved(selection: Selection, saved: SavedSelections, source: string, using: readonly string[] = []): Selection {
  return { terms: selection.terms.map((term) => lookUpTerm(term, saved, source, using)) };
}

function lookUpTerm(term: Term, saved: SavedSelections, source: string, using: readonly string[]): Term {
  if (term.kind !== 'saved') return term;
  if (using.includes(term.name)) {
    throw new UsageError(`${source}: saved selection @${term.name} uses itself (${[...using, term.name].map((n) => `@${n}`).join(' → ')})`, `change it with fleetctl selection save ${term.name} --where EXPR`);
  }
  const expression = Object.hasOwn(saved, term.name) ? saved[term.name] : undefined;
  if (expression === undefined) {
    const names = Object.keys(saved);
    throw new UsageError(
      `${source}: no saved selection @${term.name}${didYouMeanSuffix(term.name, names)}`,
      names.length > 0 ? 'fleetctl selection list shows the saved ones' : 'save one with fleetctl selection save NAME --where EXPR',
    );
  }
  const inner = parseSelection(expression, `saved selection @${term.name}`);
  return { kind: 'group', negated: term.negated, name: term.name, selection: lookUpSaved(inner, saved, source, [...using, term.name]) };
}
