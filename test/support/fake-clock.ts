// A clock that never waits: sleep() records the delay and moves time forward at once.
import type { Clock } from '../../src/io/clock.js';

export const T0 = new Date('2025-06-01T12:00:00.000Z');

export class FakeClock implements Clock {
  /** Every delay asked of sleep(), in order. */
  readonly sleeps: number[] = [];
  private current: number;

  constructor(start: Date = T0) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.current += ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
