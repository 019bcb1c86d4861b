// Reads the audit ledger back, oldest line first: the rotated files (LEDGER.3 ... LEDGER.1), then the ledger. Line
// by line, so a ledger of many megabytes is read in flat memory; a line that is not an entry this fleetctl reads
// (cut short by a full disk, written by a later version, edited by hand) is counted and passed over, never fatal.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { asLedgerEntry, type LedgerEntry } from './entry.js';
import { ledgerGenerations, LEDGER_KEPT } from './writer.js';

export interface LedgerReading {
  /** Lines passed over as no entry (counted as they are read). */
  skipped: number;
}

export async function* readLedger(file: string, reading: LedgerReading, kept = LEDGER_KEPT): AsyncGenerator<LedgerEntry> {
  for (const generation of ledgerGenerations(file, kept)) {
    for await (const line of linesOf(generation)) {
      if (line.trim() === '') continue;
      const entry = parsed(line);
      if (entry) yield entry;
      else reading.skipped++;
    }
  }
}

async function* linesOf(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  // a rotated file that is not there (yet) is no error; anything else (permission) is the reader's to say
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('ready', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!opened) return;
  yield* createInterface({ input: stream, crlfDelay: Infinity });
}

function parsed(line: string): LedgerEntry | undefined {
  try {
    return asLedgerEntry(JSON.parse(line));
  } catch {
    return undefined;
  }
}
