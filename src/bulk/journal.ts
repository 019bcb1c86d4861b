// The journal of a bulk run: a header naming the run, a `sending` line synced to disk before its first request, then
// one line per device result, appended as results arrive (synchronously, so a crash loses at most the answers in
// flight; those are replayed by their keys).
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { ensureParentDirectory } from '../io/directories.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import path from 'node:path';
import { diskFullOf, type DiskFullError, UsageError } from '../errors.js';
import { InputFileError, readTextFile, requireRegularFileOrMissing } from '../io/read-input.js';
import type { DeviceCommandResult } from '../api/device-commands.js';
import { isSuccess } from '../api/device-commands.js';
import { acquireLock, type HeldLock } from '../io/file-lock.js';
import { JournalReading, readJournalText, tornDevice, type BrakeLine, type JournalEntry, type JournalHeader, type JournalHistory, type JournalResult, type SendingLine, type WaitLine } from './journal-reader.js';

export type { JournalEntry, JournalHeader, RunSettings } from './journal-reader.js';

/** A device needs nothing more once it was accepted, replayed, or can never succeed (incapable, unknown). */
export function isDone(result: DeviceCommandResult): boolean {
  return isSuccess(result.status) || result.status === 'capability_missing' || result.status === 'not_found';
}

export function defaultJournalPath(configDir: string, runId: string): string {
  return path.join(configDir, 'runs', `${runId}.ndjson`);
}

/**
 * Where a run given its own --journal is noted in the config folder (`runs/RUN_ID.where`, the journal's absolute
 * path), so that `--resume RUN_ID` and `fleetctl status` find it without being told.
 */
export function journalNotePath(configDir: string, runId: string): string {
  return path.join(path.dirname(defaultJournalPath(configDir, runId)), `${runId}.where`);
}

/** The journal a run keeps: --journal when given (noted for later: noteJournalElsewhere), else the config folder's. */
export function journalPathOf(configDir: string, runId: string, given: string | undefined): string {
  if (given !== undefined) return given;
  const own = defaultJournalPath(configDir, runId);
  if (existsSync(own)) return own;
  return notedJournal(journalNotePath(configDir, runId)) ?? own;
}

