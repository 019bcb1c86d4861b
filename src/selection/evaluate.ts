// Whether a device is in a selection. Three answers, not two: a condition on something the record does not say in
// a form fleetctl can read (capabilities in another vocabulary, a report time that is not a date-time) is unknown,
// and a device whose answer is unknown is not selected but counted apart, so that nothing is acted on outside the
// selection and nothing is dropped in silence (the caller says how many were undecided and why).
import { compareInstants, parseInstant, type Instant } from '../shared/rfc3339.js';
import { durationMs } from '../shared/duration.js';
import { valueAt } from '../shared/member-path.js';
import { isStale } from '../records/report-time.js';
import type { Comparison, Selection, Term } from './grammar.js';

/** true, false, or undefined for unknown (Kleene's three-valued logic: unknown AND false is false). */
export type Truth = boolean | undefined;

/** What the selection asks of a device beyond its own members: the record boundary's readings and the clock. */
export interface DeviceFacts {
  nowMs: number;
  /** How long after its last report a device counts as stale (as `status --stale-after`). */
  staleAfterMs: number;
  /** Its last report: null when it never reported, undefined when not known. */
  reportInstant(device: unknown): Instant | null | undefined;
  hasCapability(device: unknown, capability: string): Truth;
  /** Whether it belongs to the fleet / organization a fleet: / org: value names (resolved by the caller). */
  inFleet(device: unknown, fleet: string): Truth;
  inOrganization(device: unknown, organization: string): Truth;
}

export function evaluateSelection(selection: Selection, device: unknown, facts: DeviceFacts): Truth {
  return all(selection.terms.map((term) => evaluateTerm(term, device, facts)));
}

function evaluateTerm(term: Term, device: unknown, facts: DeviceFacts): Truth {
  const truth = termTruth(term, device, facts);
  return term.negated ? not(truth) : truth;
}

function termTruth(term: Term, device: unknown, facts: DeviceFacts): Truth {
  switch (term.kind) {
    case 'saved':
      throw new Error(`saved selection @${term.name} was not looked up before evaluation`);
    case 'group':
      return evaluateSelection(term.selection, device, facts);
    case 'keyword': {
      const at = facts.reportInstant(device);
      if (at === undefined) return undefined;
      if (term.name === 'never-reported') return at === null;
      // stale as status counts it; a device that never reported is not stale but never-reported
      return at !== null && isStale(at.ms, facts.nowMs, facts.staleAfterMs);
    }
    case 'qualifier':
      return any(term.values.map((value) => qualifierTruth(term.name, value, device, facts)));
  }
}

function qualifierTruth(name: string, value: Comparison, device: unknown, facts: DeviceFacts): Truth {
  const operand = value.op === 'range' ? undefined : value.operand;
  switch (name) {
    case 'fleet':
      return operand === undefined ? false : facts.inFleet(device, operand);
    case 'org':
      return operand === undefined ? false : facts.inOrganization(device, operand);
    case 'has':
      return operand === undefined ? false : facts.hasCapability(device, operand);
    case 'seen': {
      const at = facts.reportInstant(device);
      // a device that never reported is never "seen" any time ago: never-reported selects it
      if (at === null) return false;
      if (at === undefined) return undefined;
      return inOrder(facts.nowMs - at.ms, value, (text) => {
        const ms = durationMs(text);
        return ms === undefined ? undefined : [ms, ms];
      }, (a, b) => a - b);
    }
    default:
      return memberTruth(valueAt(device, name), value);
  }
}

