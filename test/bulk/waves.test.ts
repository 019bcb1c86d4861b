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
    const plan = planWaves(100, { canary: { count: 5 }, canaryWaitMs: 30_000, wave: { percent: 20 }, abortIfFailed: { percent: 10 } }, { wait: false });
    expect(plan.sizes).toEqual([5, 20, 20, 20, 20, 15]);
    expect(plan).toMatchObject({ canary: true, canaryPauseMs: 30_000, canaryPauseFlag: '--canary-wait', wavePauseMs: undefined, threshold: { percent: 10 } });
  });

  it('with --wait each wave is gated by the one before; without waves the rest goes at once', () => {
    const plan = planWaves(10, { canary: { count: 2 } }, { wait: true });
    expect(plan.sizes).toEqual([2, 8]);
    expect(plan).toMatchObject({ wait: true, canaryPauseMs: undefined });
  });

  it('--wave-pause holds between every two waves, after the canary too unless --canary-wait says otherwise', () => {
    expect(planWaves(10, { canary: { count: 2 }, wave: { count: 4 }, wavePauseMs: 5_000 }, { wait: true })).toMatchObject({ sizes: [2, 4, 4], canaryPauseMs: 5_000, canaryPauseFlag: '--wave-pause', wavePauseMs: 5_000 });
    expect(planWaves(10, { canary: { count: 2 }, canaryWaitMs: 1_000, wave: { count: 4 }, wavePauseMs: 5_000 }, { wait: false })).toMatchObject({ canaryPauseMs: 1_000, wavePauseMs: 5_000 });
  });

  it('always over every target: a resumed run keeps the waves it had', () => {
    const plan = planWaves(10, { canary: { count: 2 }, wave: { count: 4 } }, { wait: false });
    expect(plan).toMatchObject({ sizes: [2, 4, 4], canary: true });
  });

  it('a canary of everything has no pause after it', () => {
    expect(planWaves(3, { canary: { count: 5 }, canaryWaitMs: 1000 }, { wait: false })).toMatchObject({ sizes: [3], canaryPauseMs: undefined });
  });
});

describe('planLines', () => {
  it('without --wait or a pause, says in one line that the waves only batch', () => {
    const plan = planWaves(100, { canary: { count: 5 }, canaryWaitMs: 90_000, wave: { percent: 20 }, abortIfFailed: { percent: 10 } }, { wait: false });
    expect(planLines(plan)).toEqual([
      'Canary: 5 devices, then pause 1m30s',
      'Waves: 5 (4 x 20, then 15), one after the other with no pause: they only batch the sending (--wait or --wave-pause makes each wait for the one before)',
      'Brake: before each wave, stop once 10% of the devices sent so far failed',
    ]);
  });

  it('with --wait: what gates each wave, the pause, and the brake over devices not back', () => {
    const plan = planWaves(12, { canary: { count: 1 }, wave: { count: 4 } }, { wait: true });
    expect(planLines(plan)).toEqual([
      'Canary: 1 device, then wait until it is back',
      'Waves: 3 (2 x 4, then 3), each once every device of the one before is back, timed out or failed',
      'Brake: none (no --abort-if-failed)',
    ]);
    const paused = planWaves(12, { canary: { count: 3 }, wave: { count: 3 }, wavePauseMs: 30_000, abortIfFailed: { count: 2 } }, { wait: true });
    expect(planLines(paused)).toEqual([
      'Canary: 3 devices, then wait until they are back, then pause 30s',
      'Waves: 3 (3 x 3), each once every device of the one before is back, timed out or failed, then a pause of 30s',
      'Brake: before each wave, stop once 2 of the devices sent so far failed or did not come back',
    ]);
  });

  it('a pause without --wait; one wave after the canary', () => {
    expect(planLines(planWaves(9, { wave: { count: 3 }, wavePauseMs: 10_000 }, { wait: false }))[0]).toBe('Waves: 3 (3 x 3), each 10s after the one before was answered');
    expect(planLines(planWaves(9, { canary: { count: 1 } }, { wait: false }))).toEqual(['Canary: 1 device, no pause', 'Waves: 1 (8 devices), after the canary', 'Brake: none (no --abort-if-failed)']);
  });
});

describe('Brake', () => {
  const answered = (brake: Brake, sent: number, failed: number): void => {
    for (let i = 0; i < sent; i++) brake.answered(`HW-${i}`, i < failed);
  };

  it('a count trips once that many failed', () => {
    const brake = new Brake({ count: 2 });
    answered(brake, 10, 1);
    expect(brake.tripped).toBe(false);
    brake.notBack('HW-5');
    expect(brake.tripped).toBe(true);
    expect(brake.reason(false)).toBe('2 of 10 devices sent so far failed (--abort-if-failed 2)');
  });

  it('a share is of the devices sent so far', () => {
    const brake = new Brake({ percent: 10 });
    answered(brake, 20, 1);
    expect(brake.tripped).toBe(false);
    brake.notBack('HW-7');
    expect(brake.tripped).toBe(true);
    expect(brake.reason(true)).toBe('2 of 20 devices sent so far failed or did not come back (--abort-if-failed 10%)');
  });

  it('each device counts once, by its last outcome (a failed device retried on resume that succeeds no longer counts)', () => {
    const brake = new Brake({ count: 1 });
    brake.answered('HW-1', true);
    brake.answered('HW-1', true);
    expect([brake.sent, brake.failed]).toEqual([1, 1]);
    brake.answered('HW-1', false);
    expect([brake.sent, brake.failed, brake.tripped]).toEqual([1, 0, false]);
  });

  it('without a threshold it never trips', () => {
    const brake = new Brake(undefined);
    brake.answered('HW-1', true);
    expect(brake.tripped).toBe(false);
  });
});
