// The one way a mistyped name is answered with the names it may have meant: fields (--columns, --sort), members
// of a webhook configuration, profiles, settings, topic types, and hardware ids typed in the wrong case.

/**
 * The known names nearest to a mistyped one, best first: the same but for case (hw-000001 → HW-000001), a few
 * edits away (nme → name), or holding its letters in order (hw → hardware_id).
 */
export function closestNames(typed: string, known: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  const scored = known.map((name) => {
    const distance = editDistance(wanted, name.toLowerCase());
    const near = distance <= Math.max(1, Math.min(3, Math.floor(name.length / 3)));
    return { name, distance, matches: near || (wanted.length >= 2 && isSubsequence(wanted, name.toLowerCase())) };
  });
  return scored
    .filter(({ matches }) => matches)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ name }) => name);
}

/** `did you mean reader?` (or `reader or readers?`), or undefined when no known name is near. */
export function didYouMean(typed: string, known: readonly string[]): string | undefined {
  const closest = closestNames(typed, known);
  return closest.length > 0 ? `did you mean ${closest.join(' or ')}?` : undefined;
}

/**
 * Known names the typed one matches but for case: an identifier (a hardware id) is exact, so only a name that
 * differs by case is offered, never a neighbour (HW-000002 for hw-000001 would be another device).
 */
export function sameButForCase(typed: string, known: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  return known.filter((name) => name !== typed && name.toLowerCase() === wanted);
}

/** The suggestion as a message ends with it: ` (did you mean x?)`, or nothing. */
export function didYouMeanSuffix(typed: string, known: readonly string[]): string {
  const guess = didYouMean(typed, known);
  return guess ? ` (${guess})` : '';
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at++;
  return at === short.length;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
