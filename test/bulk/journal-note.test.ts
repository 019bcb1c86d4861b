// A run given its own --journal is noted in the config folder, so --resume RUN_ID and `fleetctl status` find it.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultJournalPath, journalNotePath, journalPathOf, notedJournal, noteJournalElsewhere } from '../../src/bulk/journal.js';
import { recentRuns } from '../../src/commands/status/recent-runs.js';
import { tempDir } from '../support/temp-dir.js';

const RUN = '20261126T054823Z-04526e';
const header = (runId: string, createdAt = new Date().toISOString()) => `${JSON.stringify({ type: 'run', version: 1, run_id: runId, command: 'reboot', key_base: 'k', targets: ['HW-1', 'HW-2'], created_at: createdAt })}\n`;
const result = (hw: string, status: string) => `${JSON.stringify({ type: 'result', at: new Date().toISOString(), hardware_id: hw, status })}\n`;

describe('the note of a journal kept elsewhere', () => {
  it('is written 0600 with the absolute path, and --resume RUN_ID then finds the journal', async () => {
    const config = tempDir('fleetctl-note-config-');
    const elsewhere = tempDir('fleetctl-note-elsewhere-');
    const journal = path.join(elsewhere, 'night.ndjson');
    expect(journalPathOf(config, RUN, undefined)).toBe(defaultJournalPath(config, RUN));
    await noteJournalElsewhere(config, RUN, journal);
    const note = journalNotePath(config, RUN);
    expect(statSync(note).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(note, 'utf8'))).toEqual({ run_id: RUN, journal });
    expect(journalPathOf(config, RUN, undefined)).toBe(journal);
    // --journal given wins; a journal in the config folder itself wins over a note
    expect(journalPathOf(config, RUN, 'other.ndjson')).toBe('other.ndjson');
    mkdirSync(path.dirname(defaultJournalPath(config, RUN)), { recursive: true });
    writeFileSync(defaultJournalPath(config, RUN), header(RUN));
    expect(journalPathOf(config, RUN, undefined)).toBe(defaultJournalPath(config, RUN));
  });

  it('is not written for the default journal, and one that cannot be written changes nothing and throws nothing', async () => {
    const config = tempDir('fleetctl-note-config-');
    await noteJournalElsewhere(config, RUN, defaultJournalPath(config, RUN));
    expect(existsSync(journalNotePath(config, RUN))).toBe(false);
    const readOnly = tempDir('fleetctl-note-readonly-');
    chmodSync(readOnly, 0o500);
    try {
      await expect(noteJournalElsewhere(path.join(readOnly, 'config'), RUN, '/srv/night.ndjson')).resolves.toBeUndefined();
      await expect(noteJournalElsewhere('/proc/fleetctl-nope', RUN, '/srv/night.ndjson')).resolves.toBeUndefined();
    } finally {
      chmodSync(readOnly, 0o700);
    }
  });

  it('says nothing when it is not JSON, names no path, or a relative one', () => {
    const dir = tempDir('fleetctl-note-bad-');
    const cases = ['not json', '{}', '{"journal": 3}', '{"journal": "relative/night.ndjson"}'];
    cases.forEach((text, i) => writeFileSync(path.join(dir, `${i}.where`), text));
    expect(cases.map((_, i) => notedJournal(path.join(dir, `${i}.where`)))).toEqual([undefined, undefined, undefined, undefined]);
    expect(notedJournal(path.join(dir, 'missing.where'))).toBeUndefined();
  });
});

describe('recentRuns reads noted journals', () => {
  it('lists a run kept elsewhere once, skips one moved away or no longer a file', async () => {
    const config = tempDir('fleetctl-note-config-');
    const elsewhere = tempDir('fleetctl-note-elsewhere-');
    const own = 'A20261126T000000Z-aaaaaa';
    mkdirSync(path.dirname(defaultJournalPath(config, own)), { recursive: true });
    writeFileSync(defaultJournalPath(config, own), header(own, new Date(Date.now() - 60_000).toISOString()) + result('HW-1', 'accepted'));
    const kept = path.join(elsewhere, 'kept.ndjson');
    writeFileSync(kept, header(RUN) + result('HW-1', 'accepted') + result('HW-2', 'failed'));
    await noteJournalElsewhere(config, RUN, kept);
    // a journal noted twice (a second note naming the same file) is still one run
    await noteJournalElsewhere(config, 'B20261126T000000Z-bbbbbb', kept);
    await noteJournalElsewhere(config, 'C20261126T000000Z-cccccc', path.join(elsewhere, 'moved-away.ndjson'));
    const fifo = path.join(elsewhere, 'fifo.ndjson');
    execFileSync('mkfifo', [fifo]);
    await noteJournalElsewhere(config, 'D20261126T000000Z-dddddd', fifo);
    // these journals name no service: apart, as "not recorded"
    const recent = await recentRuns(config, Date.now() - 3_600_000, undefined);
    const note = recent.note;
    expect(recent.runs).toEqual([]);
    expect(recent.elsewhere.map((g) => g.service)).toEqual([null]);
    const runs = recent.elsewhere[0]!.runs;
    expect(note).toBeUndefined();
    expect(runs.map((r) => [r.run_id, r.results])).toEqual([
      [own, { accepted: 1, pending: 1 }],
      [RUN, { accepted: 1, failed: 1 }],
    ]);
  });
});
