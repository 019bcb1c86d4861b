// --checkpoint files that can never be kept (a folder that cannot be made or written) are refused when the
// command starts, as usage errors (exit 2), for the status watch and the followed feed alike: not an "unexpected
// failure" (exit 1) at the first save, after the watch has begun or the feed has written events.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WatchCheckpoint } from '../../../src/commands/status/watch-checkpoint.js';
import { FeedCheckpoint } from '../../../src/commands/shared/feed-checkpoint.js';
import { UsageError } from '../../../src/errors.js';
import type { StatusOptions } from '../../../src/commands/status/report.js';
import { tempDir } from '../../support/temp-dir.js';

const opts = { staleAfterMs: 3_600_000, thresholds: [] } as unknown as StatusOptions;

describe('--checkpoint that cannot be written', () => {
  it('a folder that cannot be made: refused on load, naming the flag and the file', async () => {
    // the system refuses any new folder there
    const file = '/proc/fleetctl-no-such-folder/watch.json';
    for (const checkpoint of [new WatchCheckpoint(file, opts), new FeedCheckpoint(file, 'events of HW-1', undefined, () => undefined)]) {
      const failure = await checkpoint.load().then(() => undefined, (error: unknown) => error);
      expect(failure).toBeInstanceOf(UsageError);
      expect((failure as UsageError).message).toBe(`--checkpoint "${file}" cannot be written: cannot create /proc/fleetctl-no-such-folder (the system refuses to create it there, ENOENT)`);
      expect((failure as UsageError).hint).toBe('give a file in a folder you may write to');
    }
  });

  it('a folder to be made, or one that exists: the first run starts with nothing', async () => {
    const dir = tempDir('fleetctl-watch-cp-');
    expect(await new WatchCheckpoint(path.join(dir, 'new', 'watch.json'), opts).load()).toBeUndefined();
    expect(await new FeedCheckpoint(path.join(dir, 'feed.json'), 'events of HW-1', undefined, () => undefined).load()).toBeUndefined();
  });
});
