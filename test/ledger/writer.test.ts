// The ledger's file: one whole line per write, created 0600, rotated at its size into LEDGER.1 ... LEDGER.N (the
// oldest dropped), read back oldest first with lines that are no entry passed over and counted.
import { describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appendLedgerLine, ledgerGenerations, rotateLedger } from '../../src/ledger/writer.js';
import { readLedger, type LedgerReading } from '../../src/ledger/reader.js';
import { LEDGER_VERSION, type LedgerEntry } from '../../src/ledger/entry.js';
import { tempDir } from '../support/temp-dir.js';

function entry(command: string, n = 0): LedgerEntry {
  return { v: LEDGER_VERSION, time: new Date(Date.UTC(2026, 10, 27, 12, 0, n)).toISOString(), profile: 'default', base_url: null, client_id: null, command, argv: [], run_id: null, targets: [{ target: `T${n}`, outcome: 'set' }], outcomes: { set: 1 } };
}

async function readAll(file: string, kept?: number): Promise<{ entries: LedgerEntry[]; skipped: number }> {
  const reading: LedgerReading = { skipped: 0 };
  const entries: LedgerEntry[] = [];
  for await (const e of readLedger(file, reading, kept)) entries.push(e);
  return { entries, skipped: reading.skipped };
}

describe('appendLedgerLine', () => {
  it('creates the file and its folder, readable by its owner only, and appends whole lines', async () => {
    const file = path.join(tempDir('fleetctl-ledger-'), 'deep', 'ledger.ndjson');
    await appendLedgerLine(file, JSON.stringify(entry('config set', 1)));
    await appendLedgerLine(file, JSON.stringify(entry('config set', 2)));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[1]!).targets).toEqual([{ target: 'T2', outcome: 'set' }]);
  });

  it('rotates once the file reaches its size: LEDGER.1 then LEDGER.2 ..., the oldest dropped past `kept`', async () => {
    const file = path.join(tempDir('fleetctl-ledger-'), 'ledger.ndjson');
    const line = JSON.stringify(entry('devices reboot'));
    // each line brings the file to its size: every append rotates
    for (let i = 0; i < 4; i++) await appendLedgerLine(file, line.replace('T0', `T${i}`), { maxBytes: line.length, kept: 2 });
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('"T3"');
    expect(readFileSync(`${file}.2`, 'utf8')).toContain('"T2"');
    expect(existsSync(`${file}.3`)).toBe(false);
  });

  it('does not rotate a file another process rotated meanwhile (checked again under the lock)', async () => {
    const file = path.join(tempDir('fleetctl-ledger-'), 'ledger.ndjson');
    writeFileSync(file, 'x\n');
    expect(await rotateLedger(file, 100, 3)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('x\n');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, hostname: 'here', acquired_at: new Date().toISOString(), purpose: 'rotating', token: 't' }));
    // busy: another process rotates it now
    expect(await rotateLedger(file, 1, 3)).toBe(false);
    expect(existsSync(`${file}.1`)).toBe(false);
  });

  it('fails, for the caller to warn about, when the file cannot be opened', async () => {
    const dir = tempDir('fleetctl-ledger-');
    await expect(appendLedgerLine(dir, '{}')).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('readLedger', () => {
  it('reads the rotated files, oldest first, then the ledger; nothing when there is none', async () => {
    const file = path.join(tempDir('fleetctl-ledger-'), 'ledger.ndjson');
    expect(await readAll(file)).toEqual({ entries: [], skipped: 0 });
    writeFileSync(`${file}.2`, `${JSON.stringify(entry('a', 1))}\n`);
    writeFileSync(`${file}.1`, `${JSON.stringify(entry('b', 2))}\n`);
    writeFileSync(file, `${JSON.stringify(entry('c', 3))}\n`);
    expect(ledgerGenerations(file, 2)).toEqual([`${file}.2`, `${file}.1`, file]);
    expect((await readAll(file, 2)).entries.map((e) => e.command)).toEqual(['a', 'b', 'c']);
  });

  it('passes over, and counts, a torn line, a line of another version and text that is no JSON', async () => {
    const file = path.join(tempDir('fleetctl-ledger-'), 'ledger.ndjson');
    writeFileSync(file, `${JSON.stringify(entry('a'))}\n{"v":1,"time":"2026\nnot json\n${JSON.stringify({ ...entry('b'), v: 2 })}\n\n`);
    appendFileSync(file, `${JSON.stringify(entry('c'))}\n`);
    const read = await readAll(file);
    expect(read.entries.map((e) => e.command)).toEqual(['a', 'c']);
    expect(read.skipped).toBe(3);
  });
});
