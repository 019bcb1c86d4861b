// Progress of a bulk run on stderr, only on a terminal: done/total, failures, rate.
import type { IOStreams } from '../../../io/streams.js';

export interface BulkProgress {
  update(done: number, failed: number): void;
  finish(): void;
}

export function bulkProgress(io: IOStreams, label: string, total: number, now: () => number = Date.now): BulkProgress {
  if (!io.progressEnabled()) return { update() {}, finish() {} };
  const started = now();
  let shownAt = 0;
  let last = '';
  const draw = (done: number, failed: number) => {
    const seconds = Math.max(0.001, (now() - started) / 1000);
    last = `${label}: ${done}/${total} done, ${failed} failed, ${(done / seconds).toFixed(1)}/s`;
    io.err.write(`\r\u001b[2K${last}`);
  };
  return {
    update(done, failed) {
      if (now() - shownAt < 100 && done < total) return;
      shownAt = now();
      draw(done, failed);
    },
    finish() {
      if (last) io.err.write('\n');
    },
  };
}
