// Waves with a brake: the amounts the flags take, the plan over the devices (canary, waves, pause), what the prompt
// and --dry-run say of it, and when the brake trips.
import { describe, expect, it } from 'vitest';
import { Brake, parseAmount, planLines, planWaves, resolveAmount } from '../../src/bulk/waves.js';

describe('parseAmount', () => {
  it.each([
    ['20', { count: 20 }],
    ['5%', { percent: 5 }],
    ['2.5%', { percent: 2.5 }],
    ['100%', { percent: 100 }],
    [' 7 ', { count: 7 }],
  ])('%s', (text, amount) => expect(parseAmount(text, '--wave')).toEqual(amount));

  it.each(['0', '0%', '101%', '-3', 'ten', '5 %', '1.5', ''])('refuses %j with one line naming the flag', (text) => {
    expect(() => parseAmount(text, '--canary')).toThrow(/^--canary must be a number of devices such as 20, or a share such as 5%, got /);
  });
});

describe('resolveAmount', () => {
  it('a share rounds up and is never 0; a count is at most the total', () => {
    expect(resolveAmount({ percent: 5 }, 30)).toBe(2);
    expect(resolveAmount({ percent: 1 }, 10)).toBe(1);
    expect(resolveAmount({ count: 50 }, 10)).toBe(10);
  });
});

describe('planWaves', () => {
  it('the canary first, then waves of the size asked (a share is of the whole run)', () => {
    const plan = planWaves(100, { canary: { count: 5 }, canaryWaitMs: 30_000, wave: { percent: 20 }, abortIfFailed: { percent: 10 } }, { wait: false, canaryDone: false });
    expect(plan.sizes).toEqual([5, 20, 20, 20, 20, 15]);
    expect(plan).toMatchObject({ canary: true, pause: 30_000, threshold: { percent: 10 } });
  });

  it('with --wait the canary pause is until it is back; without waves the rest goes at once', () => {
    const plan = planWaves(10, { canary: { count: 2 } }, { wait: true, canaryDone: false });
    expect(plan.sizes).toEqual([2, 8]);
    expect(plan.pause).toBe('back');
  });

  it('a resumed run that sent already has had its canary', () => {
    const plan = planWaves(10, { canary: { count: 2 }, wave: { count: 4 } }, { wait: false, canaryDone: true });
    expect(plan).toMatchObject({ sizes: [4, 4, 2], canary: false, pause: undefined });
  });

  it('a canary of everything has no pause after it', () => {
    expect(planWaves(3, { canary: { count: 5 }, canaryWaitMs: 1000 }, { wait: false, canaryDone: false })).toMatchObject({ sizes: [3], pause: undefined });
  });
});

describe('planLines', () => {
  it('says the waves, their sizes, the pause and the threshold', () => {
    const plan = planWaves(100, { canary: { count: 5 }, canaryWaitMs: 90_000, wave: { percent: 20 }, abortIfFailed: { percent: 10 } }, { wait: false, canaryDone: false });
    expect(planLines(plan)).toEqual([
      'Canary: 5 devices, then pause 1m30s',
      'Waves: 5 (4 x 20, then 15), one after the other, no pause',
      'Brake: stop sending once 10% of the devices sent so far failed',
    ]);
  });

  it('with --wait, and without a brake', () => {
    const plan = planWaves(12, { canary: { count: 1 }, wave: { count: 4 } }, { wait: true, canaryDone: false });
    expect(planLines(plan)).toEqual(['Canary: 1 device, then wait until it is back', 'Waves: 3 (2 x 4, then 3), one after the other, no pause', 'Brake: none (no --abort-if-failed)']);
    const braked = planWaves(12, { canary: { count: 3 }, abortIfFailed: { count: 2 } }, { wait: true, canaryDone: false });
    expect(planLines(braked)).toEqual([
      'Canary: 3 devices, then wait until they are back',
      'Waves: 1 (9 devices), one after the other, no pause',
      'Brake: stop sending once 2 of the devices sent so far failed or did not come back',
    ]);
  });
});

describe('Brake', () => {
  it('a count trips once that many failed', () => {
    const brake = new Brake({ count: 2 });
    brake.sent = 10;
    brake.failed = 1;
    expect(brake.tripped).toBe(false);
    brake.failed = 2;
    expect(brake.tripped).toBe(true);
    expect(brake.reason(false)).toBe('2 of 10 devices sent so far failed (--abort-if-failed 2)');
  });

  it('a share is of the devices sent so far', () => {
    const brake = new Brake({ percent: 10 });
    brake.sent = 20;
    brake.failed = 1;
    expect(brake.tripped).toBe(false);
    brake.failed = 2;
    expect(brake.tripped).toBe(true);
    expect(brake.reason(true)).toBe('2 of 20 devices sent so far failed or did not come back (--abort-if-failed 10%)');
  });

  it('without a threshold it never trips', () => {
    const brake = new Brake(undefined);
    brake.sent = 1;
    brake.failed = 1;
    expect(brake.tripped).toBe(false);
  });
});
