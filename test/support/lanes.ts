// Runs slow, independent jobs (subprocesses, mostly) a few at a time instead of one after another. Jobs that
// share state are put in one lane: a lane runs its jobs one at a time, in the order given, while other lanes
// run beside it. Each job's result is a promise of its own, so a test can await just the job it checks.

export interface LaneJob<T> {
  /** Jobs with the same lane never overlap and start in the order given. */
  lane: string;
  run: () => Promise<T>;
}

/**
 * Starts the jobs at once, at most `concurrency` at a time; picks, whenever a slot frees, the first job not yet
 * started whose lane is idle. The returned promises are in the order of `jobs`; a job that throws rejects its
 * own promise only.
 */
export function runInLanes<T>(jobs: LaneJob<T>[], concurrency: number): Promise<T>[] {
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new RangeError(`concurrency must be a whole number, 1 or more, got ${concurrency}`);
  const settlers = jobs.map(() => {
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<T>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    // a failure is reported by whoever awaits the job; until then it must not count as unhandled
    promise.catch(() => undefined);
    return { promise, resolve, reject };
  });
  const pending = jobs.map((_, i) => i);
  const busyLanes = new Set<string>();
  let running = 0;

  const startNext = (): void => {
    while (running < concurrency) {
      const at = pending.findIndex((i) => !busyLanes.has(jobs[i]!.lane));
      if (at < 0) return;
      const [index] = pending.splice(at, 1) as [number];
      const job = jobs[index]!;
      busyLanes.add(job.lane);
      running++;
      void (async () => {
        try {
          settlers[index]!.resolve(await job.run());
        } catch (error) {
          settlers[index]!.reject(error);
        } finally {
          busyLanes.delete(job.lane);
          running--;
          startNext();
        }
      })();
    }
  };
  startNext();
  return settlers.map((s) => s.promise);
}
