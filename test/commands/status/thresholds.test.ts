// --fail-if: what parses, what is refused (exit 2, naming the expression), and how a threshold is judged.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { judge, parseThreshold } from '../../../src/commands/status/thresholds.js';

const counts = { total: 40, reporting: 30, stale: 3, never_reported: 7, unknown: 0 };

describe('parseThreshold', () => {
  it.each([
    ['stale>5%', { metric: 'stale', operator: '>', value: 5, percent: true }],
    ['never>0', { metric: 'never_reported', operator: '>', value: 0, percent: false }],
    [' stale >= 10 ', { metric: 'stale', operator: '>=', value: 10, percent: false }],
    ['reporting<95.5%', { metric: 'reporting', operator: '<', value: 95.5, percent: true }],
    ['unknown!=0', { metric: 'unknown', operator: '!=', value: 0, percent: false }],
  ])('%s', (text, expected) => {
    expect(parseThreshold(text)).toMatchObject({ ...expected, expression: text.trim() });
  });

  it.each([
    ['stale>', '--fail-if "stale>" is not a threshold'],
    ['stale>>5', '--fail-if "stale>>5" is not a threshold'],
    ['late>5%', '--fail-if "late>5%" names no known metric "late"'],
    ['stale>150%', '--fail-if "stale>150%": a percentage is at most 100'],
    ['stale>-1', '--fail-if "stale>-1" is not a threshold'],
  ])('refuses %s with exit 2', (text, message) => {
    const error = (() => {
      try {
        parseThreshold(text);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(message);
    expect((error as UsageError).exitCode).toBe(2);
  });
});

describe('judge', () => {
  it('compares a percentage of all devices, and says why it is breached', () => {
    expect(judge(parseThreshold('stale>5%'), counts)).toEqual({ expression: 'stale>5%', actual: 7.5, breached: true, reason: 'stale is 7.5% (3 of 40), > 5%' });
    expect(judge(parseThreshold('stale>10%'), counts)).toEqual({ expression: 'stale>10%', actual: 7.5, breached: false, reason: null });
  });

  it('compares counts; >= includes the value', () => {
    expect(judge(parseThreshold('never>=7'), counts).breached).toBe(true);
    expect(judge(parseThreshold('never>7'), counts).breached).toBe(false);
    expect(judge(parseThreshold('reporting<31'), counts).breached).toBe(true);
  });

  it('an empty fleet is 0%, not stale', () => {
    expect(judge(parseThreshold('stale>0%'), { total: 0, reporting: 0, stale: 0, never_reported: 0, unknown: 0 }).breached).toBe(false);
  });

  it('a threshold that cannot be judged (report time unknown) is breached, saying so', () => {
    expect(judge(parseThreshold('stale>5%'), { total: 10, unknown: 10 })).toEqual({
      expression: 'stale>5%',
      actual: null,
      breached: true,
      reason: "stale cannot be told: the devices' report time is unknown",
    });
  });
});
