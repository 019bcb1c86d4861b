// main.ts owns SIGINT/SIGTERM: loading the config store must not leave conf's exit-on-signal hook behind.
import { describe, expect, it } from 'vitest';
import { openConfigStore } from '../../src/config/store.js';
import { loadKeepingSignals } from '../../src/io/signals.js';
import { tempConfigDir } from '../support/cli.js';

const counts = () => ({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') });

describe('loadKeepingSignals', () => {
  it('opening the config store adds no SIGINT or SIGTERM handler', async () => {
    const before = counts();
    await openConfigStore(tempConfigDir());
    expect(counts()).toEqual(before);
  });

  it('takes back only the handlers added while loading', async () => {
    const ours = () => undefined;
    process.on('SIGTERM', ours);
    try {
      const value = await loadKeepingSignals(async () => {
        process.once('SIGINT', () => undefined);
        process.once('SIGTERM', () => undefined);
        return 42;
      });
      expect(value).toBe(42);
      expect(process.listeners('SIGTERM')).toContain(ours);
      expect(process.listeners('SIGTERM').length).toBe(1);
      expect(process.listenerCount('SIGINT')).toBe(0);
    } finally {
      process.removeListener('SIGTERM', ours);
    }
  });
});
