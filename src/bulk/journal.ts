// The journal of a bulk run: a header naming the run, then one line per device result, appended as results
// arrive (synchronously, so a crash loses at most the answers in flight; those are replayed by their keys).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { ensureParentDirectory } from '../io/directories.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { InputFileError, readTextFile, requireRegularFileOrMissing } from '../io/read-input.js';
import type { DeviceCommand, DeviceCommandResult } from '../api/device-commands.js';
import { isSuccess } from '../api/device-commands.js';
import { acquireLock, type HeldLock } from '../shared/file-lock.js';
import type { WaveOptions } from './waves.js';
import type { RunService } from './service.js';

export interface JournalHeader {
  type: 'run';
  version: 1;
  run_id: string;
  /** A device command, or an assignment (devices assign|unassign --from-file). */
  command: DeviceCommand | 'assign' | 'unassign';
  key_base: string;
  targets: string[];
  created_at: string;
  /** An assign run: the vehicle of each target. */
  vehicles?: Record<string, string>;
  /** The run's canary, waves and brake (bulk/waves.ts), kept for --resume. */
  waves?: WaveOptions;
  /** The service and client the run was sent to (bulk/service.ts); absent in journals of an older fleetctl. */
  service?: RunService;
}

/** What every journalled result carries: the target it is for (its key in the run) and its status. */
export interface JournalEntry {
  hardware_id: string;
  status: string;
}

export type JournalResult<R extends JournalEntry = DeviceCommandResult> = R & {
  type: 'result';
  at: string;
};

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
  ) {}

  static async create<R extends JournalEntry = DeviceCommandResult>(file: string, header: JournalHeader): Promise<Journal<R>> {
    requireRegularFileOrMissing(file, 'the journal');
    await refuseExisting(file);
    try {
      ensureParentDirectory(file);
    } catch (error) {
      throw unwritable(file, error);
    }
    // two new runs given one --journal at once: one of them writes it
    const lock = await lockJournal(file, `the journal ${file}`);
    try {
      return await new Journal<R>(file, header, new Map(), lock).start();
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Writes the header of a new journal; never over an existing one. */
  private async start(): Promise<Journal<R>> {
    const { file, header } = this;
    await refuseExisting(file);
    try {
      appendFileSync(file, `${JSON.stringify(header)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // nothing was sent yet: a journal that cannot be written stops the run before it starts
      throw unwritable(file, error);
    }
    return this;
  }

  static async open<R extends JournalEntry = DeviceCommandResult>(file: string, runId: string): Promise<Journal<R>> {
    requireRegularFileOrMissing(file, 'the journal');
    // a journal that is not there is said so, and no lock file (nor its folder) is made for it
    if (!existsSync(file)) throw noJournal(file, runId, 'ENOENT');
    const lock = await lockJournal(file, `run ${runId}`);
    try {
      return await Journal.read<R>(file, runId, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static async read<R extends JournalEntry>(file: string, runId: string, lock: HeldLock): Promise<Journal<R>> {
    // bounded and never blocking: --journal may name a FIFO or a device by mistake
    const text = await readTextFile(file, `the journal ${file}`).catch((error: unknown) => {
      if (!(error instanceof InputFileError) || error.code === undefined) throw error;
      throw noJournal(file, runId, error.code);
    });
    const lines = text.split('\n');
    let header: JournalHeader | undefined;
    const results = new Map<string, R>();
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      let record: JournalHeader | JournalResult<R>;
      try {
        record = JSON.parse(line) as JournalHeader | JournalResult<R>;
      } catch {
        // a line cut short by a crash is the last one: what it said is simply unknown, and will be replayed
        if (index >= lines.length - 2) return;
        throw new UsageError(`journal ${file} line ${index + 1} is not JSON`);
      }
      if (record.type === 'run') header = record;
      else if (record.type === 'result') {
        const { type: _type, at: _at, ...result } = record;
        results.set(result.hardware_id, result as unknown as R);
      }
    });
    if (!header) throw new UsageError(`journal ${file} has no run header`);
    if (header.run_id !== runId) throw new UsageError(`journal ${file} is for run ${header.run_id}, not ${runId}`);
    return new Journal<R>(file, header, results, lock);
  }

  append(result: R, at: Date): void {
    this.results.set(result.hardware_id, result);
    const record: JournalResult<R> = { ...result, type: 'result', at: at.toISOString() };
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }

  /** Lets another process resume the run. */
  close(): void {
    this.lock.release();
  }
}

async function refuseExisting(file: string): Promise<void> {
  if (!existsSync(file)) return;
  const owner = await runIdOf(file);
  throw new UsageError(
    `journal ${file} already exists`,
    owner ? `it is the journal of run ${owner}: finish that run with --resume ${owner} --journal ${file}, or choose another --journal` : 'choose another --journal',
  );
}

function unwritable(file: string, error: unknown): UsageError {
  return new UsageError(`cannot write the journal ${file}: ${(error as Error).message}`, 'choose a writable --journal FILE');
}

function noJournal(file: string, runId: string, code: string): UsageError {
  return new UsageError(`no journal for run ${runId} at ${file} (${code})`, 'pass --journal FILE if the run used one');
}

/** The run id in the header of an existing journal, if it has one. */
async function runIdOf(file: string): Promise<string | undefined> {
  try {
    const first = (await readTextFile(file, `the journal ${file}`)).split('\n', 1)[0] ?? '';
    const header = JSON.parse(first) as Partial<JournalHeader>;
    return header.type === 'run' && typeof header.run_id === 'string' ? header.run_id : undefined;
  } catch {
    return undefined;
  }
}
