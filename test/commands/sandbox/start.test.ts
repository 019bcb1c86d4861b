// sandbox (foreground): what it says at start about webhooks, --allow-private-webhooks loudest of all.
import { describe, expect, it } from 'vitest';
import { PRIVATE_WEBHOOKS_WARNING, sandboxOptionsFrom, sandboxStartRun } from '../../../src/commands/sandbox/start.js';
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
  it.each([false, true])('with --allow-private-webhooks the warning is repeated just before "ready" (json %s)', async (json) => {
    const f = await startAndStop({ allowPrivateWebhooks: true }, json);
    expect(f.io.stderr()).toContain(`${PRIVATE_WEBHOOKS_WARNING}\nSandbox ready. Press Ctrl-C to stop.\n`);
    if (json) expect(JSON.parse(f.io.stdout())).toHaveProperty('base_url');
    else expect(f.io.stdout()).toMatch(/Webhooks:\n {2}Address checks: {3}OFF \(--allow-private-webhooks\)/);
  });

  it('without it: no warning; the readable facts say the checks are on, the propagation window and the emit rate', async () => {
    const f = await startAndStop({ propagation: '1500', emitRate: '2' }, false);
    expect(f.io.stderr()).not.toContain('WARNING');
    expect(f.io.stdout()).toContain('  Address checks:   on: public https destinations only\n');
    expect(f.io.stdout()).toContain('  Propagation:      1500 ms for configuration changes and key rotations\n');
    expect(f.io.stdout()).toContain('  Timed events:     2 per second; on demand: fleetctl sandbox emit TYPE\n');
  });
});

describe('sandbox: webhook flags', () => {
  it.each([['0', 0], ['0.5', 0.5], ['20', 20]])('--emit-rate %s', (value, rate) => {
    expect(sandboxOptionsFrom({ ...flags, emitRate: value }).emitRatePerSecond).toBe(rate);
  });
  it.each(['-1', 'x', ''])('--emit-rate %j is refused', (value) => {
    expect(() => sandboxOptionsFrom({ ...flags, emitRate: value })).toThrow(`--emit-rate must be a number of events per second, 0 or more, got "${value}"`);
  });
  it.each([['0', 0], ['60000', 60_000]])('--propagation %s', (value, ms) => {
    expect(sandboxOptionsFrom({ ...flags, propagation: value }).propagationMs).toBe(ms);
  });
  it('--propagation above the spec limit of 60 s is refused', () => {
    expect(() => sandboxOptionsFrom({ ...flags, propagation: '60001' })).toThrow('--propagation must be a whole number from 0 to 60000, got "60001"');
  });
});
