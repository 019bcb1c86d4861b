// Confirmations of disruptive verbs answered by keystrokes in a real terminal: "n" refuses (exit 2, nothing
// sent), "y" goes ahead, Ctrl-C interrupts (exit 130, nothing sent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty, type PtySession } from '../../support/pty.js';

interface Device {
  hardware_id: string;
  fleet_id: string | null;
  capabilities: string[];
}
interface Executed {
  hardware_id: string;
  command: string;
}

let h: SandboxHarness;
let fleetId: string;
let fleetDevices: Device[];

beforeAll(async () => {
  h = await startHarness({ devices: 24 });
  const listed = await h.cli(['devices', 'list', '--all', '-o', 'ndjson']);
  expect(listed.code).toBe(0);
  const devices = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Device);
  const byFleet = new Map<string, Device[]>();
  for (const d of devices) if (d.fleet_id !== null) byFleet.set(d.fleet_id, [...(byFleet.get(d.fleet_id) ?? []), d]);
  // a small fleet of several devices (a short prompt, few commands to check), one lacking reboot if the seed has it
  const lacking = (members: Device[]) => (members.some((d) => !d.capabilities.includes('reboot')) ? 0 : 1);
  [fleetId, fleetDevices] = [...byFleet]
    .filter(([, members]) => members.length > 1)
    .sort((a, b) => lacking(a[1]) - lacking(b[1]) || a[1].length - b[1].length)[0]!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const executed = async (): Promise<Executed[]> => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as Executed[];

/** Starts the command and waits for its yes/no question. */
async function asked(args: string[], question: RegExp): Promise<PtySession> {
  const session = startPty(args, { sandbox: h, cols: 160, rows: 40 });
  await session.waitForText(question);
  await session.waitForText('(y/N)');
  return session;
}

describe('devices reboot --fleet-id asks first, answered by keystrokes', { timeout: 60_000 }, () => {
  const reboot = () => ['devices', 'reboot', '--fleet-id', fleetId];
  const capableOf = () => fleetDevices.filter((d) => d.capabilities.includes('reboot'));
  // devices whose record lacks the capability are announced and skipped, not sent
  const question = () => new RegExp(`Reboot ${capableOf().length} devices\\b`);

  it('n + Enter: exit 2, a plain "Nothing sent." (no red Error:), nothing sent', async () => {
    const before = await executed();
    const session = await asked(reboot(), question());
    session.type('n');
    session.press('Enter');
    expect((await session.waitForExit()).code).toBe(2);
    expect(session.screen().join('\n')).toMatch(/^Nothing sent\.$/m);
    expect(session.screen().join('\n')).not.toContain('Error');
    expect(await executed()).toEqual(before);
  });

  it('Ctrl-C at the prompt: exit 130, nothing sent', async () => {
    const before = await executed();
    const session = await asked(reboot(), question());
    session.press('Ctrl-C');
    expect((await session.waitForExit()).code).toBe(130);
    expect(session.screen().join('\n')).toContain('Interrupted.');
    expect(await executed()).toEqual(before);
  });

  it('y + Enter: every capable device of the fleet is rebooted once', async () => {
    const before = await executed();
    const session = await asked(reboot(), question());
    session.type('y');
    session.press('Enter');
    const capable = capableOf().map((d) => d.hardware_id);
    const without = fleetDevices.length - capable.length;
    if (without > 0) expect(session.screen().join('\n')).toMatch(new RegExp(`${without} of the ${fleetDevices.length} devices lacks? the reboot capability`));
    expect((await session.waitForExit()).code).toBe(0);
    const sent = (await executed()).slice(before.length);
    expect(sent.map((c) => c.hardware_id).sort()).toEqual(capable.sort());
    expect(sent.every((c) => c.command === 'reboot')).toBe(true);
  });

  it('a single device asks too: n refuses, y sends', async () => {
    const device = fleetDevices.find((d) => d.capabilities.includes('reboot'))!;
    const before = await executed();
    const refused = await asked(['devices', 'reboot', device.hardware_id], new RegExp(`Reboot device ${device.hardware_id}\\?`));
    refused.type('n');
    refused.press('Enter');
    expect((await refused.waitForExit()).code).toBe(2);
    expect(await executed()).toEqual(before);

    const accepted = await asked(['devices', 'reboot', device.hardware_id], new RegExp(`Reboot device ${device.hardware_id}\\?`));
    accepted.type('y');
    accepted.press('Enter');
    expect((await accepted.waitForExit()).code).toBe(0);
    expect((await executed()).slice(before.length).map((c) => c.hardware_id)).toEqual([device.hardware_id]);
  });
});

describe('webhook-config delete asks first, answered by keystrokes', { timeout: 60_000 }, () => {
  const exists = async () => (await h.cli(['webhook-config', 'get'])).code === 0;
  const question = /Delete the webhook configuration of organization [0-9a-f-]{36} \(disabled, 1 topic\)\?/;

  beforeAll(async () => {
    const created = await h.cli(['webhook-config', 'create', '--url', 'https://hooks.example.com/fleet', '--topics', 'events']);
    expect(created.code).toBe(0);
  }, 60_000);

  it('n + Enter: exit 2, the configuration stays', async () => {
    const session = await asked(['webhook-config', 'delete'], question);
    session.type('n');
    session.press('Enter');
    expect((await session.waitForExit()).code).toBe(2);
    expect(session.screen().join('\n')).toMatch(/^Nothing sent\.$/m);
    expect(await exists()).toBe(true);
  });

  it('Ctrl-C at the prompt: exit 130, the configuration stays', async () => {
    const session = await asked(['webhook-config', 'delete'], question);
    session.press('Ctrl-C');
    expect((await session.waitForExit()).code).toBe(130);
    expect(await exists()).toBe(true);
  });

  it('y + Enter: deleted', async () => {
    const session = await asked(['webhook-config', 'delete'], question);
    session.type('y');
    session.press('Enter');
    expect((await session.waitForExit()).code).toBe(0);
    expect(session.screen().join('\n')).toContain('Deleted the webhook configuration of organization');
    expect(await exists()).toBe(false);
  });
});
