// Appends to the audit ledger and rotates it. Many fleetctl processes append to one ledger at once (xargs -P, CI
// matrix jobs, a shared file a log collector reads): each line is one write(2) of the whole line to a file opened
// with O_APPEND, which the kernel places at the end as one piece, so no line is lost or torn by another's, and no
// lock is taken for it. Rotation alone takes the one cross-process lock (io/file-lock.ts): the ledger is renamed
// to LEDGER.1 (LEDGER.1 to LEDGER.2, ...; the oldest dropped) by one process, after checking under the lock that
// no other did it meanwhile. A writer that opened the file just before a rename writes into LEDGER.1: its line is
// kept there, as the reader reads the rotated files too.
import { closeSync, constants, fstatSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { ensureParentDirectory } from '../io/directories.js';

/** The size at which the ledger is rotated: 10 MiB. */
export const LEDGER_MAX_BYTES = 10 * 1024 * 1024;
/** How many rotated files are kept beside the ledger (LEDGER.1 newest ... LEDGER.3 oldest). */
export const LEDGER_KEPT = 3;

export interface LedgerFileOptions {
  maxBytes?: number;
  kept?: number;
}

/** The rotated files of a ledger, oldest first, then the ledger itself: the order its lines were written in. */
export function ledgerGenerations(file: string, kept = LEDGER_KEPT): string[] {
  return [...Array.from({ length: kept }, (_, i) => `${file}.${kept - i}`), file];
}

/** Appends one line (a newline is added) in a single write; rotates the file when it has reached its size. */
export async function appendLedgerLine(file: string, line: string, opts: LedgerFileOptions = {}): Promise<void> {
  const maxBytes = opts.maxBytes ?? LEDGER_MAX_BYTES;
  const bytes = Buffer.from(`${line}\n`);
  const fd = openLedger(file);
  let size: number;
  try {
    const written = writeSync(fd, bytes);
    if (written !== bytes.length) throw new Error(`only ${written} of ${bytes.length} bytes were written`);
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  if (size >= maxBytes) await rotateLedger(file, maxBytes, opts.kept ?? LEDGER_KEPT);
}

/**
 * Renames the ledger to LEDGER.1 when it is still at its size, under the ledger's lock. A lock held by another
 * process means that process is rotating it now: nothing to do here.
 */
export async function rotateLedger(file: string, maxBytes: number, kept: number): Promise<boolean> {
  // loaded only to rotate (node:crypto and the lock's holder checks cost a command more than its append)
  const { acquireLock } = await import('../io/file-lock.js');
  const lock = await acquireLock(`${file}.lock`, { what: 'the ledger', waitMs: 0, purpose: 'rotating the ledger' }).catch(() => undefined);
  if (!lock) return false;
  try {
    if (sizeOf(file) < maxBytes) return false;
    const generations = ledgerGenerations(file, kept);
    // oldest first: LEDGER.2 -> LEDGER.3 replaces the oldest, ..., LEDGER -> LEDGER.1
    for (let i = 1; i < generations.length; i++) renameIfThere(generations[i]!, generations[i - 1]!);
    return true;
  } finally {
    lock.release();
  }
}

/** 0600: created readable by its owner only (a file that exists keeps the mode its owner gave it). */
function openLedger(file: string): number {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
  try {
    return openSync(file, flags, 0o600);
  } catch (error) {
    // its folder is made on the first need only: every other command pays for the open alone
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    ensureParentDirectory(file);
    return openSync(file, flags, 0o600);
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
