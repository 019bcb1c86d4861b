import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REBOOT, WAKE_UP } from '../../src/commands/devices/device-command.js';
import type { BulkCommandOptions } from '../../src/bulk/run.js';
import { bulkCommandRun } from '../../src/commands/devices/command-run.js';
import { devicesWithOutcome } from '../../src/bulk/from-run.js';
import { defaultJournalPath, Journal } from '../../src/bulk/journal.js';
import { fakeDeps, type ScriptedAnswer } from '../commands/fake-deps.js';
import { tempDir } from '../support/temp-dir.js';

const accepted = (command: string, hw: string): ScriptedAnswer => ({
  method: 'POST',
  path: `/v1/devices/${hw}/commands/${command.replace('_', '-')}`,
  status: 202,
  body: { id: 'c', hardware_id: hw, command, status: 'accepted', idempotency_key: 'k', accepted_at: 'x' },
});

const base = (o: Partial<BulkCommandOptions>): BulkCommandOptions => ({ source: { ids: [] }, yes: true, dryRun: false, maxDevices: 100, concurrency: 1, ...o });

/** An earlier reboot run's journal: HW-1 accepted and back, HW-2 failed, HW-3 accepted and not back, HW-4 not found, HW-5 never sent. */
function earlierRun(config: string, runId: string, command = 'reboot', waits = true): void {
  const file = defaultJournalPath(config, runId);
  mkdirSync(path.dirname(file), { recursive: true });
  const result = (hw: string, status: string) => ({ type: 'result', at: '2026-11-27T10:00:00Z', hardware_id: hw, status, http_status: 202, code: null, idempotency_key: `k:${hw}`, command });
  const wait = (hw: string, outcome: string) => ({ type: 'wait', hardware_id: hw, outcome, after_ms: null, at: '2026-11-27T10:01:00Z' });
  const lines: object[] = [
    { type: 'run', version: 1, run_id: runId, command, key_base: 'k', targets: ['HW-1', 'HW-2', 'HW-3', 'HW-4', 'HW-5'], created_at: '2026-11-27T10:00:00Z' },
    result('HW-1', 'accepted'),
    result('HW-2', 'failed'),
    result('HW-3', 'accepted'),
    result('HW-4', 'not_found'),
    ...(waits ? [wait('HW-1', 'watching'), wait('HW-3', 'watching'), wait('HW-1', 'back'), wait('HW-3', 'not_back')] : []),
  ];
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

describe('--from-run: the devices of an earlier run, by outcome', () => {
  it('an outcome is the command\'s status or what --wait saw; pending is a device never sent to', () => {
    const recorded = {
      targets: ['A', 'B', 'C', 'D'],
      statuses: new Map([['A', 'accepted'], ['B', 'failed'], ['C', 'accepted']]),
      waits: new Map([['A', 'back'], ['C', 'not_back']]),
    };
    expect(devicesWithOutcome(recorded, ['failed'])).toEqual(['B']);
    expect(devicesWithOutcome(recorded, ['failed', 'not_back'])).toEqual(['B', 'C']);
    expect(devicesWithOutcome(recorded, ['accepted'])).toEqual(['A', 'C']);
    expect(devicesWithOutcome(recorded, ['pending', 'back'])).toEqual(['A', 'D']);
  });

  it('a new run with its own run id and keys, to the failed and not-back devices only; the earlier run is untouched', async () => {
    const config = tempDir('fleetctl-from-run-');
    earlierRun(config, 'R1');
    const f = fakeDeps({ configDir: config, format: 'ndjson', answers: [accepted('reboot', 'HW-2'), accepted('reboot', 'HW-3')] });
    await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fromRun: { runId: 'R1', only: ['failed', 'not_back'] } } }));
    const runId = /^Run (\S+):/m.exec(f.io.stderr())![1]!;
    expect(runId).not.toBe('R1');
    expect(f.sent.map((s) => [s.path, s.headers['Idempotency-Key']])).toEqual([
      ['/v1/devices/HW-2/commands/reboot', `fleetctl-run-${runId}:HW-2`],
      ['/v1/devices/HW-3/commands/reboot', `fleetctl-run-${runId}:HW-3`],
    ]);
    expect((await Journal.open(defaultJournalPath(config, runId), runId)).header.targets).toEqual(['HW-2', 'HW-3']);
    expect((await Journal.open(defaultJournalPath(config, 'R1'), 'R1')).results.size).toBe(4);
  });

  it('a wake-up of the devices a reboot run never reached (pending), with plan flags', async () => {
    const config = tempDir('fleetctl-from-run-');
    earlierRun(config, 'R1');
    const f = fakeDeps({ configDir: config, answers: [accepted('wake_up', 'HW-5')] });
    await bulkCommandRun(f.deps, WAKE_UP, base({ source: { ids: [], fromRun: { runId: 'R1', only: ['pending'] } }, waves: { canary: { count: 1 } } }));
    expect(f.sent.map((s) => s.path)).toEqual(['/v1/devices/HW-5/commands/wake-up']);
  });

  it('no device ended so: exit 5 saying why (a run without wait outcomes asked for not_back); --allow-empty: exit 0, nothing sent', async () => {
    const config = tempDir('fleetctl-from-run-');
    earlierRun(config, 'R2', 'reboot', false);
    const f = fakeDeps({ configDir: config });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fromRun: { runId: 'R2', only: ['not_back'] } } }))).rejects.toMatchObject({
      exitCode: 5,
      message: 'no device of run R2 ended not_back; its journal records no wait outcome (not_back): the run had no --wait, or was made by an older fleetctl',
    });
    await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fromRun: { runId: 'R2', only: ['not_back'], allowEmpty: true } } }));
    expect(f.sent).toEqual([]);
  });

  it('refuses an assignment run, and a run that is not there', async () => {
    const config = tempDir('fleetctl-from-run-');
    earlierRun(config, 'R3', 'assign');
    const f = fakeDeps({ configDir: config });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fromRun: { runId: 'R3', only: ['failed'] } } }))).rejects.toThrow('run R3 was a devices assign: --from-run takes a reboot or wake-up run');
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fromRun: { runId: 'R9', only: ['failed'] } } }))).rejects.toThrow('no journal for run R9 at');
  });
});
