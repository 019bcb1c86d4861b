// What --resume restores of a run: the settings its journal header keeps (a flag that contradicts them is refused
// naming both, one that may safely change is taken and said), journals written before settings were kept (their
// waves only), and what the journal's wait and brake lines tell a resumed run: the devices still to follow, and
// what the brake counts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, type JournalHeader } from '../../src/bulk/journal.js';
import { DEFAULT_WAIT_TIMEOUT_MS, restoreSettings, settingsFrom, settingsLines } from '../../src/bulk/run-settings.js';
import { brakeFrom, stillWatched } from '../../src/bulk/wait-journal.js';
import { tempDir } from '../support/temp-dir.js';

const RUN = '20261127T100000Z-abcdef';
const base: JournalHeader = { type: 'run', version: 1, run_id: RUN, command: 'reboot', key_base: 'k', targets: ['HW-1', 'HW-2', 'HW-3'], created_at: '2026-11-27T10:00:00.000Z' };
const kept: JournalHeader = {
  ...base,
  settings: { concurrency: 2, waves: { canary: { count: 1 }, wave: { percent: 50 }, wavePauseMs: 30_000, abortIfFailed: { count: 1 } }, wait: { timeout_ms: 120_000, report_time_field: null } },
};

describe('restoreSettings', () => {
  it('no flags: the journal plan, unchanged', () => {
    expect(restoreSettings(RUN, kept, {})).toEqual({ settings: kept.settings, changed: [] });
  });

  it('flags that agree are no change; --wait-timeout and --wave-pause may change, and are said', () => {
    const restored = restoreSettings(RUN, kept, { concurrency: 2, waves: { canary: { count: 1 }, wavePauseMs: 5_000 }, wait: { timeoutMs: 10_000 } });
    expect(restored.settings).toEqual({ ...kept.settings, waves: { ...kept.settings!.waves, wavePauseMs: 5_000 }, wait: { timeout_ms: 10_000, report_time_field: null } });
    expect(restored.changed).toEqual(['--wave-pause 5s (was 30s)', '--wait-timeout 10s (was 2m00s)']);
    expect(settingsLines(restored.settings, restored.changed)).toEqual(['Concurrency: at most 2 in flight (--concurrency 2)', 'Changed on resume: --wave-pause 5s (was 30s), --wait-timeout 10s (was 2m00s)']);
  });

  it.each([
    [{ concurrency: 8 }, `--concurrency 8 contradicts run ${RUN}, which was started with --concurrency 2`],
    [{ waves: { canary: { count: 3 } } }, `--canary 3 contradicts run ${RUN}, which was started with --canary 1`],
    [{ waves: { wave: { count: 10 } } }, `--wave 10 contradicts run ${RUN}, which was started with --wave 50%`],
    [{ waves: { abortIfFailed: { percent: 5 } } }, `--abort-if-failed 5% contradicts run ${RUN}, which was started with --abort-if-failed 1`],
    [{ wait: { reportTimeField: 'seen_at' } }, `--report-time-field seen_at contradicts run ${RUN}, which was started with no --report-time-field (the field from the API document)`],
  ])('refuses %j naming both values', (flags, message) => {
    expect(() => restoreSettings(RUN, kept, flags)).toThrow(message);
  });

  it('--wait on a run that had none, and --concurrency on an adaptive one, are refused', () => {
    const plain: JournalHeader = { ...base, settings: settingsFrom({}) };
    expect(() => restoreSettings(RUN, plain, { wait: {} })).toThrow(`--wait contradicts run ${RUN}, which was started without --wait`);
    expect(() => restoreSettings(RUN, plain, { concurrency: 1 })).toThrow('which was started with no --concurrency (adaptive)');
  });

  it('a journal written before settings were kept: its waves stand unless flags give others, the flags as given', () => {
    const older: JournalHeader = { ...base, waves: { canary: { count: 2 } } };
    expect(restoreSettings(RUN, older, { wait: {} }).settings).toEqual({ concurrency: null, waves: { canary: { count: 2 } }, wait: { timeout_ms: DEFAULT_WAIT_TIMEOUT_MS, report_time_field: null } });
    expect(restoreSettings(RUN, older, { waves: { wave: { count: 1 } } }).settings.waves).toEqual({ wave: { count: 1 } });
    expect(restoreSettings(RUN, { ...base }, {}).settings).toEqual({ concurrency: null, waves: {}, wait: null });
  });
});

describe('what a journal tells a resumed run', () => {
  const line = (o: object) => `${JSON.stringify(o)}\n`;
  const result = (hw: string, status: string, at: string) => line({ type: 'result', hardware_id: hw, status, at });

  it('the devices still followed (with their acceptance and report before), and a brake counting from its last stop', async () => {
    const file = path.join(tempDir('fleetctl-settings-'), 'run.ndjson');
    writeFileSync(
      file,
      line({ ...base, targets: ['HW-1', 'HW-2', 'HW-3', 'HW-4'] }) +
        result('HW-1', 'accepted', '2026-11-27T10:00:01.000Z') +
        line({ type: 'wait', hardware_id: 'HW-1', outcome: 'watching', accepted_at: '2026-11-27T10:00:01.000Z', reported_before: '2026-11-27T09:00:00.000Z', at: '2026-11-27T10:00:01.000Z' }) +
        line({ type: 'wait', hardware_id: 'HW-1', outcome: 'not_back', after_ms: null, at: '2026-11-27T10:00:31.000Z' }) +
        line({ type: 'brake', reason: '1 of 1', at: '2026-11-27T10:00:31.000Z' }) +
        result('HW-2', 'accepted', '2026-11-27T10:01:00.000Z') +
        line({ type: 'wait', hardware_id: 'HW-2', outcome: 'watching', accepted_at: '2026-11-27T10:01:00.000Z', reported_before: null, at: '2026-11-27T10:01:00.000Z' }) +
        result('HW-3', 'failed', '2026-11-27T10:01:00.500Z') +
        result('HW-4', 'accepted', '2026-11-27T10:01:01.000Z') +
        line({ type: 'wait', hardware_id: 'HW-4', outcome: 'watching', accepted_at: '2026-11-27T10:01:01.000Z', at: '2026-11-27T10:01:02.000Z' }),
    );
    const journal = await Journal.open(file, RUN);
    try {
      expect(journal.history.lastAt).toBe(Date.parse('2026-11-27T10:01:02.000Z'));
      expect(journal.history.stoppedByBrake).toBe(true);
      expect([...stillWatched(journal.results, journal)]).toEqual([
        ['HW-2', { acceptedAt: Date.parse('2026-11-27T10:01:00.000Z'), before: null }],
        ['HW-4', { acceptedAt: Date.parse('2026-11-27T10:01:01.000Z'), before: undefined }],
      ]);
      // HW-1 (not back) was before the brake stopped the run: the operator went on; HW-3 failed since
      const brake = brakeFrom({ count: 2 }, journal.results, journal);
      expect([brake.sent, brake.failed, brake.tripped]).toEqual([3, 1, false]);
    } finally {
      journal.close();
    }
  });
});
