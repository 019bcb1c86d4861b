// Parse table of the waves and --wait flags of reboot and wake-up: what each argv becomes, and the one-line refusal
// of what does not go together (before anything is read or sent).
import { describe, expect, it } from 'vitest';
import { newDevicesRebootCommand } from '../../../src/commands/devices/reboot.js';
import { newDevicesWakeUpCommand } from '../../../src/commands/devices/wake-up.js';
import type { DeviceCommandInvocation } from '../../../src/commands/devices/command-verb.js';
import type { DeviceCommandVerb } from '../../../src/commands/devices/device-command.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../../src/commands/devices/wave-flags.js';
import { fakeDeps, parseVerb } from '../fake-deps.js';

function recordVerb() {
  const calls: DeviceCommandInvocation[] = [];
  return { calls, run: async (_d: unknown, _verb: DeviceCommandVerb, opts: DeviceCommandInvocation) => void calls.push(opts) };
}

describe('devices reboot / wake-up: waves and --wait, parse', () => {
  it('a canary, waves and a brake make even one named device a run (journal, --resume)', async () => {
    const { run, calls } = recordVerb();
    await parseVerb(newDevicesRebootCommand(fakeDeps().deps, run), ['HW-1', '--canary', '1', '--canary-wait', '30s', '--wave', '10%', '--abort-if-failed', '2', '--yes']);
    expect(calls[0]).toMatchObject({ mode: 'bulk', waves: { canary: { count: 1 }, canaryWaitMs: 30_000, wave: { percent: 10 }, abortIfFailed: { count: 2 } }, wait: undefined });
  });

  it('--wait on one device stays single (its key as given); no --wait-timeout leaves the default to the run', async () => {
    const { run, calls } = recordVerb();
    await parseVerb(newDevicesWakeUpCommand(fakeDeps().deps, run), ['HW-1', '--wait', '--idempotency-key', 'k1']);
    expect(calls[0]).toEqual({ mode: 'single', hardwareId: 'HW-1', idempotencyKey: 'k1', yes: false, wait: {} });
    expect(DEFAULT_WAIT_TIMEOUT_MS).toBe(600_000);
  });

  it('--wave-pause, with or without --wait', async () => {
    const { run, calls } = recordVerb();
    await parseVerb(newDevicesRebootCommand(fakeDeps().deps, run), ['HW-1', 'HW-2', '--wave', '1', '--wave-pause', '30s', '--yes']);
    await parseVerb(newDevicesRebootCommand(fakeDeps().deps, run), ['HW-1', 'HW-2', '--wave', '1', '--wave-pause', '2m', '--wait', '--yes']);
    expect(calls[0]).toMatchObject({ mode: 'bulk', waves: { wave: { count: 1 }, wavePauseMs: 30_000 }, wait: undefined });
    expect(calls[1]).toMatchObject({ mode: 'bulk', waves: { wave: { count: 1 }, wavePauseMs: 120_000 }, wait: {} });
  });

  it('--wait over several devices, with a timeout and a report-time field', async () => {
    const { run, calls } = recordVerb();
    await parseVerb(newDevicesRebootCommand(fakeDeps().deps, run), ['HW-1', 'HW-2', '--wait', '--wait-timeout', '2m', '--report-time-field', 'observed_at', '--yes']);
    expect(calls[0]).toMatchObject({ mode: 'bulk', waves: {}, wait: { timeoutMs: 120_000, reportTimeField: 'observed_at' } });
  });

  it.each([
    [['--wait-timeout', '5s'], '--wait-timeout goes with --wait'],
    [['--report-time-field', 'x'], '--report-time-field goes with --wait'],
    [['--canary-wait', '5s'], '--canary-wait needs --canary N'],
    [['--canary', '1', '--canary-wait', '5s', '--wait'], 'give --canary-wait or --wait, not both'],
    [['--canary', '0'], '--canary must be a number of devices such as 20, or a share such as 5%, got "0"'],
    [['--abort-if-failed', '150%'], '--abort-if-failed must be a number of devices such as 20, or a share such as 5%, got "150%"'],
    [['--wait', '--wait-timeout', 'soon'], '--wait-timeout must be a duration such as 5s, 30m, 24h or 7d, got "soon"'],
    [['--canary', '1', '--canary-wait', '2d'], '--canary-wait must be at most 1d'],
    [['--wave-pause', 'later'], '--wave-pause must be a duration such as 5s, 30m, 24h or 7d, got "later"'],
    [['--wait', '--report-time-field', ''], '--report-time-field must not be empty'],
  ])('refuses %j: %s', async (argv, error) => {
    const { run, calls } = recordVerb();
    await expect(parseVerb(newDevicesRebootCommand(fakeDeps().deps, run), ['HW-1', 'HW-2', ...argv, '--yes'])).rejects.toThrow(error);
    expect(calls).toEqual([]);
  });
});
