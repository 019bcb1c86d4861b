// The README's quick start runs as written. `.ci/quickstart` runs its first block in CI whole (`npm ci` and
// `npm link` included, timed); here every fleetctl line of the section runs as a new user types it, with the
// built CLI on PATH as `npm link` puts it, and prints what the README promises.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './harness.js';
import { fleetctlOnPath, runExample } from './examples.js';

function quickStartBlocks(): string[][] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Quick start.*$/m)[1]!.split(/^## /m)[0]!;
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim().split('\n'));
}

const [first, more] = quickStartBlocks();
const shimDir = fleetctlOnPath();
afterAll(() => rmSync(shimDir, { recursive: true, force: true }));

const run = (command: string) => runExample({ command }, { env: {}, shimDir });

describe('README quick start', () => {
  it('installs with npm ci, puts fleetctl on PATH without a first npx, then lists devices', () => {
    expect(first).toEqual(['npm ci', 'npm link --ignore-scripts', 'fleetctl --sandbox devices list']);
    expect(more!.every((line) => line.startsWith('fleetctl --sandbox '))).toBe(true);
  });

  it('fleetctl --sandbox devices list: a table of the seeded devices', { timeout: 60_000 }, async () => {
    const o = await run(first![2]!);
    expect(o.code, o.stderr).toBe(0);
    const [header, ...rows] = o.stdout.trim().split('\n');
    expect(header!.split('\t')).toEqual(expect.arrayContaining(['hardware_id', 'name']));
    expect(rows.length).toBeGreaterThan(5);
    expect(o.stdout).toContain('HW-000001');
  });

  it('the next three: fleets, three devices as NDJSON, chosen columns', { timeout: 90_000 }, async () => {
    const [fleets, ndjson, columns] = await Promise.all(more!.map(run));
    expect(fleets!.code, fleets!.stderr).toBe(0);
    expect(fleets!.stdout.trim().split('\n').length).toBeGreaterThan(1);
    expect(ndjson!.code, ndjson!.stderr).toBe(0);
    const lines = ndjson!.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect((JSON.parse(line) as { hardware_id: string }).hardware_id).toMatch(/^HW-\d{6}$/);
    expect(columns!.code, columns!.stderr).toBe(0);
    const [header, ...rows] = columns!.stdout.trim().split('\n');
    expect(header).toBe('hardware_id\tname\tcapabilities');
    expect(rows).toHaveLength(5);
  });
});
