// Pickers in a real terminal: the built CLI in a pseudo-terminal against a sandbox, driven by keystrokes, the
// screen read back through a terminal emulator. Needs `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';
import { KEY, runInPty, type PtyRun } from '../support/pty-keys.js';

interface Device {
  id: string;
  hardware_id: string;
  capabilities: string[];
}

let h: SandboxHarness;
let devices: Device[];
const running: PtyRun[] = [];

beforeAll(async () => {
  // more devices than a picker reads while searching, so a find through the API's own filter shows
  h = await startHarness({ devices: 1500 });
  const listed = await h.cli(['devices', 'list', '--all', '--limit', '500', '-o', 'ndjson']);
  devices = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Device);
}, 60_000);

afterAll(async () => {
  for (const run of running) run.kill();
  await h?.close();
});

function cli(args: string[], cols: number): PtyRun {
  const run = runInPty(args, { env: h.envFor(), cols, rows: 30 });
  running.push(run);
  return run;
}

const commandsSent = async () => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string; command: string }[];

describe('pickers in a terminal', { timeout: 60_000 }, () => {
  it.each([80, 160])('devices get with no argument at %i columns: type a term, arrow down, Enter: that device is shown', async (cols) => {
    const run = cli(['devices', 'get', '-o', 'json'], cols);
    await run.waitFor(/Device \(type a hardware id or name\)/);
    await run.waitFor(/first 100 devices; type to search them all/);
    run.type('HW-00001');
    // the list for the whole term (HW-000010 ... HW-000019 of this tenant), the first one under the cursor
    const matching = devices.filter((d) => d.hardware_id.startsWith('HW-00001') && d.hardware_id.length === 9);
    await run.waitFor(new RegExp(`^❯ ${matching[0]!.hardware_id} `));
    const rows = run.screen().filter((row) => /^[ ❯] HW-00001\d /.test(row));
    expect(rows.map((row) => row.slice(2, 11))).toEqual(matching.slice(0, rows.length).map((d) => d.hardware_id));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    // every line of the list fits the terminal: nothing wraps
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.down);
    await run.waitFor(new RegExp(`^❯ ${matching[1]!.hardware_id} `));
    run.type(KEY.down);
    const chosen = matching[2]!;
    await run.waitFor(new RegExp(`^❯ ${chosen.hardware_id} `));
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const printed = run.history().join('\n');
    expect(printed).toContain(`"id": "${chosen.id}"`);
    expect(printed).toContain(`"hardware_id": "${chosen.hardware_id}"`);
    // the answer stays on the prompt's line, the list is gone
    expect(printed).toContain(`Device (type a hardware id or name) ${chosen.hardware_id}`);
    expect(printed).not.toContain('type to search them all');
  });

  it('a hardware id typed whole is found through the API filter, beyond the pages read so far', async () => {
    const last = devices.at(-1)!;
    const run = cli(['devices', 'last-reported', '-o', 'json'], 120);
    await run.waitFor(/first 100 devices/);
    run.type(last.hardware_id);
    await run.waitFor(new RegExp(`^❯ ${last.hardware_id} `));
    // found by the API, not by reading the list up to it
    expect(run.screen()).toContain(' (first 100 devices; type to search them all)');
    run.type(KEY.enter);
    const code = await run.exit;
    // a device that never reported is a 404 (exit 5); either way the picked hardware id was asked for
    expect([0, 5]).toContain(code);
    expect(run.history().join('\n')).toContain(last.hardware_id);
  });

  it('devices reboot with nothing named: space ticks two devices, Enter, then the confirmation; both get the reboot', async () => {
    const before = (await commandsSent()).length;
    const run = cli(['devices', 'reboot'], 100);
    // the first question, asked with no saved selection too: Enter on its first line goes one by one
    await run.waitFor(/Devices to reboot: start from \(type a condition, or choose\)/);
    await run.waitFor(/^❯ Every device, ticked one by one/);
    run.type(KEY.enter);
    await run.waitFor(/Tick every device shown/);
    const capable = devices.filter((d) => d.capabilities.includes('reboot'));
    const visible = devices.slice(0, devices.indexOf(capable[1]!) + 1);
    // the capabilities are on each line; those without reboot cannot be ticked and say why
    await run.waitFor(new RegExp(`${capable[0]!.hardware_id} .*reboot`));
    if (visible.some((d) => !d.capabilities.includes('reboot'))) await run.waitFor(/\(no reboot\)/);
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.space);
    await run.waitFor(new RegExp(`◉ ${capable[0]!.hardware_id}`));
    run.type(KEY.down);
    run.type(KEY.space);
    await run.waitFor(new RegExp(`◉ ${capable[1]!.hardware_id}`));
    run.type(KEY.enter);
    await run.waitFor(/2 devices.*\(y\/N\)/);
    run.type('y');
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const sent = (await commandsSent()).slice(before);
    expect(sent.map((c) => [c.hardware_id, c.command]).sort()).toEqual([
      [capable[0]!.hardware_id, 'reboot'],
      [capable[1]!.hardware_id, 'reboot'],
    ].sort());
  });

  it('devices wake-up with no saved selection: a condition typed, its one device listed ticked; Ctrl-C sends nothing', async () => {
    const before = (await commandsSent()).length;
    const device = devices.find((d) => d.capabilities.includes('wake_up'))!;
    const run = cli(['devices', 'wake-up'], 80);
    await run.waitFor(/^❯ Every device, ticked one by one/);
    run.type(`hardware_id:${device.hardware_id}`);
    await run.waitFor(new RegExp(`^❯ Devices where hardware_id:${device.hardware_id}`));
    run.type(KEY.enter);
    await run.waitFor(new RegExp(`Devices to wake-up \\(where hardware_id:${device.hardware_id}\\)`));
    await run.waitFor(new RegExp(`◉ ${device.hardware_id}`));
    await run.waitFor(/1 ticked/);
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.ctrlC);
    expect(await run.exit).toBe(130);
    expect((await commandsSent()).length).toBe(before);
  });

  it('Ctrl-C in a picker: interrupted, exit 130, nothing run', async () => {
    const run = cli(['fleets', 'get'], 80);
    await run.waitFor(/Fleet \(type a name\)/);
    await run.waitFor(/^❯ /);
    run.type(KEY.ctrlC);
    expect(await run.exit).toBe(130);
    expect(run.history().join('\n')).toContain('Interrupted.');
  });
});

