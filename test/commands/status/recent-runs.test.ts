import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recentRuns } from '../../../src/commands/status/recent-runs.js';
import { summaryLines } from '../../../src/commands/status/summary.js';
import { defaultJournalPath } from '../../../src/bulk/journal.js';
import type { StatusReport } from '../../../src/commands/status/report.js';
import { createTheme } from '../../../src/io/theme.js';
import { tempDir } from '../../support/temp-dir.js';

const PROD = { base_url: 'https://api.example.com', client_id: 'ops' };
const SANDBOX = { base_url: 'http://127.0.0.1:40111', client_id: 'sandbox-admin', sandbox: true as const };

function journal(config: string, runId: string, service: object | undefined, minutesAgo: number): void {
  const file = defaultJournalPath(config, runId);
  mkdirSync(path.dirname(file), { recursive: true });
  const header = { type: 'run', version: 1, run_id: runId, command: 'reboot', key_base: 'k', targets: ['HW-1'], created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(), ...(service ? { service } : {}) };
  writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify({ type: 'result', at: 'x', hardware_id: 'HW-1', status: 'accepted' })}\n`);
}

describe('recent runs, by the service they were sent to', () => {
  it("the profile's service's runs only; the others apart by service, and those not recorded apart too", async () => {
    const config = tempDir('fleetctl-recent-');
    journal(config, 'R1', PROD, 50);
    journal(config, 'R2', SANDBOX, 40);
    journal(config, 'R3', undefined, 30);
    journal(config, 'R4', { ...PROD, base_url: 'https://API.example.com/' }, 20);
    journal(config, 'R5', { ...SANDBOX, base_url: 'http://127.0.0.1:40999' }, 10);
    journal(config, 'R6', { ...PROD, client_id: 'someone-else' }, 5);
    const recent = await recentRuns(config, Date.now() - 3_600_000, PROD);
    expect(recent.runs.map((r) => r.run_id)).toEqual(['R1', 'R4']);
    expect(recent.elsewhere.map((g) => [g.service, g.runs.map((r) => r.run_id)])).toEqual([
      [SANDBOX, ['R2', 'R5']],
      [null, ['R3']],
      [{ ...PROD, client_id: 'someone-else' }, ['R6']],
    ]);
    // from --sandbox, the sandbox's runs are the recent commands, whatever port each process had
    const fromSandbox = await recentRuns(config, Date.now() - 3_600_000, { ...SANDBOX, base_url: 'http://127.0.0.1:1' });
    expect(fromSandbox.runs.map((r) => r.run_id)).toEqual(['R2', 'R5']);
  });

  it('the summary lists this service\'s runs and counts the others apart, named by their service', async () => {
    const config = tempDir('fleetctl-recent-');
    journal(config, 'R1', PROD, 50);
    journal(config, 'R2', SANDBOX, 40);
    journal(config, 'R3', undefined, 30);
    const commands = await recentRuns(config, Date.now() - 3_600_000, PROD);
    const report = {
      generated_at: new Date().toISOString(),
      selection: { fleet_id: null, organization_id: null },
      stale_after_seconds: 3600,
      devices: { total: 0, reporting: 0, stale: 0, never_reported: 0, unknown: 0, report_time_field: 'x', report_time_source: 'document', note: null },
      capabilities: { stated_by: 0, coverage: null, note: 'not stated: no devices' },
      commands: { since: commands.since, runs: commands.runs, elsewhere: commands.elsewhere, note: null },
      webhooks: { state: 'none', organization_id: null, topics: [], note: null },
      scopes: { configured: null, sections: [] },
      thresholds: [],
    } as unknown as StatusReport;
    const lines = summaryLines(report, createTheme(0), 80);
    const at = lines.findIndex((l) => l.startsWith('Commands'));
    expect(lines[at]).toMatch(/^Commands {6}1 run to this service from this machine since /);
    expect(lines.slice(at + 1, at + 4)).toEqual([
      expect.stringMatching(/^ {2}R1 +reboot +1 {2}1 accepted$/),
      '  apart: 1 run to the embedded sandbox (--sandbox, client sandbox-admin)',
      '  apart: 1 run, service not recorded',
    ]);
  });
});
