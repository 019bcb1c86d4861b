import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSelection, printTerm } from '../../src/selection/grammar.js';
import { evaluateSelection, type DeviceFacts } from '../../src/selection/evaluate.js';
import { checkSelection } from '../../src/selection/check.js';
import { lookUpSaved } from '../../src/selection/saved.js';
import { parseInstant } from '../../src/shared/rfc3339.js';
import { records } from '../../src/records/resources.js';
import { UsageError } from '../../src/errors.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const HOUR = 3_600_000;

/** Facts as a service might give them: the report time in `seen`, fleets in `fleets`, capabilities as records say. */
const facts: DeviceFacts = {
  nowMs: NOW,
  staleAfterMs: HOUR,
  reportInstant: (device) => {
    const seen = (device as { seen?: unknown }).seen;
    if (seen === null) return null;
    return typeof seen === 'string' ? parseInstant(seen) : undefined;
  },
  hasCapability: (device, name) => records.device.hasCapability(device, name),
  inFleet: (device, fleet) => (device as { fleets?: string[] }).fleets?.includes(fleet),
  inOrganization: () => undefined,
};

const select = (expression: string, device: unknown) => evaluateSelection(parseSelection(expression, '--where'), device, facts);
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('evaluating a selection on a device', () => {
  it('reads seen: as the time since the last report, and never matches a device that never reported', () => {
    const old = { seen: ago(3 * HOUR) };
    const fresh = { seen: ago(5 * 60_000) };
    const never = { seen: null };
    expect([old, fresh, never].map((d) => select('seen:>2h', d))).toEqual([true, false, false]);
    expect([old, fresh, never].map((d) => select('seen:<10m', d))).toEqual([false, true, false]);
    expect([old, fresh, never].map((d) => select('seen:1h..4h', d))).toEqual([true, false, false]);
    expect([old, fresh, never].map((d) => select('never-reported', d))).toEqual([false, false, true]);
    expect([old, fresh, never].map((d) => select('stale', d))).toEqual([true, false, false]);
    // a report time that cannot be read is unknown: neither selected nor its negation
    expect(select('seen:>2h', { seen: 17 })).toBeUndefined();
    expect(select('-stale', { seen: 'yesterday' })).toBeUndefined();
  });

  it('compares date-time members as instants, whatever offset and fraction they are written with', () => {
    const device = { at: '2026-11-27T17:30:00.3+05:30' }; // 12:00:00.300Z
    expect(select('at:>2026-11-27T12:00:00.299999999Z', device)).toBe(true);
    expect(select('at:>2026-11-27T04:00:00.300000000-08:00', device)).toBe(false);
    expect(select('at:2026-11-27T12:00:00.300Z', device)).toBe(true);
    // a date is its whole UTC day
    expect(select('at:2026-11-27', device)).toBe(true);
    expect(select('at:>2026-11-26', device)).toBe(true);
    expect(select('at:<2026-11-27', device)).toBe(false);
    expect(select('at:2026-11-01..2026-11-27', device)).toBe(true);
  });

  it('matches strings without regard to case, numbers as numbers (also when sent as strings), lists by any element', () => {
    const device = { name: 'North Gate', odometer: '1200', battery: 9, tags: ['night', 'east'], firmware: { version: '1.4.2' }, gone: null, on: true };
    expect(select('name:"north gate"', device)).toBe(true);
    expect(select('name:~GATE', device)).toBe(true);
    expect(select('odometer:>900', device)).toBe(true);
    expect(select('battery:<10', device)).toBe(true);
    expect(select('battery:10..*', device)).toBe(false);
    expect(select('tags:east', device)).toBe(true);
    expect(select('firmware.version:~1.4', device)).toBe(true);
    expect(select('gone:null on:true', device)).toBe(true);
    expect(select('fleet:F1,F2', { fleets: ['F2'] })).toBe(true);
    // a member the record lacks matches nothing, so its negation matches
    expect(select('missing:x', device)).toBe(false);
    expect(select('-missing:x', device)).toBe(true);
  });

  it('leaves undecided a capability the record states in a form fleetctl cannot read, never a no', () => {
    expect(select('has:reboot', { capabilities: ['reboot', 'gps'] })).toBe(true);
    expect(select('has:wake_up', { capabilities: ['reboot', 'gps'] })).toBe(false);
    expect(select('has:reboot', { capabilities: [{ name: 'reboot' }] })).toBeUndefined();
    expect(select('-has:reboot', { capabilities: 'reboot' })).toBeUndefined();
    // unknown AND false is false: a device ruled out by another term is out
    expect(select('has:reboot seen:<10m', { capabilities: 'x', seen: ago(3 * HOUR) })).toBe(false);
  });

  it('is AND of its terms, NOT of a negated one and OR of a value list, in three values', () => {
    const term = fc.constantFrom('seen:>2h', 'stale', 'never-reported', 'has:reboot', 'fleet:F1', 'name:~a', 'battery:<50', 'at:>2026-11-27');
    const device = fc.record({
      seen: fc.oneof(fc.constant(null), fc.constant(7), fc.integer({ min: 0, max: 6 * HOUR }).map(ago)),
      capabilities: fc.oneof(fc.constant(['reboot']), fc.constant([]), fc.constant('reboot')),
      fleets: fc.subarray(['F1', 'F2']),
      name: fc.constantFrom('alpha', 'BETA', 'x'),
      battery: fc.integer({ min: 0, max: 100 }),
      at: fc.constantFrom('2026-11-26T23:59:59.999999999Z', '2026-11-27T00:00:00+01:00', '2026-11-28T00:30:00+01:00'),
    }, { requiredKeys: [] });
    const and = (a: boolean | undefined, b: boolean | undefined) => (a === false || b === false ? false : a === undefined || b === undefined ? undefined : true);
    const not = (a: boolean | undefined) => (a === undefined ? undefined : !a);
    fc.assert(
      fc.property(term, term, device, (a, b, d) => {
        expect(select(`${a} ${b}`, d)).toBe(and(select(a, d), select(b, d)));
        expect(select(`-${a}`, d)).toBe(not(select(a, d)));
        const or = (x: boolean | undefined, y: boolean | undefined) => not(and(not(x), not(y)));
        expect(select(`name:~a,BETA,<${d.battery ?? 0}`, d)).toBe(or(or(select('name:~a', d), select('name:BETA', d)), select(`name:<${d.battery ?? 0}`, d)));
        expect(select(`fleet:F1,F2`, d)).toBe(or(select('fleet:F1', d), select('fleet:F2', d)));
      }),
      { seed: 37_001, numRuns: 1_000 },
    );
  });

  it('orders instants written with any offset and 0 to 9 fraction digits as the instants they name', () => {
    const instant = fc.record({ ms: fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') }), nanos: fc.integer({ min: 0, max: 999_999 }) });
    const offset = fc.integer({ min: -14 * 60, max: 14 * 60 });
    const digits = fc.integer({ min: 0, max: 9 });
    const write = (i: { ms: number; nanos: number }, offsetMin: number, fraction: number) => {
      const local = new Date(i.ms + offsetMin * 60_000).toISOString().slice(0, 19);
      const nine = `${String(i.ms % 1000).padStart(3, '0')}${String(i.nanos).padStart(6, '0')}`;
      const sign = offsetMin < 0 ? '-' : '+';
      const abs = Math.abs(offsetMin);
      const zone = offsetMin === 0 ? 'Z' : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      return `${local}${fraction === 0 ? '' : `.${nine.slice(0, fraction)}`}${zone}`;
    };
    // the instant a written form names, in nanoseconds (what the fraction digits written keep)
    const nanosOf = (i: { ms: number; nanos: number }, fraction: number) => {
      const total = BigInt(i.ms) * 1_000_000n + BigInt(i.nanos);
      const unit = 10n ** BigInt(9 - fraction);
      const wholeMs = BigInt(Math.floor(i.ms / 1000)) * 1_000_000_000n;
      return wholeMs + (((total - wholeMs) / unit) * unit);
    };
    fc.assert(
      fc.property(instant, offset, digits, instant, offset, digits, fc.constantFrom('>', '>=', '<', '<=', ''), (a, oa, da, b, ob, db, op) => {
        const left = nanosOf(a, da);
        const right = nanosOf(b, db);
        const expected = { '>': left > right, '>=': left >= right, '<': left < right, '<=': left <= right, '': left === right }[op];
        expect(select(`at:${op}${write(b, ob, db)}`, { at: write(a, oa, da) })).toBe(expected);
      }),
      { seed: 37_002, numRuns: 1_000 },
    );
  });
});

describe('checking a selection before any request', () => {
  const check = (expression: string, members?: string[]) => checkSelection(parseSelection(expression, '--where'), members, '--where');

  it('refuses an unknown qualifier or member with the names it may have meant', () => {
    expect(() => check('fleeet:North', ['hardware_id', 'name'])).toThrow(/no qualifier or member "fleeet" .*did you mean fleet\?/);
    expect(() => check('nmae:x', ['hardware_id', 'name'])).toThrow(/did you mean name\?/);
    expect(() => check('firmware.version:1', ['firmware.version'])).not.toThrow();
    expect(() => check('firmware:1', ['firmware.version'])).not.toThrow();
    // no document or record said which members there are: the records decide
    expect(() => check('anything:1')).not.toThrow();
  });

  it.each([
    ['seen:2h', /seen: takes a time since the last report/],
    ['seen:>soon', /seen: takes/],
    ['fleet:>North', /fleet: takes fleet names or ids/],
    ['has:~boot', /has: takes capability names/],
  ])('refuses %s, which its qualifier cannot compare', (expression, message) => {
    expect(() => check(expression, [])).toThrow(UsageError);
    expect(() => check(expression, [])).toThrow(message);
  });
});

describe('saved selections', () => {
  const saved = { night: 'fleet:F1 stale', nightly: '@night -has:wake_up', loop: '@loop2', loop2: '@loop' };

  it('are looked up where used and evaluated then, negated as a whole', () => {
    const selection = lookUpSaved(parseSelection('-@nightly', '--where'), saved, '--where');
    expect(selection.terms.map(printTerm)).toEqual(['-@nightly']);
    const staleInF1 = { fleets: ['F1'], seen: ago(3 * HOUR), capabilities: ['reboot'] };
    expect(evaluateSelection(selection, staleInF1, facts)).toBe(false);
    expect(evaluateSelection(selection, { ...staleInF1, seen: ago(1000) }, facts)).toBe(true);
  });

  it('name an unknown or self-using selection in one line', () => {
    expect(() => lookUpSaved(parseSelection('@nigth', '--where'), saved, '--where')).toThrow(/no saved selection @nigth \(did you mean night/);
    expect(() => lookUpSaved(parseSelection('@loop', '--where'), saved, '--where')).toThrow(/@loop uses itself \(@loop → @loop2 → @loop\)/);
  });
});