/** A record member against one value: lists match when an element does; a member the record lacks matches nothing. */
export function memberTruth(member: unknown, value: Comparison): boolean {
  if (Array.isArray(member)) return member.some((element) => memberTruth(element, value));
  if (member === undefined || (member !== null && typeof member === 'object')) return false;
  if (member === null) return value.op === 'eq' && value.operand.toLowerCase() === 'null';
  if (typeof member === 'boolean') return value.op === 'eq' && value.operand.toLowerCase() === String(member);
  if (typeof member === 'number') {
    if (value.op === 'contains') return String(member).includes(value.operand);
    return inOrder(member, value, numberBounds, (a, b) => a - b) ?? false;
  }
  const text = String(member);
  if (value.op === 'contains') return text.toLowerCase().includes(value.operand.toLowerCase());
  // a date-time operand orders only date-times: text that is not one is neither before nor after it
  if (everyOperand(value, (operand) => instantBounds(operand) !== undefined)) {
    const instant = parseInstant(text);
    if (instant !== undefined) return inOrder(instant, value, instantBounds, compareInstants) ?? false;
    return value.op === 'eq' && text.toLowerCase() === value.operand.toLowerCase();
  }
  // a number sent as a string (int64 members often are) orders as a number when every operand is one too
  if (numberBounds(text) !== undefined && everyOperand(value, (operand) => numberBounds(operand) !== undefined)) {
    return inOrder(Number(text), value, numberBounds, (a, b) => a - b) ?? false;
  }
  if (value.op === 'eq') return text.toLowerCase() === value.operand.toLowerCase();
  return inOrder(text, value, (operand) => [operand, operand], (a, b) => (a < b ? -1 : a > b ? 1 : 0)) ?? false;
}

/**
 * A value against an operand read as the interval [low, high] it names (a date is its whole UTC day, a number or
 * an instant a single point): = inside it, > after it, >= from its start, < before it, <= to its end, A..B from A's
 * start to B's end. Undefined when an operand is not of the value's kind.
 */
function inOrder<T>(value: T, comparison: Comparison, bounds: (operand: string) => [T, T] | undefined, compare: (a: T, b: T) => number): Truth {
  if (comparison.op === 'range') {
    const low = comparison.low === undefined ? undefined : bounds(comparison.low);
    const high = comparison.high === undefined ? undefined : bounds(comparison.high);
    if ((comparison.low !== undefined && low === undefined) || (comparison.high !== undefined && high === undefined)) return undefined;
    return (low === undefined || compare(value, low[0]) >= 0) && (high === undefined || compare(value, high[1]) <= 0);
  }
  if (comparison.op === 'contains') return undefined;
  const interval = bounds(comparison.operand);
  if (interval === undefined) return undefined;
  const [low, high] = interval;
  switch (comparison.op) {
    case 'eq': return compare(value, low) >= 0 && compare(value, high) <= 0;
    case 'gt': return compare(value, high) > 0;
    case 'ge': return compare(value, low) >= 0;
    case 'lt': return compare(value, low) < 0;
    case 'le': return compare(value, high) <= 0;
  }
}

function everyOperand(value: Comparison, test: (operand: string) => boolean): boolean {
  if (value.op !== 'range') return test(value.operand);
  return [value.low, value.high].every((end) => end === undefined || test(end));
}

function numberBounds(operand: string): [number, number] | undefined {
  const number = operand.trim() === '' ? NaN : Number(operand);
  return Number.isFinite(number) ? [number, number] : undefined;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An RFC 3339 date-time is one instant; a date (2026-11-01) is its UTC day, first to last nanosecond. */
export function instantBounds(operand: string): [Instant, Instant] | undefined {
  if (DATE.test(operand)) {
    const start = parseInstant(`${operand}T00:00:00Z`);
    return start === undefined ? undefined : [start, { ms: start.ms + DAY_MS - 1, nanos: 999_999 }];
  }
  const instant = parseInstant(operand);
  return instant === undefined ? undefined : [instant, instant];
}

function all(truths: Truth[]): Truth {
  if (truths.includes(false)) return false;
  return truths.includes(undefined) ? undefined : true;
}

function any(truths: Truth[]): Truth {
  if (truths.includes(true)) return true;
  return truths.includes(undefined) ? undefined : false;
}

function not(truth: Truth): Truth {
  return truth === undefined ? undefined : !truth;
}
