// What the embedded sandbox records in its state lock as the command holding it: shown to a command that waits in
// another terminal, so it names the command, and never a value that could be a secret.
import { describe, expect, it } from 'vitest';
import { commandOf, embeddedSandboxOptions } from '../../../src/commands/sandbox/embedded.js';

const argv = (...words: string[]) => ['/usr/bin/node', '/usr/lib/fleetctl/bin/fleetctl.js', ...words];

describe('the command an embedded sandbox names as the holder of the world', () => {
  it('is the command line: its words, ids and flags', () => {
    expect(commandOf(argv('--sandbox', 'devices', 'events', 'HW-000001', '--follow'))).toBe('fleetctl --sandbox devices events HW-000001 --follow');
    expect(commandOf(argv('--sandbox', 'devices', 'reboot', '--fleet-id', 'a82784ac-01c6-42cf-869c-62428c14904b', '--wait', '--yes'))).toBe(
      'fleetctl --sandbox devices reboot --fleet-id a82784ac-01c6-42cf-869c-62428c14904b --wait --yes',
    );
  });

  it('leaves out the values of flags that may carry secrets, values given with =, and whatever is not a plain word', () => {
    const shown = commandOf(argv('--sandbox', 'api', 'POST', '/v1/drivers', '--data', 'hunter2', '--idempotency-key', 'k-secret', '--client-secret=s3cr3t', '-H', 'Authorization: Bearer x', '{"a":1}'));
    expect(shown).toBe('fleetctl --sandbox api POST --data --idempotency-key --client-secret -H');
    for (const secret of ['hunter2', 'k-secret', 's3cr3t', 'Bearer', '{"a"']) expect(shown).not.toContain(secret);
  });

  it('is cut after a few words', () => {
    expect(commandOf(argv(...'a b c d e f g h i j'.split(' ')))).toBe('fleetctl a b c d e f g h ...');
  });

  it('is what the sandbox records in its lock, which it holds per request, waiting up to 60 s and saying so after half a second', () => {
    const opts = embeddedSandboxOptions('/home/x/.config/fleetctl', () => undefined);
    expect(opts).toMatchObject({ statePath: '/home/x/.config/fleetctl/sandbox/state.json', shareState: true, stateLockWaitMs: 60_000, lockNoticeAfterMs: 500 });
    expect(opts.lockPurpose).toMatch(/^fleetctl/);
  });
});
