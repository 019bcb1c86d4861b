// The three example scenarios of the README (examples/scenarios/), each started as a user starts it
// (`fleetctl sandbox --scenario FILE`) and used for what it is for.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './harness.js';
import { startCliSandbox } from './cli-sandbox.js';

const example = (name: string) => path.join(ROOT, 'examples/scenarios', name);
const FLEET = '5e1f0000-0000-4000-8000-000000005000';

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('example scenarios', { timeout: 180_000 }, () => {
  it('wake-up gap: a fleet of 5,000 where SLEEPY-0042 lacks wake-up; a bulk wake-up announces and skips it, and wakes the rest once', async () => {
    const sb = await startCliSandbox(['--scenario', example('wake-up-gap.yaml')]);
    try {
      expect(sb.facts.clients.map((c) => c.client_id)).toEqual(['northwind-ops']);
      expect(await sb.json('/_sandbox/health')).toMatchObject({ status: 'ok', devices: 5000, scenario: 'wake-up gap' });
      const listed = await sb.cli('northwind-ops', ['devices', 'list', '--fleet-id', FLEET, '--all', '--limit', '500', '-o', 'ndjson']);
      const devices = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { hardware_id: string; capabilities: string[] });
      expect(devices).toHaveLength(5000);
      expect(devices.filter((d) => !d.capabilities.includes('wake_up')).map((d) => d.hardware_id)).toEqual(['SLEEPY-0042']);
      const run = await sb.cli('northwind-ops', ['devices', 'wake-up', '--fleet-id', FLEET, '--yes', '--max-devices', '5000', '--concurrency', '32', '-o', 'ndjson'], { timeoutMs: 150_000 });
      // the record says it cannot wake up: announced and skipped, not sent
      expect(run.code, run.stderr.slice(-500)).toBe(0);
      expect(run.stderr).toMatch(/1 of the 5000 devices lacks the wake.up capability/);
      expect(run.stderr).toContain('SLEEPY-0042');
      const results = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { hardware_id: string; status: string });
      expect(results).toHaveLength(4999);
      expect(results.every((r) => r.status === 'accepted' && r.hardware_id !== 'SLEEPY-0042')).toBe(true);
      const executed = await sb.json<{ hardware_id: string }[]>('/_sandbox/commands');
      expect(executed).toHaveLength(4999);
      expect(new Set(executed.map((e) => e.hardware_id)).size).toBe(4999);
    } finally {
      expect((await sb.stop()).code).toBe(0);
    }
  });

  it('broken receiver: deliveries to the child tenant fail and are retried; its own client sees only its own tree', async () => {
    const sb = await startCliSandbox(['--scenario', example('broken-receiver.yaml')]);
    try {
      const root = sb.facts.organizations.find((o) => o.name === 'Acme Logistics')!;
      const west = sb.facts.organizations.find((o) => o.name === 'Acme Logistics West')!;
      expect(west.parent_id).toBe(root.id);
      const listed = await sb.cli('west-admin', ['devices', 'list', '--all', '-o', 'ndjson']);
      expect(listed.stdout.trim().split('\n')).toHaveLength(25);
      const config = await sb.cli('west-admin', ['webhook-config', 'get', '--org', west.id, '-o', 'json']);
      expect(JSON.parse(config.stdout)).toMatchObject({ is_enabled: true });
      const emitted = await sb.cli('west-admin', ['sandbox', 'emit', 'alarm.triggered', '--organization-id', west.id, '-o', 'json']);
      expect(JSON.parse(emitted.stdout)).toEqual([expect.objectContaining({ destinations: 1 })]);
      const failing = await until('a failed delivery attempt', async () =>
        (await sb.json<{ url: string; outcome: string; reason: string | null }[]>('/_sandbox/deliveries')).find((d) => d.url.includes('broken-receiver.invalid')),
      );
      expect(failing.outcome).toBe('retrying');
      expect(failing.reason).toMatch(/hooks\.broken-receiver\.invalid/);
    } finally {
      expect((await sb.stop()).code).toBe(0);
    }
  });

  it('reboot-only client: it may reboot a device, and is refused a token for anything else (exit 3)', async () => {
    const sb = await startCliSandbox(['--scenario', example('reboot-only-client.yaml')]);
    try {
      const bot = sb.facts.clients.find((c) => c.client_id === 'reboot-bot')!;
      expect(bot.scopes).toEqual(['thirdparty.api.device_commands_reboot']);
      const reboot = await sb.cli('reboot-bot', ['devices', 'reboot', 'HW-000001', '--yes', '--idempotency-key', 'once', '-o', 'json']);
      expect(reboot.code, reboot.stderr).toBe(0);
      expect(JSON.parse(reboot.stdout)).toMatchObject({ hardware_id: 'HW-000001', status: 'accepted' });
      const list = await sb.cli('reboot-bot', ['devices', 'list']);
      expect(list.code).toBe(3);
      expect(list.stderr).toMatch(/invalid_scope/);
      const tokens = await sb.json<{ client_id: string; status: number }[]>('/_sandbox/requests?operation_id=requestToken&client_id=reboot-bot');
      expect(tokens.map((t) => t.status)).toEqual([200, 400]);
    } finally {
      expect((await sb.stop()).code).toBe(0);
    }
  });

  it('a scenario that does not fit: one line naming the file and the member, exit 2, nothing started', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-bad-scenario-'));
    try {
      const file = path.join(dir, 'world.yaml');
      writeFileSync(file, 'base: empty\ndevices:\n  - fleet: vans\n    capabilities: [reboot, wakeup]\n');
      const result = await runCli(['sandbox', '--port', '0', '--scenario', file], { env: { FLEETCTL_CONFIG_DIR: dir } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(`Error: ${file}: devices[0].capabilities[1]: must be one of reboot, wake_up`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the README shows each example scenario as it is in examples/scenarios/', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const name of ['wake-up-gap.yaml', 'broken-receiver.yaml', 'reboot-only-client.yaml']) {
      expect(readme).toContain(readFileSync(example(name), 'utf8').trim());
    }
  });
});
