// fleetctl history: its flags checked before the ledger is read, its table within 80 columns on a terminal with
// the run id, time, command and outcomes of every line, and the lines whole with -o json.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { IOStreams } from '../../../src/io/streams.js';
import { Output } from '../../../src/output/render.js';
import { newHistoryCommand, historyRun, type HistoryOptions } from '../../../src/commands/history/index.js';
import type { Settings } from '../../../src/config/settings.js';
import type { LedgerEntry } from '../../../src/ledger/entry.js';
import type { Clock } from '../../../src/io/clock.js';
import { tempDir } from '../../support/temp-dir.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const none = { value: undefined, source: undefined };

function entry(command: string, runId: string | null, outcomes: Record<string, number>, time: string): LedgerEntry {
  const targets = Object.entries(outcomes).flatMap(([outcome, n]) => Array.from({ length: n }, (_, i) => ({ target: `HW-${outcome}-${i}`, outcome })));
  return { v: 1, time, profile: 'prod', base_url: 'https://api.example.com', client_id: 'ops', command, argv: [], run_id: runId, targets, outcomes };
}

function setUp(opts: { tty?: boolean; format?: 'table' | 'json' | 'csv' } = {}) {
  const dir = tempDir('fleetctl-history-');
  const file = path.join(dir, 'ledger.ndjson');
  const io = IOStreams.forTest({ tty: opts.tty ?? false, columns: 80 });
  const deps = {
    io, env: { FLEETCTL_LEDGER: file }, clock: { now: () => NOW } as Clock, configDir: () => dir,
    settings: async () => ({ profile: { value: 'prod', source: 'default' }, ledger_file: none }) as unknown as Settings,
    output: () => new Output(io, { format: opts.format ?? 'table' }),
  };
  return { file, io, deps };
}

const LINES = [
  entry('devices reboot', '20261127T100000Z-3f9a1c', { accepted: 240, replayed: 12, failed: 3, not_found: 1 }, '2026-11-27T10:00:04.120Z'),
  entry('webhook-config regenerate-key', null, { key_regenerated: 1 }, '2026-11-27T11:00:00.000Z'),
  entry('devices assign', '20261127T113000Z-77aa01', { assigned: 5, unchanged: 2 }, '2026-11-27T11:30:00.000Z'),
];

describe('history', () => {
  it('a terminal of 80 columns: every line fits, with each run id, time, command and outcome count', async () => {
    const { file, io, deps } = setUp({ tty: true });
    writeFileSync(file, LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await historyRun(deps, {});
    const lines = io.stdout().trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const text = io.stdout();
    expect(lines[1]).toMatch(/RUN ID.*TIME.*ACTION.*OUTCOMES/);
    for (const id of ['20261127T100000Z-3f9a1c', '20261127T113000Z-77aa01', '2026-11-27 10:00', '2026-11-27 11:00', 'devices reboot', 'devices assign', '240 accep', '5 assigned']) expect(text).toContain(id);
  });

  it('-o json: the lines whole, those --since and --where select', async () => {
    const { file, io, deps } = setUp({ format: 'json' });
    writeFileSync(file, LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const options: HistoryOptions[] = [];
    const command = newHistoryCommand(deps, async (_deps, opts) => void options.push(opts));
    await command.parseAsync(['--since', '90m', '--where', 'outcome:assigned,key_regenerated'], { from: 'user' });
    await historyRun(deps, options[0]!);
    expect(JSON.parse(io.stdout())).toEqual([LINES[1], LINES[2]]);
    expect(options[0]!.sinceMs).toBe(NOW.getTime() - 90 * 60_000);
  });

  it('-o csv: the table\'s columns, a row of each line (not a blank row per line)', async () => {
    const { file, io, deps } = setUp({ format: 'csv' });
    writeFileSync(file, LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await historyRun(deps, {});
    expect(io.stdout().trimEnd().split('\n')).toEqual([
      'run_id,time,action,outcomes',
      '20261127T100000Z-3f9a1c,2026-11-27T10:00:04Z,devices reboot,"240 accepted, 12 replayed, 3 failed, 1 not_found"',
      ',2026-11-27T11:00:00Z,webhook-config regenerate-key,1 key_regenerated',
      '20261127T113000Z-77aa01,2026-11-27T11:30:00Z,devices assign,"5 assigned, 2 unchanged"',
    ]);
  });

  it('refuses a date or a condition it cannot read, before reading the ledger', async () => {
    const { deps } = setUp();
    const command = newHistoryCommand(deps, async () => expect.unreachable());
    await expect(command.parseAsync(['--since', 'yesterday'], { from: 'user' })).rejects.toThrow('--since must be an ISO 8601 date-time');
    await expect(command.parseAsync(['--where', 'seen:>2h'], { from: 'user' })).rejects.toThrow('history --where has no seen:');
  });

  it('no ledger yet: nothing listed, and where it would be', async () => {
    const { file, io, deps } = setUp({ format: 'json' });
    await historyRun(deps, {});
    expect(JSON.parse(io.stdout())).toEqual([]);
    expect(io.stderr()).toBe(`No changes recorded in ${file}.\n`);
  });
});
