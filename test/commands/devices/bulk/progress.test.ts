import { describe, expect, it } from 'vitest';
import { bulkProgress } from '../../../../src/commands/devices/bulk/progress.js';
import { IOStreams } from '../../../../src/io/streams.js';

describe('bulk progress', () => {
  it('on a TTY: done/total, failures and rate on stderr, at most every 100 ms, and the last line kept', () => {
    const io = IOStreams.forTest({ tty: true });
    let now = 0;
    const progress = bulkProgress(io, 'reboot', 4, () => now);
    now = 1000;
    progress.update(1, 0);
    now = 1050;
    progress.update(2, 1); // too soon: not drawn
    now = 2000;
    progress.update(4, 1); // the last one always is
    progress.finish();
    expect(io.stderr()).toBe('\r\u001b[2Kreboot: 1/4 done, 0 failed, 1.0/s\r\u001b[2Kreboot: 4/4 done, 1 failed, 2.0/s\n');
    expect(io.stdout()).toBe('');
  });

  it.each([{ tty: false }, { tty: true, env: { CI: 'true' } }])('nothing when not a terminal or in CI (%j)', (opts) => {
    const io = IOStreams.forTest(opts);
    const progress = bulkProgress(io, 'reboot', 2, () => 5000);
    progress.update(2, 0);
    progress.finish();
    expect(io.stderr()).toBe('');
  });
});
