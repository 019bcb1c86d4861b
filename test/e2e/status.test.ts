// Issue 25, must-show 3: `fleetctl status` against the sandbox. Freshness from the report time the served document
// names (last_seen_at), capability coverage from the records, the bulk runs of this machine from their journals,
// the webhook configuration, scopes; --fail-if exits 13 naming the breach; a missing webhooks_read degrades only
// that section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startHarness, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 30 });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

interface Device { id: string; hardware_id: string; fleet_id: string; last_seen_at: string | null; capabilities: string[] }

async function devices(args: string[] = []): Promise<Device[]> {
  const r = await h.cli(['devices', 'list', '--all', ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Device[];
}

async function status(args: string[], client?: string) {
  const r = await h.cli(['status', '-o', 'json', ...args], { client });
  return { ...r, report: r.stdout ? JSON.parse(r.stdout) : undefined };
}

describe('fleetctl status against the sandbox', { timeout: 120_000 }, () => {
  it('counts devices by freshness from last_seen_at (the document says so) and capability coverage from the records', async () => {
    const all = await devices();
    const before = Date.now();
    const r = await status(['--stale-after', '2h']);
    expect(r.code, r.stderr).toBe(0);
    const d = r.report.devices;
    expect(d).toMatchObject({ total: all.length, unknown: 0, report_time_field: 'last_seen_at', report_time_source: 'document', note: null });
    expect(d.never_reported).toBe(all.filter((x) => x.last_seen_at === null).length);
    // a device exactly on the edge may move between the two reads: bounded on both sides
    const staleAt = (now: number) => all.filter((x) => x.last_seen_at !== null && now - Date.parse(x.last_seen_at) > 2 * 3_600_000).length;
    expect(d.stale).toBeGreaterThanOrEqual(staleAt(before - 5_000));
    expect(d.stale).toBeLessThanOrEqual(staleAt(Date.now() + 5_000));
    expect(d.reporting + d.stale + d.never_reported).toBe(all.length);
    const reboot = all.filter((x) => x.capabilities.includes('reboot')).length;
    expect(r.report.capabilities.stated_by).toBe(all.length);
    expect(r.report.capabilities.coverage).toContainEqual({ capability: 'reboot', devices: reboot, percent: Math.round((reboot / all.length) * 10000) / 100 });
    expect(r.report.scopes.sections).toEqual([
      { section: 'devices', scope: 'devices_read', state: 'granted' },
      { section: 'webhooks', scope: 'webhooks_read', state: 'granted' },
    ]);
    expect(Object.keys(r.report)).toEqual(['version', 'generated_at', 'selection', 'stale_after_seconds', 'devices', 'capabilities', 'commands', 'webhooks', 'scopes', 'thresholds']);
  });

  it('--fleet-id counts only that fleet', async () => {
    const fleet = (await devices())[0]!.fleet_id;
    const r = await status(['--fleet-id', fleet]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.selection).toEqual({ fleet_id: fleet, organization_id: null, where: null });
    expect(r.report.devices.total).toBe((await devices(['--fleet-id', fleet])).length);
  });

  it('--fleet-id without organization_id: the webhooks of the organization the fleet\'s record names', async () => {
    const fleet = (await devices())[0]!.fleet_id;
    const record = await h.cli(['fleets', 'get', fleet, '-o', 'json']);
    const { organization_id: org } = JSON.parse(record.stdout) as { organization_id: string };
    const r = await h.cli(['status', '-o', 'json', '--fleet-id', fleet], { env: { ...h.envFor(), FLEETCTL_ORGANIZATION_ID: '' } });
    expect(r.code, r.stderr).toBe(0);
    const { webhooks } = JSON.parse(r.stdout);
    expect(webhooks.organization_id).toBe(org);
    expect(webhooks.note).not.toMatch(/no organization/);
  });

  it('shows a bulk run made from this machine, with its results, and the webhook configuration', async () => {
    const [a, b] = (await devices()).filter((x) => x.capabilities.includes('reboot'));
    const sent = await h.cli(['devices', 'reboot', a!.hardware_id, b!.hardware_id, '--yes', '-o', 'json']);
    expect(sent.code, sent.stderr).toBe(0);
    const runId = /Run (\S+):/.exec(sent.stderr)![1];
    const org = h.envFor().FLEETCTL_ORGANIZATION_ID;
    const put = await h.cli(['api', 'PUT', `/v1/organizations/${org}/webhook-config`, '--input', '-'], {
      input: JSON.stringify({ is_enabled: false, topics: [{ type: 'events', is_enabled: true, delivery: { url: 'https://hooks.example.com/fleet' } }] }),
    });
    expect(put.code, put.stderr).toBe(0);
    const r = await status([]);
    expect(r.code, r.stderr).toBe(0);
    const service = { base_url: h.sandbox.baseUrl, client_id: 'sandbox-admin' };
    expect(r.report.commands.runs).toEqual([{ run_id: runId, command: 'reboot', created_at: expect.any(String), targets: 2, results: { accepted: 2 }, service }]);
    expect(r.report.commands.elsewhere).toEqual([]);
    expect(r.report.webhooks).toEqual({ state: 'disabled', organization_id: org, topics: [{ type: 'events', is_enabled: true, url: 'https://hooks.example.com/fleet' }], note: null });
  });

  it('a run given its own --journal elsewhere: status lists it, and --resume RUN_ID finds it without --journal', async () => {
    const [, , c, d] = (await devices()).filter((x) => x.capabilities.includes('reboot'));
    const journal = path.join(tempDir('fleetctl-own-journal-'), 'night.ndjson');
    const sent = await h.cli(['devices', 'reboot', c!.hardware_id, d!.hardware_id, '--journal', journal, '--yes', '-o', 'json']);
    expect(sent.code, sent.stderr).toBe(0);
    const runId = /Run (\S+):/.exec(sent.stderr)![1]!;
    expect(existsSync(journal)).toBe(true);
    const r = await status([]);
    expect(r.code, r.stderr).toBe(0);
    expect((r.report.commands.runs as { run_id: string }[]).map((x) => x.run_id)).toContain(runId);
    expect((r.report.commands.runs as { run_id: string; results: object }[]).find((x) => x.run_id === runId)!.results).toEqual({ accepted: 2 });
    const resumed = await h.cli(['devices', 'reboot', '--resume', runId, '--yes', '-o', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`journal ${journal}`);
    expect(resumed.stderr).toContain('2 already done');
  });

  it('--fail-if: exit 13 naming each breached threshold, after printing the report; one within is exit 0', async () => {
    const breached = await status(['--fail-if', 'never>=0', '--fail-if', 'stale>100%']);
    expect(breached.code).toBe(13);
    expect(breached.report.thresholds.map((t: { breached: boolean }) => t.breached)).toEqual([true, false]);
    expect(breached.stderr).toMatch(/^Error: status: never>=0 breached \(never_reported is \d+, >= 0\)$/m);
    const within = await status(['--fail-if', 'stale>100%']);
    expect(within.code, within.stderr).toBe(0);
  });

  it('a bad threshold is exit 2 naming it, before any request', async () => {
    const r = await h.cli(['status', '--fail-if', 'stale>5%', '--fail-if', 'late>1']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('Error: --fail-if "late>1" names no known metric "late"');
  });

  it('without webhooks_read the webhook section is unavailable with why; the report still stands (exit 0)', async () => {
    const r = await status([], 'sandbox-reboot-only');
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.webhooks.state).toBe('unavailable');
    expect(r.report.webhooks.note).toMatch(/webhooks_read/);
    expect(r.report.scopes.sections[1]).toEqual({ section: 'webhooks', scope: 'webhooks_read', state: 'refused' });
    expect(r.report.devices.total).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/webhooks: /);
  });

  it('--report-time-field naming a member the records lack counts every device as never reported, from the flag', async () => {
    const r = await status(['--report-time-field', 'heard_from_at']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.devices).toMatchObject({ report_time_field: 'heard_from_at', report_time_source: 'flag', reporting: 0, stale: 0 });
    expect(r.report.devices.never_reported).toBe(r.report.devices.total);
  });
});
