// What each view shows, declared once: the service's records (their preferences are the record boundary's,
// records/views.ts) and the rows fleetctl makes itself (results of commands, the sandbox's logs).
import type { OperationId } from '../openapi/operation-types.js';
import { RECORD_VIEWS, type ResourceView } from '../records/views.js';

export type { ResourceView, DeclaredFields } from '../records/views.js';
export { bundledDeclaredFields } from '../records/views.js';

/** A view of rows fleetctl makes itself (no operation): the same columns for people and scripts. */
function rows(...columns: string[]): ResourceView {
  return { script: columns, person: columns };
}

export const VIEWS = {
  ...RECORD_VIEWS,
  webhookChange: rows('op', 'type', 'before', 'after'),
  deviceCommandResult: rows('hardware_id', 'status', 'http_status', 'code', 'idempotency_key'),
  /** With --wait: whether each device reported again, and after how long. */
  deviceCommandWaitResult: rows('hardware_id', 'status', 'wait', 'back_after_s', 'http_status', 'code', 'idempotency_key'),
  webhookEmitted: rows('id', 'type', 'hardware_id', 'organization_id', 'destinations'),
  sandboxRequest: rows('id', 'at', 'method', 'path', 'operation_id', 'client_id', 'status', 'outcome', 'duration_ms', 'fault'),
  sandboxFault: rows('id', 'match', 'respond', 'probability', 'times', 'hits'),
} as const satisfies Record<string, ResourceView>;

export type ViewName = keyof typeof VIEWS;

export function viewOf(name: ViewName): ResourceView {
  return VIEWS[name];
}

/** A view of a single operation's answer (a get, a create): every field the record carries is shown. */
export function operationView(operation: OperationId): ResourceView {
  return { operation, script: [], person: [] };
}

/**
 * The known names nearest to a mistyped one, best first: a few edits away (nme → name), or holding its letters
 * in order (hw → hardware_id).
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
