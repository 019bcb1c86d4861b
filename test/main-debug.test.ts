// --debug shows the stack of an unexpected failure: read by commander with every other option (not from argv by
// hand), also when the failure comes while commander parses.
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { IOStreams } from '../src/io/streams.js';
import type { Clock } from '../src/io/clock.js';
import { ciEnv, tempConfigDir } from './support/cli.js';
import { absentKeychain } from './support/keychain.js';

/** A clock that fails as a bug would: a plain Error, not one of fleetctl's typed ones. */
const brokenClock: Clock = {
  now: () => {
    throw new Error('clock exploded');
  },
  sleep: async () => undefined,
};

async function run(args: string[], clock: Clock = brokenClock) {
  const io = IOStreams.forTest({ tty: false, stdin: '' });
  const env = ciEnv(tempConfigDir());
  const code = await main(['node', 'fleetctl', ...args], { io, env, clock, keychain: absentKeychain(), signal: new AbortController().signal });
  return { code, stderr: io.stderr() };
}

describe('--debug and unexpected failures', () => {
  it('prints the stack with --debug, wherever the flag stands', async () => {
    for (const args of [['--debug', 'events', 'search', '--since', '1d'], ['events', 'search', '--since', '1d', '--debug']]) {
      const result = await run(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('unexpected failure: clock exploded');
      expect(result.stderr).toMatch(/\n\s+at /);
      expect(result.stderr).not.toContain('run again with --debug');
    }
  });

  it('without --debug: one line and the hint, no stack', async () => {
    const result = await run(['events', 'search', '--since', '1d']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('run again with --debug for details');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('honours --debug for a failure while commander parses, even after an unknown flag', async () => {
    // a theme that fails once breaks what commander asks of fleetctl while it parses: painting its own error
    const io = IOStreams.forTest({ tty: false, stdin: '' });
    const theme = io.errTheme.bind(io);
    let failed = false;
    io.errTheme = () => {
      if (failed) return theme();
      failed = true;
      throw new Error('theme exploded');
    };
    const code = await main(['node', 'fleetctl', '--no-such-flag', '--debug'], { io, env: ciEnv(tempConfigDir()), keychain: absentKeychain(), signal: new AbortController().signal });
    expect(code).toBe(1);
    expect(io.stderr()).toContain('unexpected failure: theme exploded');
    expect(io.stderr()).toMatch(/\n\s+at /);
  });
});
