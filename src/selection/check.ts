// An expression checked before any request: each qualifier is one fleetctl knows or a member the records carry,
// and each takes the values it can compare. A mistake is exit 2 naming the term, with the names it may have meant.
import { UsageError } from '../errors.js';
import { didYouMeanSuffix } from '../shared/did-you-mean.js';
import { durationMs } from '../shared/duration.js';
import { quoteInput } from '../shared/terminal-text.js';
import { KEYWORDS, printTerm, type Comparison, type Selection, type Term } from './grammar.js';

/** The qualifiers of the language itself; any other name before a colon is a member of the device records. */
export const QUALIFIERS = ['fleet', 'org', 'has', 'seen'] as const;

const TAKES: Record<(typeof QUALIFIERS)[number], string> = {
  fleet: 'fleet names or ids, separated by commas (fleet:North,South)',
  org: 'organization names or ids, separated by commas (org:Acme)',
  has: 'capability names, separated by commas (has:reboot,wake_up)',
  seen: 'a time since the last report with >, >=, <, <= or a range (seen:>2h, seen:<10m, seen:1h..1d)',
};

/**
 * Refuses what cannot be evaluated. `members` are the device record's members (dotted when nested) as the document
 * in use declares them or the records carry them; undefined when neither says yet, and then members are not checked.
 */
export function checkSelection(selection: Selection, members: readonly string[] | undefined, source: string): void {
  for (const term of selection.terms) checkTerm(term, members, source);
}

function checkTerm(term: Term, members: readonly string[] | undefined, source: string): void {
  if (term.kind === 'group') return checkSelection(term.selection, members, `${source} (@${term.name})`);
  if (term.kind !== 'qualifier') return;
  const written = quoteInput(printTerm(term));
  if ((QUALIFIERS as readonly string[]).includes(term.name)) {
    const qualifier = term.name as (typeof QUALIFIERS)[number];
    const fits = qualifier === 'seen' ? term.values.every(isDurationComparison) : term.values.every((value) => value.op === 'eq');
    if (!fits) throw new UsageError(`${source}: ${written}: ${qualifier}: takes ${TAKES[qualifier]}`);
    return;
  }
  if (members === undefined || isMember(term.name, members)) return;
  throw new UsageError(
    `${source}: no qualifier or member ${quoteInput(term.name)} in ${written}${didYouMeanSuffix(term.name, [...QUALIFIERS, ...KEYWORDS, ...members])}`,
    `qualifiers are ${QUALIFIERS.map((q) => `${q}:`).join(' ')}; the devices' members are ${members.slice(0, 12).join(', ')}${members.length > 12 ? ', ...' : ''}`,
  );
}

/** A member named whole, or the object holding named members, or a member inside one named as a whole. */
function isMember(name: string, members: readonly string[]): boolean {
  return members.some((member) => member === name || member.startsWith(`${name}.`) || name.startsWith(`${member}.`));
}

function isDurationComparison(value: Comparison): boolean {
  if (value.op === 'range') {
    return (value.low !== undefined || value.high !== undefined) && [value.low, value.high].every((end) => end === undefined || durationMs(end) !== undefined);
  }
  return value.op !== 'eq' && value.op !== 'contains' && durationMs(value.operand) !== undefined;
}
