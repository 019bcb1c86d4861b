// The wait for a busy lock passes on the injected clock, its pauses chosen by the shared retry decision: the fake
// clock shows the back-off (doubling from 5 ms to 100 ms, jittered over the upper half) and that the wait ends
// exactly when the caller said, with one last attempt then.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { LOCK_WAIT_POLICY, LockBusyError, acquireLock, type HeldLock } from '../../src/io/file-lock.js';
import { backoffDelay } from '../../src/shared/retry.js';
import { FakeClock, T0 } from '../support/fake-clock.js';
import { tempDir } from '../support/temp-dir.js';

const lockFile = () => path.join(tempDir('fleetctl-lock-wait-'), 'store.lock');

/** A fake clock that runs `at` once its time has moved `afterMs` past T0. */
class ClockWithEvent extends FakeClock {
  constructor(private readonly afterMs: number, private readonly at: () => void) {
    super();
  }

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await super.sleep(ms, signal);
    if (this.now().getTime() - T0.getTime() >= this.afterMs) this.at();
  }
}

describe('waiting for a busy lock', () => {
  it('backs off on the clock it is given: 5, 10, 20, 40, 80 ms, then 100 ms each, the last cut to the end of the wait', async () => {
    const file = lockFile();
    const held = await acquireLock(file, { what: 'the store', waitMs: 0 });
    const clock = new FakeClock();
    const notices: string[] = [];
    const error = await acquireLock(file, { what: 'the store', waitMs: 1_000, clock, random: () => 1, notice: (line) => notices.push(line) }).catch((e: unknown) => e);
    held.release();
    expect(error).toBeInstanceOf(LockBusyError);
    // the ceilings of the shared back-off (random 1: the top of each jittered range): 155 ms in the first five
    // pauses, then 100 ms pauses up to 955 ms, and a last one of 45 ms so the final attempt is at 1 000 ms
    expect(clock.sleeps).toEqual([5, 10, 20, 40, 80, ...Array(8).fill(100), 45]);
    expect(clock.now().getTime() - T0.getTime()).toBe(1_000);
    // the notice comes once a wait passes a second on the same clock: this one gives up at that moment instead
    expect(notices).toEqual([]);
  });

  it('spreads each pause over the upper half of its ceiling, as the shared back-off does', async () => {
    const file = lockFile();
    const held = await acquireLock(file, { what: 'the store', waitMs: 0 });
    const clock = new FakeClock();
    await acquireLock(file, { what: 'the store', waitMs: 300, clock, random: () => 0 }).catch(() => undefined);
    held.release();
    const lowest = [0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, LOCK_WAIT_POLICY, () => 0));
    expect(lowest).toEqual([3, 5, 10, 20, 40, 50]);
    expect(clock.sleeps.slice(0, 6)).toEqual(lowest);
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(300);
  });

  it('takes the lock at the first attempt after its holder lets go, and says it waits once the wait is long', async () => {
    const file = lockFile();
    let held: HeldLock | undefined = await acquireLock(file, { what: 'the store', waitMs: 0, purpose: 'config set' });
    const clock = new ClockWithEvent(1_500, () => {
      held?.release();
      held = undefined;
    });
    const notices: string[] = [];
    const lock = await acquireLock(file, { what: 'the store', waitMs: 10_000, clock, random: () => 1, notice: (line) => notices.push(line) });
    lock.release();
    // released once the clock passed 1.5 s: the pause that crossed it (100 ms steps from 155 ms) ends at 1 555 ms
    expect(clock.now().getTime() - T0.getTime()).toBe(1_555);
    expect(notices).toEqual([expect.stringMatching(/^Waiting for the store: .*store\.lock is held by process \d+ \(config set, since .+\) \(up to 10 s\)\.\.\.$/)]);
  });

  it('refuses at once with no wait, without a pause', async () => {
    const file = lockFile();
    const held = await acquireLock(file, { what: 'the store', waitMs: 0 });
    const clock = new FakeClock();
    await expect(acquireLock(file, { what: 'the store', waitMs: 0, clock })).rejects.toBeInstanceOf(LockBusyError);
    held.release();
    expect(clock.sleeps).toEqual([]);
  });
});