describe('pickers for what a command needs besides its argument', { timeout: 60_000 }, () => {
  it.each([80, 160])('devices assign HW-000001 without --vehicle-id at %i columns: the vehicle is picked from a list', async (cols) => {
    const vehicles = (await h.cli(['vehicles', 'list', '--limit', '1', '-o', 'ndjson'])).stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string });
    const run = cli(['devices', 'assign', 'HW-000001', '-o', 'json'], cols);
    await run.waitFor(/Vehicle \(type a name or plate\)/);
    // Enter before the first page of vehicles is listed would choose nothing
    await run.waitFor(/^❯ /);
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const printed = run.history().join('\n');
    // at 80 columns the line wraps: its rows are read as one
    expect(printed.replace(/\n/g, ''), printed).toMatch(new RegExp(`Device HW-000001 \\([0-9a-f-]{36}\\) assigned to vehicle ${vehicles[0]!.id}\\.`));
  });

  it.each([80, 160])('drivers create without --fleet-id at %i columns: the fleet from a list, its organization from its record, never an id typed', async (cols) => {
    // no organization in the profile or the environment: the fleet's is the one
    const { FLEETCTL_ORGANIZATION_ID: _organization, ...env } = h.envFor();
    const run = runInPty(['drivers', 'create', '--first-name', 'Ada', '--last-name', 'Lovelace', '-o', 'json'], { env, cols, rows: 30 });
    running.push(run);
    await run.waitFor(/Fleet \(type a name\)/);
    // Enter before the first page of fleets is listed would choose nothing
    await run.waitFor(/^❯ /);
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const printed = run.history().join('\n');
    expect(printed, printed).toMatch(/Organization: [0-9a-f-]{36} \(the fleet.s\)\./);
    expect(printed).not.toMatch(/Organization id|Fleet id/);
    // the driver was made (read from the service: the terminal's history may not hold every line printed as it exits)
    const drivers = JSON.parse((await h.cli(['drivers', 'list', '--all', '-o', 'json'])).stdout) as { first_name?: string }[];
    expect(drivers.some((d) => d.first_name === 'Ada')).toBe(true);
  });
});
