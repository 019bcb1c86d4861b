// Concurrent fleetctl processes lose no ledger line: 8 processes append 400 lines each at once, through the same
// writer the CLI uses (bundled for them as it is in the CLI), with a rotation size small enough that the file is
// renamed under them again and again. Afterwards every line of every process is there once, whole.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { readLedger, type LedgerReading } from '../../src/ledger/reader.js';
import { tempDir } from '../support/temp-dir.js';

const PROCESSES = 8;
const LINES = 400;
/** Rotations keep every line: the generations kept hold more than all the lines written. */
const KEPT = 80;

describe('many processes appending to one ledger', () => {
  it('keeps every line whole and once, across rotations', async () => {
    const dir = tempDir('fleetctl-ledger-parallel-');
    const module = path.join(dir, 'writer.mjs');
    buildSync({ entryPoints: [path.resolve('src/ledger/writer.ts')], bundle: true, platform: 'node', format: 'esm', outfile: module, logLevel: 'silent' });
    const file = path.join(dir, 'ledger.ndjson');
    const script = (p: number) => `
      const { appendLedgerLine } = await import(${JSON.stringify(module)});
      // lines of different lengths, some long, so a torn or interleaved write would show
      for (let i = 0; i < ${LINES}; i++) {
        const entry = { v: 1, time: new Date().toISOString(), profile: 'p${p}', base_url: null, client_id: null, command: 'devices reboot', argv: [], run_id: 'p${p}-' + i, targets: [{ target: 'x'.repeat(i % 7 === 0 ? 3000 : 10), outcome: 'accepted' }], outcomes: { accepted: 1 } };
        await appendLedgerLine(${JSON.stringify(file)}, JSON.stringify(entry), { maxBytes: 64 * 1024, kept: ${KEPT} });
      }`;
    const codes = await Promise.all(
      Array.from({ length: PROCESSES }, (_, p) => new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script(p)], { stdio: 'inherit' });
        child.on('exit', resolve);
      })),
    );
    expect(codes).toEqual(Array(PROCESSES).fill(0));
    const reading: LedgerReading = { skipped: 0 };
    const seen = new Map<string, number>();
    for await (const entry of readLedger(file, reading, KEPT)) seen.set(entry.run_id!, (seen.get(entry.run_id!) ?? 0) + 1);
    // it was rotated under the writers many times
    expect(existsSync(`${file}.10`)).toBe(true);
    expect(reading.skipped).toBe(0);
    expect(seen.size).toBe(PROCESSES * LINES);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});
