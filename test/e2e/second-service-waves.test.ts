// Issue 25, must-show 1 and 2 against the second service double (its records name the report time observed_at):
// --wait finds that name in the document the service serves; where none is served it says so before sending
// anything (exit 2), and --report-time-field observed_at is the way. Waves and their brake work the same.
import { describe, expect, it } from 'vitest';
import { seedUuid } from '../support/second-service.js';
import { report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

const FLEET_1 = seedUuid(0xf1, 1);
const posts = (h: SecondHarness, from: number) => h.svc.requests.slice(from).filter((q) => q.method === 'POST' && q.path.startsWith('/v1/')).map((q) => q.path);
const parse = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('--wait and waves against the second service, which serves its document', { timeout: 60_000 }, () => {
  let h: SecondHarness;
  useSecondHarness((started) => (h = started), { commandReturnMs: 150 });

  it('a fleet rebooted in waves, each device followed by its observed_at until back', async () => {
    const args = ['devices', 'reboot', '--fleet-id', FLEET_1, '--canary', '1', '--wave', '1', '--wait', '--wait-timeout', '10s', '--yes', '-o', 'ndjson'];
    const r = await h.cli(args);
    // TLM-00003 cannot reboot: the service refuses it (exit 10); the two it accepted are back
    expect(r.code, report(args, r)).toBe(10);
    expect(r.stderr).toContain('until each device reports a later observed_at than before its command');
    // each is printed once final: the refused one at once, the others once back
    const results = parse(r.stdout).sort((a, b) => String(a.hardware_id).localeCompare(String(b.hardware_id)));
    expect(results.map((x) => [x.hardware_id, x.status, x.wait ?? null])).toEqual([
      ['TLM-00001', 'accepted', 'back'],
      ['TLM-00002', 'accepted', 'back'],
      ['TLM-00003', 'capability_missing', null],
    ]);
  });

  it('one device: the receipt as the service sent it, with back and its time', async () => {
    const args = ['devices', 'wake-up', 'TLM-00001', '--wait', '--wait-timeout', '10s', '--yes', '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    const receipt = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(receipt)).toEqual(['command_ref', 'hw', 'action', 'state', 'queued_at', 'replay_key', 'wait', 'back_after_s']);
    expect(receipt.wait).toBe('back');
  });
});

describe('--wait against the second service serving no document', { timeout: 60_000 }, () => {
  let h: SecondHarness;
  useSecondHarness((started) => (h = started), { serveDocument: false, commandReturnMs: 150, neverBack: ['TLM-00002'] });

  it('nothing names the report time: said before anything is sent (exit 2), with the flag to use', async () => {
    const from = h.svc.requests.length;
    const args = ['devices', 'reboot', 'TLM-00001', '--wait', '--yes'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(2);
    expect(r.stderr).toContain('Error: --wait cannot tell when a device reports: the service serves no API document to name the report time of its last-reported state');
    expect(r.stderr).toContain('--report-time-field NAME');
    expect(posts(h, from)).toEqual([]);
  });

  it('--report-time-field observed_at: back, and a device that never reports again is not_back (exit 12)', async () => {
    const args = ['devices', 'reboot', 'TLM-00001', 'TLM-00002', '--wait', '--wait-timeout', '2s', '--report-time-field', 'observed_at', '--yes', '-o', 'ndjson'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(12);
    // results come as they are final: sorted, so the order of arrival does not matter
    expect(parse(r.stdout).map((x) => [x.hardware_id, x.wait]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['TLM-00001', 'back'],
      ['TLM-00002', 'not_back'],
    ]);
    expect(r.stderr).toContain('  not back: TLM-00002');
  });
});

describe('--wait when the devices\' clock runs 40 s behind this machine\'s', { timeout: 60_000 }, () => {
  let h: SecondHarness;
  useSecondHarness((started) => (h = started), { commandReturnMs: 300, deviceClockOffsetMs: -40_000 });

  it('each device is back at its next report: its own times are compared, never with this clock', async () => {
    const args = ['devices', 'reboot', 'TLM-00001', 'TLM-00002', '--wait', '--wait-timeout', '8s', '--yes', '-o', 'ndjson'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    expect(parse(r.stdout).map((x) => [x.hardware_id, x.wait]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['TLM-00001', 'back'],
      ['TLM-00002', 'back'],
    ]);
    const one = ['devices', 'wake-up', 'TLM-00001', '--wait', '--wait-timeout', '8s', '--yes', '-o', 'json'];
    const single = await h.cli(one);
    expect(single.code, report(one, single)).toBe(0);
    expect(JSON.parse(single.stdout)).toMatchObject({ wait: 'back' });
  });
});
