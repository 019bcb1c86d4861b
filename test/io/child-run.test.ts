// The signals fleetctl passes on to a program it runs (an extension, a --shell alias): one sent the moment the
// program is running reached fleetctl while its own handlers were being swapped for the forwarding one, and was
// lost (the extension ran on, fleetctl waited for it for ever: test/e2e/extensions.test.ts, 1 run in 6).
import { afterEach, describe, expect, it } from 'vitest';
import { forwardSignals } from '../../src/io/child-run.js';

const own = () => undefined;

afterEach(() => {
  process.removeListener('SIGTERM', own);
});

describe('forwardSignals', () => {
  it('keeps a signal that comes before the program is there, and hands it over once it is', () => {
    const forwarding = forwardSignals();
    try {
      process.emit('SIGTERM', 'SIGTERM');
      const got: string[] = [];
      forwarding.attach({ kill: (signal) => got.push(signal) > 0 });
      expect(got).toEqual(['SIGTERM']);
      process.emit('SIGHUP', 'SIGHUP');
      expect(got).toEqual(['SIGTERM', 'SIGHUP']);
    } finally {
      forwarding.restore();
    }
  });

  it('never leaves a signal without a listener, and puts fleetctl\'s own back', () => {
    process.on('SIGTERM', own);
    const counts: number[] = [];
    const watch = (event: string | symbol) => event === 'SIGTERM' && counts.push(process.listenerCount('SIGTERM'));
    process.on('removeListener', watch);
    try {
      const forwarding = forwardSignals();
      expect(process.listeners('SIGTERM')).not.toContain(own);
      forwarding.restore();
    } finally {
      process.removeListener('removeListener', watch);
    }
    expect(process.listeners('SIGTERM')).toContain(own);
    expect(counts.length).toBeGreaterThan(0);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });
});
