// Issue 37, point 5: a bulk verb's picker on a terminal can start from a selection. With saved selections in the
// profile, `devices reboot` with nothing named first offers them (and a condition typed); the devices chosen so are
// listed ticked, to untick some, then the usual question. The built CLI in a pseudo-terminal of 80 columns against
// a sandbox, driven by keystrokes. Needs `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';
import { KEY, runInPty, type PtyRun } from '../support/pty-keys.js';

interface Device {
  hardware_id: string;
  fleet_id: string;
  capabilities: string[];
}

let h: SandboxHarness;
let expected: string[];
let fleetName: string;
const running: PtyRun[] = [];

beforeAll(async () => {
  h = await startHarness({ devices: 40 });
  const devices = JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as Device[];
  const fleets = JSON.parse((await h.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
  // the fleet with the most devices that can reboot
  const capable = (fleet: { id: string }) => devices.filter((d) => d.fleet_id === fleet.id && d.capabilities.includes('reboot')).map((d) => d.hardware_id);
  const fleet = [...fleets].sort((a, b) => capable(b).length - capable(a).length)[0]!;
  [fleetName, expected] = [fleet.name, capable(fleet).sort()];
  expect(expected.length).toBeGreaterThan(2);
  expect((await h.cli(['selection', 'save', 'north-reboot', '--where', `fleet:"${fleet.name}" has:reboot`])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const run of running) run.kill();
  await h?.close();
});

function cli(args: string[]): PtyRun {
  const run = runInPty(args, { env: h.envFor(), cols: 80, rows: 30 });
  running.push(run);
  return run;
}

const commandsSent = async () => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string; command: string }[];

describe('a bulk picker that starts from a selection', { timeout: 90_000 }, () => {
  it('devices reboot with nothing named: @NAME chosen, its devices listed ticked, Enter, yes: exactly they are rebooted', async () => {
    const before = (await commandsSent()).length;
    const run = cli(['devices', 'reboot']);
    await run.waitFor(/start from \(type a condition, or choose\)/);
    // one by one stays the first line, under the cursor
    await run.waitFor(/^❯ Every device, ticked one by one/);
    run.type('north');
    await run.waitFor(/^❯ @north-reboot {2}fleet:/);
    run.type(KEY.enter);
    await run.waitFor(/Devices to reboot \(@north-reboot\)/);
    // the list rendered, every device of the selection ticked, before Enter
    await run.waitFor(new RegExp(`${expected.length} ticked`));
    await run.waitFor(new RegExp(`◉ ${expected[0]}`));
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.enter);
    // the question may wrap at 80 columns (its sample of devices is long): its rows are read as one
    await run.waitFor(/\(y\/N\)/);
    expect(run.history().join('')).toContain(`Reboot ${expected.length} devices (${expected[0]}, `);
    run.type('y');
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const sent = (await commandsSent()).slice(before);
    expect(sent.map((c) => c.hardware_id).sort()).toEqual(expected);
    expect(sent.every((c) => c.command === 'reboot')).toBe(true);
  });

  it('a condition typed: its devices ticked, one unticked with space; the question counts the rest, and no sends nothing', async () => {
    const before = (await commandsSent()).length;
    const run = cli(['devices', 'reboot']);
    await run.waitFor(/^❯ Every device, ticked one by one/);
    run.type(`fleet:"${fleetName}" has:reboot`);
    await run.waitFor(/^❯ Devices where fleet:/);
    run.type(KEY.enter);
    await run.waitFor(/Devices to reboot \(where fleet:/);
    await run.waitFor(new RegExp(`◉ ${expected[0]}`));
    await run.waitFor(new RegExp(`${expected.length} ticked`));
    // the cursor is on the first device: space unticks it
    run.type(KEY.space);
    await run.waitFor(new RegExp(`${expected.length - 1} ticked`));
    run.type(KEY.enter);
    await run.waitFor(/\(y\/N\)/);
    expect(run.history().join('')).toContain(`Reboot ${expected.length - 1} devices (${expected[1]}, `);
    run.type('n');
    run.type(KEY.enter);
    expect(await run.exit).toBe(2);
    expect((await commandsSent()).length).toBe(before);
  });

  it('a condition with a mistake: exit 2, naming what it may have meant, before any device is listed', async () => {
    const run = cli(['devices', 'reboot']);
    await run.waitFor(/^❯ Every device, ticked one by one/);
    run.type('last_sen_at:>2h');
    await run.waitFor(/^❯ Devices where last_sen_at/);
    run.type(KEY.enter);
    expect(await run.exit).toBe(2);
    expect(run.history().join('')).toContain('did you mean last_seen_at?');
  });

  it('devices assign with nothing named: @NAME chosen, then the vehicle picked; every device of it goes on that vehicle', async () => {
    const vehicle = (JSON.parse((await h.cli(['vehicles', 'list', '--limit', '1', '-o', 'json'])).stdout) as { id: string }[])[0]!.id;
    const run = cli(['devices', 'assign']);
    await run.waitFor(/start from \(type a condition, or choose\)/);
    await run.waitFor(/^❯ One device, picked from the list/);
    run.type('north');
    await run.waitFor(/^❯ @north-reboot {2}fleet:/);
    run.type(KEY.enter);
    await run.waitFor(/Vehicle \(type a name or plate\)/);
    // Enter once the first page of vehicles is listed
    await run.waitFor(/^❯ (?!@)/);
    run.type(KEY.enter);
    await run.waitFor(/\(y\/N\)/);
    expect(run.history().join('')).toContain(`Assign ${expected.length} devices (${expected[0]} → ${vehicle}`);
    run.type('y');
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    // by hardware id: an assignment may move a device into its vehicle's fleet (out of the selection)
    const all = JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as { hardware_id: string; vehicle_id: string }[];
    expect(all.filter((d) => expected.includes(d.hardware_id)).map((d) => d.vehicle_id)).toEqual(expected.map(() => vehicle));
  });

  // after the assignment above: every device it assigned is on a vehicle (maybe now of another fleet, so named by
  // hardware id)
  it('devices unassign with nothing named: a condition typed, yes: every device it selects is off its vehicle', async () => {
    const run = cli(['devices', 'unassign']);
    await run.waitFor(/Devices to unassign: start from \(type a condition, or choose\)/);
    await run.waitFor(/^❯ One device, picked from the list/);
    run.type(`hardware_id:${expected.join(',')}`);
    await run.waitFor(/^❯ Devices where hardware_id:/);
    run.type(KEY.enter);
    await run.waitFor(/\(y\/N\)/);
    expect(run.history().join('')).toContain(`Unassign ${expected.length} devices (`);
    run.type('y');
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const all = JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as { hardware_id: string; vehicle_id?: string | null }[];
    expect(all.filter((d) => expected.includes(d.hardware_id)).map((d) => d.vehicle_id ?? null)).toEqual(expected.map(() => null));
  });
});
