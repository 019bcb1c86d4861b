// sandbox (foreground): what it says at start about webhooks, --allow-private-webhooks loudest of all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxOptionsFrom, sandboxStartRun } from '../../../src/commands/sandbox/start.js';
import type { Deps } from '../../../src/factory.js';
import { fakeDeps } from '../fake-deps.js';

const flags = { host: '127.0.0.1', port: '0', devices: '20' };

/** Starts the sandbox with `extra` flags and stops it at once (the signal is already aborted). */
async function startAndStop(extra: Record<string, unknown>, json: boolean) {
  const f = fakeDeps({ tty: false });
  const controller = new AbortController();
  controller.abort();
  await sandboxStartRun({ ...f.deps, signal: controller.signal } as Deps, sandboxOptionsFrom({ ...flags, ...extra }), json);
  return f;
}

describe('sandbox: start-up message about webhooks', () => {
  const WARNING = 'WARNING: --allow-private-webhooks is on';
  it.each([false, true])('with --allow-private-webhooks the warning is said once, before "ready" (json %s)', async (json) => {
    const f = await startAndStop({ allowPrivateWebhooks: true }, json);
    expect(f.io.stderr().split(WARNING)).toHaveLength(2);
    expect(f.io.stderr().indexOf(WARNING)).toBeLessThan(f.io.stderr().indexOf('Sandbox ready'));
    if (json) expect(JSON.parse(f.io.stdout())).toHaveProperty('base_url');
    else expect(f.io.stdout()).toMatch(/^ {2}Webhooks: address checks OFF;/m);
  });

  it('without it: no warning; the facts say the checks are on, the propagation window and the emit rate', async () => {
    const f = await startAndStop({ propagation: '1500', emitRate: '2' }, false);
    expect(f.io.stderr()).not.toContain('WARNING');
    expect(f.io.stdout()).toContain('  Webhooks: public https only; changes take 1500 ms; timed events: 2 per second\n');
  });
});

describe('sandbox: webhook flags', () => {
  it.each([['0', 0], ['0.5', 0.5], ['20', 20]])('--emit-rate %s', (value, rate) => {
    expect(sandboxOptionsFrom({ ...flags, emitRate: value }).emitRatePerSecond).toBe(rate);
  });
  it.each(['-1', 'x', '', '10001', '9007199254740993'])('--emit-rate %j is refused', (value) => {
    expect(() => sandboxOptionsFrom({ ...flags, emitRate: value })).toThrow(`--emit-rate must be a number of events per second, 0 or more (at most 10000), got "${value}"`);
  });
  it.each([
    ['faultRate', '--fault-rate', 'a number from 0 to 1'],
    ['rateLimit', '--rate-limit', 'a positive number'],
  ] as const)('a blank %s is refused, not taken as 0', (key, flag, what) => {
    for (const value of ['', '  ']) expect(() => sandboxOptionsFrom({ ...flags, [key]: value })).toThrow(`${flag} must be ${what}, got "${value}"`);
    expect(sandboxOptionsFrom({ ...flags, faultRate: '0' }).faultRate).toBe(0);
  });
  it.each([['0', 0], ['60000', 60_000]])('--propagation %s', (value, ms) => {
    expect(sandboxOptionsFrom({ ...flags, propagation: value }).propagationMs).toBe(ms);
  });
  it('--propagation above the spec limit of 60 s is refused', () => {
    expect(() => sandboxOptionsFrom({ ...flags, propagation: '60001' })).toThrow('--propagation must be a whole number from 0 to 60000, got "60001"');
  });
});

describe('sandbox: scenario, faults, telemetry and journal flags', () => {
  it('maps them to the one options type of the sandbox', () => {
    expect(sandboxOptionsFrom({ ...flags, scenario: 'world.yaml', fault: 'faults.yaml', telemetryRate: '2.5', journalSize: '50' })).toMatchObject({
      scenarioFile: 'world.yaml', faultFile: 'faults.yaml', telemetryRatePerSecond: 2.5, journalSize: 50,
    });
    expect(sandboxOptionsFrom(flags)).toMatchObject({ telemetryRatePerSecond: undefined, journalSize: 1000 });
  });
  it.each([
    [{ telemetryRate: '-1' }, '--telemetry-rate must be a number of events per second, 0 or more (at most 10000), got "-1"'],
    [{ telemetryRate: '10001' }, '--telemetry-rate must be a number of events per second, 0 or more (at most 10000), got "10001"'],
    [{ journalSize: '0' }, '--journal-size must be a whole number from 1 to 10000, got "0"'],
  ])('%j is refused', (extra, message) => {
    expect(() => sandboxOptionsFrom({ ...flags, ...extra })).toThrow(message);
  });
  it('a scenario file that does not fit is one line naming the file and the member (exit 2), before anything listens', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-start-'));
    try {
      const file = path.join(dir, 'world.yaml');
      writeFileSync(file, 'devices:\n  - fleet: nowhere\n');
      await expect(startAndStop({ scenario: file }, true)).rejects.toMatchObject({ exitCode: 2, message: `${file}: devices[0].fleet: no fleet nowhere (define it under fleets)` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('the facts name the control routes, the world, telemetry and the journal; at most 15 lines in all, the export lines last', async () => {
    const f = await startAndStop({ telemetryRate: '3', journalSize: '20' }, false);
    expect(f.io.stdout()).toMatch(/^Fleet API sandbox: OpenAPI \/openapi\/v1\.json, tokens \/connect\/token\n {2}Control routes: \/_sandbox\/openapi\.json \(faults, emit, the last 20 requests\)\n/);
    expect(f.io.stdout()).toContain('  World: seeded (--scenario FILE); telemetry: 3 device reports per second\n');
    const stdout = f.io.stdout().trimEnd().split('\n');
    expect(stdout.slice(-5).every((line) => line.startsWith('  export FLEETCTL_'))).toBe(true);
    // stderr ends with "Sandbox stopped." here (the signal was aborted at once): not part of the banner
    const banner = stdout.length + f.io.stderr().trimEnd().split('\n').length - 1;
    expect(banner).toBeLessThanOrEqual(15);
  });
});