/** The journal a note names; undefined when there is no readable note. */
export function notedJournal(note: string): string | undefined {
  try {
    const noted = (JSON.parse(readFileSync(note, 'utf8')) as { journal?: unknown }).journal;
    return typeof noted === 'string' && path.isAbsolute(noted) ? noted : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Notes a journal kept outside the config folder. Only a convenience: a note that cannot be written leaves the run
 * as it is (it goes on, and its resume hint names --journal).
 */
export async function noteJournalElsewhere(configDir: string, runId: string, journalFile: string): Promise<void> {
  const file = path.resolve(journalFile);
  if (file === path.resolve(defaultJournalPath(configDir, runId))) return;
  await writeFileAtomically(journalNotePath(configDir, runId), `${JSON.stringify({ run_id: runId, journal: file })}\n`, { mode: 0o600, directoryMode: 0o700 }).catch(() => undefined);
}

/**
 * One process at a time writes a journal (JOURNAL.lock, taken before the journal is read): a second `--resume` of
 * a run still going is refused at once, naming the run and the process, before it reads or sends anything.
 */
function lockJournal(file: string, what: string): Promise<HeldLock> {
  return acquireLock(`${file}.lock`, { what, waitMs: 0, purpose: 'a bulk run' });
}

export class Journal<R extends JournalEntry = DeviceCommandResult> {
  private constructor(
    readonly file: string,
    readonly header: JournalHeader,
    /** The last result of each device recorded so far. */
    readonly results: Map<string, R>,
    private readonly lock: HeldLock,
    /** What was read besides the results (a new journal: nothing). */
    readonly history: JournalHistory = new JournalReading(file).history,
    /** Its `sending` line is written. */
    private sendingMarked = false,
  ) {}

  /** `notice`: one line when an empty journal left by a killed start is replaced. */
  static async create<R extends JournalEntry = DeviceCommandResult>(file: string, header: JournalHeader, notice?: (line: string) => void): Promise<Journal<R>> {
    requireRegularFileOrMissing(file, 'the journal');
    await refuseExisting(file, false);
    try {
      ensureParentDirectory(file);
    } catch (error) {
      throw unwritable(file, error);
    }
    // two new runs given one --journal at once: one of them writes it
    const lock = await lockJournal(file, `the journal ${file}`);
    try {
      return await new Journal<R>(file, { ...header, marks_sending: true }, new Map(), lock).start(notice);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Writes the header of a new journal; never over one that holds results. */
  private async start(notice?: (line: string) => void): Promise<Journal<R>> {
    const { file, header } = this;
    // under the journal's lock: a journal with no result is no live run's (its run would hold the lock)
    const replaced = await refuseExisting(file, true);
    try {
      if (replaced !== undefined) unlinkSync(file);
      appendFileSync(file, `${JSON.stringify(header)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // nothing was sent yet: a journal that cannot be written stops the run before it starts
      throw unwritable(file, error);
    }
    if (replaced !== undefined) notice?.(`Replaced the journal ${file}: ${replaced}, left by a run killed as it started.`);
    return this;
  }

  /** `notice`: one line when a last line cut short is dropped (repairTail). */
  static async open<R extends JournalEntry = DeviceCommandResult>(file: string, runId: string, notice?: (line: string) => void): Promise<Journal<R>> {
    requireRegularFileOrMissing(file, 'the journal');
    // a journal that is not there is said so, and no lock file (nor its folder) is made for it
    if (!existsSync(file)) throw noJournal(file, runId, 'ENOENT');
    const lock = await lockJournal(file, `run ${runId}`);
    try {
      return await Journal.read<R>(file, runId, lock, notice);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static async read<R extends JournalEntry>(file: string, runId: string, lock: HeldLock, notice?: (line: string) => void): Promise<Journal<R>> {
    // bounded and never blocking: --journal may name a FIFO or a device by mistake
    const text = await readTextFile(file, `the journal ${file}`).catch((error: unknown) => {
      if (!(error instanceof InputFileError) || error.code === undefined) throw error;
      throw noJournal(file, runId, error.code);
    });
    const { reading, kept } = readJournalText<R>(text, file);
    const header = reading.requireHeader(runId);
    repairTail(file, text.slice(0, kept), kept < text.length || !text.endsWith('\n'));
    if (reading.torn !== undefined) notice?.(`Repaired the journal ${file}: dropped its last line, cut short as it was written (a crash or a full disk)${tornDevice(reading.torn)}.`);
    return new Journal<R>(file, header, reading.results, lock, reading.history, reading.sending);
  }

  append(result: R, at: Date): void {
    this.results.set(result.hardware_id, result);
    const record: JournalResult<R> = { ...result, type: 'result', at: at.toISOString() };
    this.appendLine(record);
  }

  /** What --wait saw of a device. */
  appendWait(line: WaitLine): void {
    this.history.waits.set(line.hardware_id, line);
    this.appendLine(line);
  }

  /** The brake stopped the run. */
  appendBrake(reason: string, at: Date): void {
    const line: BrakeLine = { type: 'brake', reason, at: at.toISOString() };
    this.appendLine(line);
  }

  /**
   * Before the run's first request: from this line on, commands may have been sent whose answers the journal does
   * not hold, so only --resume may finish the run. Synced to disk before anything is sent; written once.
   */
  markSending(at: Date): void {
    if (this.sendingMarked) return;
    const line: SendingLine = { type: 'sending', at: at.toISOString() };
    this.appendLine(line, true);
    this.sendingMarked = true;
  }

  /** One line, in one write; a full disk stops the run (exit 15, with its resume line), any part written is repaired on resume. */
  private appendLine(record: object, durable = false): void {
    try {
      if (!durable) appendFileSync(this.file, `${JSON.stringify(record)}\n`);
      else appendDurably(this.file, `${JSON.stringify(record)}\n`);
    } catch (error) {
      throw diskFullOf(error, this.file) ?? error;
    }
  }

  /** Lets another process resume the run. */
  close(): void {
    this.lock.release();
  }
}

/**
 * Refuses an existing journal, unless its run provably sent nothing (a run killed as it started: not even a whole
 * header, or a header and no `sending` line after it) and `replaceable`: then says what it held, for the line that
 * says it is replaced. Any other journal is never replaced: its run may have sent commands whose answers it did not
 * live to write, and only its --resume replays them with their keys (a new run would send them again, with new
 * ones). A header of an older fleetctl, which wrote no `sending` line, proves nothing: refused too.
 */
async function refuseExisting(file: string, replaceable: boolean): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  const text = await readTextFile(file, `the journal ${file}`).catch(() => undefined);
  let reading: JournalReading<JournalEntry> | undefined;
  try {
    reading = text === undefined ? undefined : readJournalText(text, file).reading;
  } catch {
    reading = undefined; // not a journal: never replaced
  }
  const owner = reading?.header?.run_id;
  if (text !== undefined && reading !== undefined && (reading.header === undefined || sentNothing(reading))) {
    if (replaceable) return text.trim() === '' ? 'it was empty' : reading.header === undefined ? 'it held not even a whole header' : 'it held only its header: its run sent nothing';
    return undefined; // decided under the journal's lock, which a live run holds
  }
  throw new UsageError(
    `journal ${file} already exists`,
    owner ? `it is the journal of run ${owner}: finish that run with --resume ${owner} --journal ${file}, or choose another --journal` : 'choose another --journal',
  );
}

/** A whole header and no line after it, from a fleetctl that marks the start of sending: nothing was sent. */
function sentNothing(reading: JournalReading<JournalEntry>): boolean {
  return reading.header?.marks_sending === true && reading.records === 0 && reading.torn === undefined;
}

/** Appends `text` and syncs it to the disk before returning. */
function appendDurably(file: string, text: string): void {
  const descriptor = openSync(file, 'a');
  try {
    writeSync(descriptor, text);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function unwritable(file: string, error: unknown): UsageError | DiskFullError {
  return diskFullOf(error, file) ?? new UsageError(`cannot write the journal ${file}: ${(error as Error).message}`, 'choose a writable --journal FILE');
}

function noJournal(file: string, runId: string, code: string): UsageError {
  return new UsageError(`no journal for run ${runId} at ${file} (${code})`, 'pass --journal FILE if the run used one');
}

/**
 * Truncates the journal to the lines read (`kept`, each ended by a newline) when `torn`: a line cut short is dropped
 * before anything is appended after it, so the next read does not find it mid-file (only a last line may be torn).
 */
function repairTail(file: string, kept: string, torn: boolean): void {
  if (!torn) return;
  try {
    truncateSync(file, Buffer.byteLength(kept));
    // a whole record whose newline was not written keeps it: the line is complete, and the next one starts apart
    if (kept !== '' && !kept.endsWith('\n')) appendFileSync(file, '\n');
  } catch (error) {
    throw diskFullOf(error, file) ?? new UsageError(`cannot repair the journal ${file}: ${(error as Error).message}`, 'check that you may write to it');
  }
}
