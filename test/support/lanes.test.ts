import { describe, expect, it } from 'vitest';
import { runInLanes, type LaneJob } from './lanes.js';

/** A job that records when it starts and ends, and finishes when the test says so. */
function gated(lane: string, name: string, log: string[]) {
  let finish!: () => void;
  const done = new Promise<void>((ok) => (finish = ok));
  const job: LaneJob<string> = {
    lane,
    run: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
  };
  return { job, finish };
}

const settle = () => new Promise((ok) => setImmediate(ok));

describe('runInLanes', () => {
  it('runs at most `concurrency` jobs at once, and starts the next as soon as one ends', async () => {
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => gated(name, name, log));
    const results = runInLanes(jobs.map((j) => j.job), 2);
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    jobs[1]!.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    for (const j of jobs) j.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('never overlaps two jobs of one lane, keeps their order, and lets other lanes pass them', async () => {
    const log: string[] = [];
    const first = gated('shared', 'first', log);
    const second = gated('shared', 'second', log);
    const other = gated('own', 'other', log);
    const results = runInLanes([first.job, second.job, other.job], 3);
    await settle();
    expect(log).toEqual(['start first', 'start other']);
    first.finish();
    await settle();
    expect(log).toEqual(['start first', 'start other', 'end first', 'start second']);
    second.finish();
    other.finish();
    expect(await Promise.all(results)).toEqual(['first', 'second', 'other']);
  });

  it('a job that fails rejects its own promise only; the lane goes on', async () => {
    const results = runInLanes<number>([
      { lane: 'x', run: () => Promise.reject(new Error('boom')) },
      { lane: 'x', run: () => { throw new Error('thrown before any await'); } },
      { lane: 'x', run: async () => 3 },
    ], 1);
    await expect(results[0]).rejects.toThrow('boom');
    await expect(results[1]).rejects.toThrow('thrown before any await');
    expect(await results[2]).toBe(3);
  });

  it('refuses a concurrency that is not a whole number of at least 1', () => {
    expect(() => runInLanes([], 0)).toThrow('concurrency must be a whole number, 1 or more, got 0');
  });
});
