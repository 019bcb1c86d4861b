// Issue 34, must-show 5 against the second service double: where the service serves no document, a
// --report-time-field is checked against the first device's own last-reported state before anything is sent; a
// dry run looks devices up through the service's own list filter.
import { describe, expect, it } from 'vitest';
import { report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

const commandPosts = (h: SecondHarness, from: number) => h.svc.requests.slice(from).filter((q) => q.method === 'POST' && q.path.includes('/commands/'));

describe('before sending, against a service that serves no document', { timeout: 60_000 }, () => {
  let h: SecondHarness;
  useSecondHarness((started) => (h = started), { serveDocument: false, commandReturnMs: 100 });

  it('--report-time-field its records do not carry: exit 2, nothing sent; the member they carry is taken', async () => {
    const from = h.svc.requests.length;
    const wrong = ['devices', 'reboot', 'TLM-00001', 'TLM-00002', '--wait', '--report-time-field', 'reported_at', '--yes'];
    const r = await h.cli(wrong);
    expect(r.code, report(wrong, r)).toBe(2);
    expect(r.stderr).toContain('Error: --report-time-field "reported_at": the last-reported state of the first device has no such member');
    expect(commandPosts(h, from)).toEqual([]);
    const right = ['devices', 'reboot', 'TLM-00001', '--wait', '--wait-timeout', '10s', '--report-time-field', 'observed_at', '--yes', '-o', 'json'];
    const ok = await h.cli(right);
    expect(ok.code, report(right, ok)).toBe(0);
    expect(commandPosts(h, from)).toHaveLength(1);
  });

  it('a dry run names the hardware id the service does not know (exit 5), and sends nothing', async () => {
    const from = h.svc.requests.length;
    const args = ['devices', 'wake-up', 'TLM-00001', 'TLM-0001', '--dry-run'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(5);
    expect(r.stderr).toContain('1 of the 2 devices named is unknown to the service: TLM-0001');
    expect(commandPosts(h, from)).toEqual([]);
  });
});
