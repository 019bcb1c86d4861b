// Completion of a --where expression's first term: the qualifiers and keywords of the selection language, the
// members of the device records, fleets by id (their names beside), saved selections. Only a term that is one
// safe shell word is offered (candidates.ts): `seen:>2h` or a quoted name is typed, never completed into a line.
import type { Candidate } from './candidates.js';

const TERMS: readonly Candidate[] = [
  { value: 'fleet:', description: 'in a fleet (name or id)' },
  { value: 'org:', description: 'in an organization (name or id)' },
  { value: 'has:reboot', description: 'can be rebooted' },
  { value: 'has:wake_up', description: 'can be woken up' },
  { value: 'seen:', description: 'time since the last report: seen:>2h, seen:<10m' },
  { value: 'stale', description: 'reported, longer ago than --stale-after' },
  { value: 'never-reported', description: 'has never reported' },
];

export interface WhereSources {
  saved: readonly Candidate[];
  /** Fleets as the fleet-id lookup gives them: the id, the name beside. */
  fleets: readonly Candidate[];
  /** Members of the device records (dotted when nested). */
  members: readonly Candidate[];
}

/** Every candidate for the term typed so far (a leading - negates it: the same terms, negated). */
export function whereTerms(prefix: string, sources: WhereSources): Candidate[] {
  const sign = prefix.startsWith('-') ? '-' : '';
  const terms: Candidate[] = [
    ...TERMS,
    ...sources.fleets.map((fleet) => ({ value: `fleet:${fleet.value}`, description: fleet.description })),
    ...sources.members.map((member) => ({ value: `${member.value}:`, description: member.description })),
    ...sources.saved,
  ];
  return terms.map((term) => ({ ...term, value: `${sign}${term.value}` }));
}
