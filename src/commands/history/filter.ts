// `fleetctl history --where`: the selection language (selection/grammar.ts) over ledger entries. A condition is
// NAME:VALUE on one of the members below, with the language's forms (a leading - negates, a,b means either, ~
// contains, > < >= <= and A..B order numbers and times, quotes keep spaces); the device keywords (stale,
// never-reported), saved selections (@NAME) and device qualifiers (fleet:, has:, seen:) have no meaning here.
import { UsageError } from '../../errors.js';
import { parseSelection, type Comparison, type Term } from '../../selection/grammar.js';
import { memberTruth } from '../../selection/evaluate.js';
import type { LedgerEntry } from '../../ledger/entry.js';

/** What a condition may name, and the entry's value for it (a list matches when one of its elements does). */
const MEMBERS: Record<string, (entry: LedgerEntry) => unknown> = {
  command: (e) => e.command,
  profile: (e) => e.profile,
  base_url: (e) => e.base_url,
  client_id: (e) => e.client_id,
  run: (e) => e.run_id,
  time: (e) => e.time,
  target: (e) => e.targets.map((t) => t.target),
  outcome: (e) => e.targets.map((t) => t.outcome),
  key: (e) => e.targets.map((t) => t.idempotency_key).filter((key) => key !== undefined),
  code: (e) => e.targets.map((t) => t.code).filter((code) => typeof code === 'string'),
  line: (e) => e.argv.join(' '),
  error: (e) => e.error,
};

export const LEDGER_WHERE_NAMES = Object.keys(MEMBERS);

export type LedgerFilter = (entry: LedgerEntry) => boolean;

/** The filter of a --where expression, every term checked now: a name the ledger has not is refused before reading. */
export function ledgerFilter(expression: string): LedgerFilter {
  const { terms } = parseSelection(expression, '--where');
  const checks = terms.map(termCheck);
  return (entry) => checks.every((check) => check(entry));
}

function termCheck(term: Term): LedgerFilter {
  if (term.kind !== 'qualifier') {
    const written = term.kind === 'keyword' ? term.name : `@${term.name}`;
    throw new UsageError(`history --where takes NAME:VALUE conditions, not ${written}`, `names: ${LEDGER_WHERE_NAMES.join(', ')}; e.g. --where 'command:"devices reboot" outcome:failed'`);
  }
  const member = MEMBERS[term.name];
  if (!member) throw new UsageError(`history --where has no ${term.name}:`, `names: ${LEDGER_WHERE_NAMES.join(', ')}`);
  const values: Comparison[] = term.values;
  return (entry) => values.some((value) => memberTruth(member(entry), value)) !== term.negated;
}
