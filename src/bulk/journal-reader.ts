// The one reader of a journal's lines, for --resume, --from-run and `fleetctl status` alike: the header first, then
// the mark that sending began, results, wait and brake lines (and lines of a later fleetctl, passed over). One tolerance everywhere: a last line
// cut short by a crash or a full disk is set aside (what it said is unknown, and resolved by its idempotency key);
// a line that is not JSON before the last one means the file is not a journal fleetctl wrote, and is refused.
import { UsageError } from '../errors.js';
import { parseRfc3339 } from '../shared/rfc3339.js';
import type { DeviceCommand, DeviceCommandResult } from '../api/device-commands.js';
import type { WaveOptions } from './waves.js';
import type { RunService } from './service.js';

/* The lines of a journal. */
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
  /** The run's canary, waves and brake (bulk/waves.ts), as journals before `settings` kept them. */
  waves?: WaveOptions;
  /** The service and client the run was sent to (bulk/service.ts); absent in journals of an older fleetctl. */
  service?: RunService;
  /** Everything the run was given that --resume keeps (journals of earlier versions have only `waves`). */
  settings?: RunSettings;
  /**
   * The run writes a `sending` line before its first request (absent in journals of an older fleetctl): without
   * that line, it provably sent nothing.
   */
  marks_sending?: true;
  /** --where as given to a new run (its targets are what it resolved to then). */
  where?: string;
}

/** The plan a run was given, as its journal keeps it. */
export interface RunSettings {
  /** --concurrency N; null: adaptive. */
  concurrency: number | null;
  waves: WaveOptions;
  /** --wait: its timeout, and --report-time-field as given (null: from the API document); null without --wait. */
  wait: { timeout_ms: number; report_time_field: string | null } | null;
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

/**
 * What --wait saw of a device, a line each: `watching` once its command was accepted (with the report it had
 * before, by its own clock: null when it had never reported, absent when not known yet), then `back` or `not_back`.
 * `outcome`, not `status`: a result's status stays the command's.
 */
export type WaitLine =
  | { type: 'wait'; hardware_id: string; outcome: 'watching'; accepted_at: string; reported_before?: string | null; at: string }
  | { type: 'wait'; hardware_id: string; outcome: 'back' | 'not_back'; after_ms: number | null; at: string };

/** The brake stopped the run: a resume goes on by the operator's decision, its brake counting from there. */
export interface BrakeLine {
  type: 'brake';
  reason: string;
  at: string;
}

/** Written, and synced to disk, before the run's first request: from here on, commands may have been sent. */
export interface SendingLine {
  type: 'sending';
  at: string;
}

/** A journal's lines besides the results: what --wait saw, the brake, and when the run last did anything. */
export interface JournalHistory {
  /** The last wait line of each device. */
  waits: Map<string, WaitLine>;
  /** Devices with a result or wait line after the last brake line (all of them when the brake never stopped the run). */
  sinceBrake: Set<string>;
  stoppedByBrake: boolean;
  /** The latest `at` of any line (ms since the epoch), if any. */
  lastAt?: number;
}

/** A journal as read so far, a line at a time (`fleetctl status` streams it; --resume reads it whole). */
export class JournalReading<R extends JournalEntry = DeviceCommandResult> {
  header?: JournalHeader;
  /** The last result of each device. */
  readonly results = new Map<string, R>();
  readonly history: JournalHistory = { waits: new Map(), sinceBrake: new Set(), stoppedByBrake: false };
  /** The last line, when it was cut short as it was written. */
  torn?: string;
  /** Lines read after the header. */
  records = 0;
  /** The run had started sending (its `sending` line was read). */
  sending = false;

  constructor(private readonly file: string) {}

  /** One line, without its newline; `last`: none comes after it. False when it was set aside (torn, or blank). */
  read(line: string, index: number, last: boolean): boolean {
    if (line.trim() === '') return false;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      if (!last) throw new UsageError(`journal ${this.file} line ${index + 1} is not JSON`);
      this.torn = line;
      return false;
    }
    const entry = (record ?? {}) as JournalHeader | JournalResult<R> | WaitLine | BrakeLine | SendingLine;
    if (this.header === undefined) {
      if (entry.type !== 'run') throw new UsageError(`journal ${this.file} has no run header`);
      this.header = entry;
      return true;
    }
    this.records++;
    if (entry.type === 'result' && typeof entry.hardware_id === 'string') {
      const { type: _type, at: _at, ...result } = entry;
      this.results.set(result.hardware_id, result as unknown as R);
      this.note(result.hardware_id, entry.at);
    } else if (entry.type === 'wait' && typeof entry.hardware_id === 'string') {
      this.history.waits.set(entry.hardware_id, entry);
      this.note(entry.hardware_id, entry.at);
    } else if (entry.type === 'sending') {
      this.sending = true;
    } else if (entry.type === 'brake') {
      this.history.sinceBrake.clear();
      this.history.stoppedByBrake = true;
      this.seen(entry.at);
    }
    return true;
  }

  /** The header, or the refusal of a file that has none (not even a whole one). */
  requireHeader(runId: string): JournalHeader {
    if (!this.header) throw new UsageError(`journal ${this.file} has no run header`);
    if (this.header.run_id !== runId) throw new UsageError(`journal ${this.file} is for run ${this.header.run_id}, not ${runId}`);
    return this.header;
  }

  private note(hardwareId: string, at: string): void {
    this.history.sinceBrake.add(hardwareId);
    this.seen(at);
  }

  private seen(at: string): void {
    const ms = typeof at === 'string' ? parseRfc3339(at) : undefined;
    if (ms !== undefined) this.history.lastAt = Math.max(this.history.lastAt ?? ms, ms);
  }
}

/** A journal's whole text, read; `kept`: where the lines read end (a torn tail after it is dropped before appending). */
export function readJournalText<R extends JournalEntry>(text: string, file: string): { reading: JournalReading<R>; kept: number } {
  const reading = new JournalReading<R>(file);
  const lines = text.split('\n');
  let kept = 0;
  let offset = 0;
  lines.forEach((line, index) => {
    const end = Math.min(offset + line.length + 1, text.length);
    offset = end;
    // the last line with text is the one a crash may have cut (a final newline leaves an empty one after it)
    if (reading.read(line, index, index >= lines.length - 2)) kept = end;
  });
  return { reading, kept };
}

/** What becomes of the device a torn line named, when it got as far as naming it; nothing otherwise. */
export function tornDevice(line: string): string {
  const named = /"hardware_id":("(?:[^"\\]|\\.)*")/.exec(line)?.[1];
  let id: unknown;
  try {
    id = named === undefined ? undefined : JSON.parse(named);
  } catch {
    id = undefined;
  }
  return typeof id === 'string' ? `; what it said of device ${id} is unknown: unless an earlier line says it is done, it is sent again with the same idempotency key (a command already executed replays)` : '';
}
