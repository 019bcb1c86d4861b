// Issue 34, must-show 5 against the sandbox: mistakes are found before anything is sent. A dry run looks up every
// device named (a typo is exit 5, one device or many); a client without the command's scope is refused before it
// is asked to confirm; a --report-time-field the service's document does not give the last-reported state is
// refused before the reboot goes out. The sandbox's command log shows nothing executed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness({ devices: 20 });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const executed = async () => ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[]).length;
const show = (r: { code: number | null; stdout: string; stderr: string }) => `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;

describe('mistakes found before anything is sent', { timeout: 60_000 }, () => {
  it('devices reboot HW-0000001 --dry-run (a typo): exit 5 naming it, as the real run would end', async () => {
    const from = await executed();
    const r = await h.cli(['devices', 'reboot', 'HW-0000001', '--dry-run']);
    expect(r.code, show(r)).toBe(5);
    expect(r.stderr).toContain('Error: 1 of the 1 device named is unknown to the service: HW-0000001; the reboot would fail for it (not found)');
    expect(r.stdout).toBe('');
    const known = await h.cli(['devices', 'reboot', 'HW-000001', '--dry-run']);
    expect(known.code, show(known)).toBe(0);
    expect(await executed()).toBe(from);
  });

  it('a list with unknown devices among known ones: each unknown one named, exit 5, nothing sent', async () => {
    const from = await executed();
    const file = path.join(h.configDir, 'typos.txt');
    writeFileSync(file, 'HW-000001\nHW-00002\nHW-000003\nHW-9999999\n');
    const r = await h.cli(['devices', 'wake-up', '--from-file', file, '--dry-run']);
    expect(r.code, show(r)).toBe(5);
    expect(r.stderr).toContain('Error: 2 of the 4 devices named are unknown to the service: HW-00002, HW-9999999; the wake-up would fail for them (not found)');
    expect(await executed()).toBe(from);
  });

  it('a client without the reboot scope is refused at the token endpoint before the confirmation (exit 3, not 2)', async () => {
    const r = await h.cli(['devices', 'reboot', 'HW-000001'], { client: 'sandbox-reader' });
    expect(r.code, show(r)).toBe(3);
    expect(r.stderr).toContain('invalid_scope');
    expect(r.stderr).not.toContain('confirmation required');
    const bulk = await h.cli(['devices', 'reboot', 'HW-000001', 'HW-000002'], { client: 'sandbox-reader' });
    expect(bulk.code, show(bulk)).toBe(3);
    expect(bulk.stderr).not.toMatch(/^Run /m);
  });

  it('an assignment run by a client without devices_write: refused at the token endpoint before it starts (exit 3, no run)', async () => {
    const r = await h.cli(['devices', 'unassign', '--from-file', '-', '--yes'], { client: 'sandbox-reader', input: 'device\nHW-000001\n' });
    expect(r.code, show(r)).toBe(3);
    expect(r.stderr).toContain('invalid_scope');
    expect(r.stderr).not.toMatch(/^Run /m);
  });

  it('--report-time-field that the served document does not give the last-reported state: exit 2 before sending', async () => {
    const from = await executed();
    const r = await h.cli(['devices', 'reboot', 'HW-000001', 'HW-000002', '--wait', '--report-time-field', 'seen_at', '--yes']);
    expect(r.code, show(r)).toBe(2);
    expect(r.stderr).toContain(`Error: --report-time-field "seen_at": the service's API document describes the last-reported state without it`);
    const one = await h.cli(['devices', 'reboot', 'HW-000001', '--wait', '--report-time-field', 'seen_at', '--yes']);
    expect(one.code, show(one)).toBe(2);
    expect(await executed()).toBe(from);
  });
});
