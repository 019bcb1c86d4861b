// The README's runbook "Rebooting a fleet safely" runs as written, in one shell, against a sandbox whose first
// device of the fleet never comes back after a reboot (scenario device_reporting): the dry run shows the plan, the
// canary trips the brake (exit 11), the resume sends the rest, and every device ends in the results once.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath, runExample } from './examples.js';

/** The runbook: the sh block of the README's "Rebooting a fleet safely", whole. */
function runbook(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^### Rebooting a fleet safely$/m)[1]!.split(/^##/m)[0]!;
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!;
}

let h: SandboxHarness;
let shimDir: string;
let fleet: string;
let devices: string[];

beforeAll(async () => {
  h = await startHarness({ devices: 60 });
  shimDir = fleetctlOnPath();
  // a fleet with a few devices that can reboot; the first of them (the canary) will never come back
  const listed = await h.cli(['devices', 'list', '--all', '-o', 'ndjson']);
  const records = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { hardware_id: string; fleet_id: string; capabilities: string[] });
  const byFleet = new Map<string, string[]>();
  for (const d of records) if (d.capabilities.includes('reboot')) byFleet.set(d.fleet_id, [...(byFleet.get(d.fleet_id) ?? []), d.hardware_id]);
  [fleet, devices] = [...byFleet.entries()].find(([, ids]) => ids.length >= 4 && ids.length <= 12)!;
  const scenario = { name: 'runbook', device_reporting: { reboot_downtime_ms: 300, reboot_jitter_ms: 100, never_back: [devices[0]] } };
  const loaded = await fetch(`${h.sandbox.baseUrl}/_sandbox/scenario`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scenario) });
  expect(loaded.status).toBeLessThan(300);
}, 60_000);

afterAll(async () => {
  await h?.close();
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

describe('README runbook: Rebooting a fleet safely', () => {
  it('runs as written: plan, canary not back (exit 11), resume, every device once', { timeout: 60_000 }, async () => {
    const o = await runExample({ command: runbook() }, { env: { ...h.envFor(), FLEET: fleet, BACK_WITHIN: '2s' }, shimDir });
    const said = `exit ${o.code}\nstdout:\n${o.stdout}\nstderr:\n${o.stderr}`;
    expect(o.code, said).toBe(0);
    // step 2: the plan
    expect(o.stderr, said).toContain('Canary: 1 device, then wait until it is back');
    expect(o.stderr, said).toContain('Brake: before each wave, stop once 10% of the devices sent so far failed or did not come back');
    // step 3: the brake, as the log's last lines say it
    expect(o.stdout, said).toMatch(/Error: Reboot run \S+ stopped by its brake: 1 of 1 device sent so far failed or did not come back \(--abort-if-failed 10%\); sent to 1 of \d+ devices/);
    // step 4: the device not back, then the resume; step 5: each device once
    // the dry run's rows are hardware_id, command, key: step 5's are hardware_id, status, wait, back_after_s
    const rows = o.stdout.split('\n').map((l) => l.split('\t')).filter((r) => r.length === 4 && r[1] !== 'reboot');
    expect(rows.map((r) => r[0]).sort(), said).toEqual([...devices].sort());
    expect(rows.find((r) => r[0] === devices[0])!.slice(1, 3)).toEqual(['accepted', 'not_back']);
    for (const r of rows.filter((r) => r[0] !== devices[0])) expect(r.slice(1, 3), said).toEqual(['accepted', 'back']);
    expect(o.stdout.trim().split('\n').at(-1)).toBe('exit 0');
    // exactly once, by the sandbox's own log
    const executed = (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string }[];
    expect(executed.map((c) => c.hardware_id).sort()).toEqual([...devices].sort());
  });
});
