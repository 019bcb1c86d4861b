// The README's section "Acting on devices by condition" runs as written, in one shell: against a sandbox (the
// stale devices of one fleet rebooted in waves with --wait, each executed once by the sandbox's own log), and the
// same lines against the second service double, whose records name their members otherwise (title, reported_at,
// firmware.version, no capabilities): its lines for the sandbox are pointed at the double, their member names
// translated, and the run over its stale fleet sends each device one reboot. Needs `npm run build` first.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath, runExample } from './examples.js';
import { startSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

/** The section's sh blocks, whole and in order, and what the reboot run wrote. */
function section(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const part = readme.split(/^### Acting on devices by condition$/m)[1]!.split(/^##/m)[0]!;
  const blocks = [...part.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1]!);
  // the first failing line ends the script, and says which it was
  return `set -e\n${blocks.join('\n')}\ncat stale-rebooted.ndjson`;
}

type Result = { hardware_id: string; status: string; wait: string };
const resultsOf = (stdout: string) => stdout.trim().split('\n').filter((line) => line.startsWith('{"hardware_id"')).map((line) => JSON.parse(line) as Result);

let shimDir: string;
beforeAll(() => {
  shimDir = fleetctlOnPath();
});
afterAll(() => {
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

describe('README: Acting on devices by condition, against the sandbox', () => {
  let h: SandboxHarness;
  let fleet: string;
  let stale: string[];
  beforeAll(async () => {
    h = await startHarness({ devices: 60 });
    const devices = JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as { hardware_id: string; fleet_id: string; capabilities: string[]; last_seen_at: string | null }[];
    const fleets = JSON.parse((await h.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
    const staleOf = (id: string) => devices.filter((d) => d.fleet_id === id && d.capabilities.includes('reboot') && typeof d.last_seen_at === 'string' && Date.now() - Date.parse(d.last_seen_at) > 2 * 3_600_000);
    const chosen = fleets.find((f) => staleOf(f.id).length >= 3 && staleOf(f.id).length <= 12)!;
    [fleet, stale] = [chosen.name, staleOf(chosen.id).map((d) => d.hardware_id).sort()];
    // devices report again soon after a reboot, so --wait sees each back
    const scenario = { name: 'where-readme', device_reporting: { reboot_downtime_ms: 300, reboot_jitter_ms: 100 } };
    const loaded = await fetch(`${h.sandbox.baseUrl}/_sandbox/scenario`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scenario) });
    expect(loaded.status).toBeLessThan(300);
  }, 60_000);
  afterAll(() => h?.close());

  it('runs as written: the stale devices of the fleet rebooted in waves, each back, each executed once', { timeout: 120_000 }, async () => {
    const o = await runExample({ command: section() }, { env: { ...h.envFor(), FLEET: fleet }, shimDir });
    const said = `exit ${o.code}\nstdout:\n${o.stdout}\nstderr:\n${o.stderr}`;
    expect(o.code, said).toBe(0);
    expect(o.stderr, said).toContain('Canary: 1 device, then wait until it is back');
    const results = resultsOf(o.stdout);
    // every stale device the fleet has that can reboot (one reported within the last two hours may have gone stale since: at least those)
    expect(results.every((r) => r.status === 'accepted' && r.wait === 'back'), said).toBe(true);
    expect(results.map((r) => r.hardware_id).sort(), said).toEqual(expect.arrayContaining(stale));
    const executed = (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string; command: string }[];
    const rebooted = executed.filter((c) => c.command === 'reboot').map((c) => c.hardware_id).sort();
    expect(rebooted, said).toEqual(results.map((r) => r.hardware_id).sort());
  });
});

describe('README: Acting on devices by condition, against the second service double', () => {
  let h: SecondHarness;
  beforeAll(async () => {
    h = await startSecondHarness();
  }, 60_000);
  afterAll(() => h?.close());

  it('the same lines, pointed at the double and in its members\' names: its stale fleet rebooted in waves, each device once', { timeout: 180_000 }, async () => {
    const script = section()
      // the sandbox's lines go to the double, as a profile's would
      .replaceAll('fleetctl --sandbox ', 'fleetctl ')
      // the double's fleet, and its names for the members the sandbox calls otherwise
      .replaceAll('North Delivery 1', 'Northern haulage')
      .replaceAll('firmware_version', 'firmware.version')
      .replaceAll('last_seen_at', 'reported_at');
    const o = await runExample({ command: script }, { env: { ...h.svc.envFor(h.svc.clients.admin, h.configDir), FLEET: 'City couriers' }, shimDir });
    const said = `exit ${o.code}\nstdout:\n${o.stdout.slice(-3000)}\nstderr:\n${o.stderr.slice(-6000)}`;
    expect(o.code, said).toBe(0);
    const results = resultsOf(o.stdout);
    // City couriers: TLM-00100 to TLM-00219, all reported 100 to 219 minutes ago
    const couriers = h.svc.state.devices.filter((d) => d.hardware_id >= 'TLM-00100' && d.hardware_id <= 'TLM-00219').map((d) => d.hardware_id).sort();
    expect(results.map((r) => r.hardware_id).sort(), said).toEqual(couriers);
    expect(results.every((r) => r.wait === 'back'), said).toBe(true);
    const reboots = h.svc.requests.filter((q) => q.method === 'POST' && /\/reboot$/.test(q.path)).map((q) => q.path).sort();
    expect(reboots.length, said).toBe(couriers.length);
    expect(new Set(reboots).size).toBe(couriers.length);
  });
});
