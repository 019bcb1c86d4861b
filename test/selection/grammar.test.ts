import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSelection, printSelection, type Comparison, type Selection, type Term } from '../../src/selection/grammar.js';
import { UsageError } from '../../src/errors.js';

const parse = (text: string) => parseSelection(text, '--where');

describe('the selection grammar', () => {
  it('reads space as AND, a leading - as NOT, commas as OR and the operators of a value', () => {
    expect(parse('fleet:North,South -has:wake_up seen:>2h firmware.version:~1.4 battery:10..*  never-reported -@night')).toEqual({
      terms: [
        { kind: 'qualifier', negated: false, name: 'fleet', values: [{ op: 'eq', operand: 'North' }, { op: 'eq', operand: 'South' }] },
        { kind: 'qualifier', negated: true, name: 'has', values: [{ op: 'eq', operand: 'wake_up' }] },
        { kind: 'qualifier', negated: false, name: 'seen', values: [{ op: 'gt', operand: '2h' }] },
        { kind: 'qualifier', negated: false, name: 'firmware.version', values: [{ op: 'contains', operand: '1.4' }] },
        { kind: 'qualifier', negated: false, name: 'battery', values: [{ op: 'range', low: '10' }] },
        { kind: 'keyword', negated: false, name: 'never-reported' },
        { kind: 'saved', negated: true, name: 'night' },
      ],
    });
  });

  it('keeps spaces, commas, colons and operators inside quotes, and times whole after the first colon', () => {
    expect(parse('fleet:"North fleet, east" name:">x" at:>=2026-11-01T10:00:00+05:30 note:"say \\"hi\\""').terms).toEqual([
      { kind: 'qualifier', negated: false, name: 'fleet', values: [{ op: 'eq', operand: 'North fleet, east' }] },
      { kind: 'qualifier', negated: false, name: 'name', values: [{ op: 'eq', operand: '>x' }] },
      { kind: 'qualifier', negated: false, name: 'at', values: [{ op: 'ge', operand: '2026-11-01T10:00:00+05:30' }] },
      { kind: 'qualifier', negated: false, name: 'note', values: [{ op: 'eq', operand: 'say "hi"' }] },
    ]);
    expect(parse('label:""').terms[0]).toEqual({ kind: 'qualifier', negated: false, name: 'label', values: [{ op: 'eq', operand: '' }] });
  });

  it.each([
    ['', /--where is empty/],
    ['fleet:', /"fleet:" has an empty value/],
    ['fleet:a,,b', /has an empty value/],
    ['seen:>', /has an empty value/],
    ['fleet:"North', /quote that is not closed/],
    ['north', /"north" is not a condition/],
    ['@', /is not a saved selection's name/],
    [':x', /names no qualifier/],
  ])('refuses %j with one line naming what was wrong', (text, message) => {
    expect(() => parse(text)).toThrow(UsageError);
    expect(() => parse(text)).toThrow(message);
  });

  it('prints every expression so that reading it back gives the same selection', () => {
    const operand = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', ',', ' ', '"', '\\', '>', '<', '~', '*', ':', '-', '=', 'é'), maxLength: 6 });
    const comparison: fc.Arbitrary<Comparison> = fc.oneof(
      fc.record({ op: fc.constantFrom('eq', 'gt', 'ge', 'lt', 'le', 'contains' as const), operand }).filter((c) => c.operand !== '' || c.op === 'eq'),
      fc.record({ op: fc.constant('range' as const), low: operand, high: operand }, { requiredKeys: ['op'] }).filter((c) => c.low !== '' && c.high !== ''),
    );
    const term: fc.Arbitrary<Term> = fc.oneof(
      fc.record({ kind: fc.constant('qualifier' as const), negated: fc.boolean(), name: fc.constantFrom('fleet', 'seen', 'a.b', 'x_y', 'n2'), values: fc.array(comparison, { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant('keyword' as const), negated: fc.boolean(), name: fc.constantFrom('stale', 'never-reported' as const) }),
      fc.record({ kind: fc.constant('saved' as const), negated: fc.boolean(), name: fc.constantFrom('night', 'a.b-c_1') }),
    );
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 5 }), (terms) => {
        const selection: Selection = { terms };
        expect(parse(printSelection(selection))).toEqual(selection);
      }),
      { seed: 33_037, numRuns: 500 },
    );
  });

  it('prints an expression read from any text the same way twice (one canonical spelling)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ':', ',', ' ', '"', '-', '>', '.', '*', '@', '~', '\\'), maxLength: 14 }), (text) => {
        let first: string;
        try {
          first = printSelection(parse(text));
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          return;
        }
        expect(printSelection(parse(first))).toBe(first);
      }),
      { seed: 33_038, numRuns: 2_000 },
    );
  });
});
