// --checkpoint FILE: where a followed feed stands, kept after each event it writes (to a regular file, after each
// poll's events: follow.ts), so that a restarted command (after Ctrl-C, kill -9 or a reboot) goes on with the
// next event: none missed, none written twice.
//
// The position is the follow's own state (follow.ts): the start of the window it reads next, and the keys of the
// events at or after that start that it already wrote (with their times, so the keys can be forgotten once the
// window has moved past them). Keys and times are what the record boundary says (records.event.keyOf, timeOf);
// a device that reports late is thereby still caught across a restart, as it is by a follow that never stopped.
//
// The file is fleetctl's own format, versioned JSON, replaced whole (io/atomic-file.ts) and flushed to disk:
//   {"format":"fleetctl feed checkpoint","version":1,"feed":"events of HW-000001","from":"2026-05-01T08:00:00Z",
//    "written":[["<key>",1777622400000],...],"stdout":{"dev":2049,"ino":1234,"size":40960}}
// `stdout` is there when standard output is a regular file: its length after the last event recorded. A line
// written but not yet recorded when the process was killed is then cut off at restart, and written again once.
import { writeFileAtomically } from '../../io/atomic-file.js';
import { readCheckpointFile } from './checkpoint-file.js';
import type { StdoutFile, StdoutFileState } from '../../io/stdout-file.js';
import { UsageError } from '../../errors.js';
import { parseRfc3339 } from '../../shared/rfc3339.js';
import { quoteInput } from '../../shared/terminal-text.js';

export const CHECKPOINT_FORMAT = 'fleetctl feed checkpoint';
export const CHECKPOINT_VERSION = 1;

/** Where a feed stands: the next window's start, and the events at or after it already written (key → epoch ms, NaN when unknown). */
export interface FeedPosition {
  from: string;
  written: Map<string, number>;
}

interface CheckpointFile {
  format: string;
  version: number;
  feed: string;
  from: string;
  written: [string, number | null][];
  stdout?: StdoutFileState;
}

export class FeedCheckpoint {
  /**
   * @param feed what is followed ("events of fleet ..."): a checkpoint of another feed is refused, not misread
   * @param stdout standard output when it is a regular file
   */
  constructor(
    readonly file: string,
    private readonly feed: string,
    private readonly stdout: StdoutFile | undefined,
    private readonly say: (line: string) => void,
  ) {}

  /** The position recorded, or undefined when there is no file yet (the first run). */
  async load(): Promise<FeedPosition | undefined> {
    const text = await readCheckpointFile(this.file);
    if (text === undefined) return undefined;
    const saved = this.parse(text);
    this.takeBackUnrecorded(saved.stdout);
    const written = new Map(saved.written.map(([key, ms]) => [key, ms ?? Number.NaN]));
    return { from: saved.from, written };
  }

  /** Records the position (after the event's write): replaced whole, on disk before this resolves. */
  async save(position: FeedPosition): Promise<void> {
    const saved: CheckpointFile = {
      format: CHECKPOINT_FORMAT,
      version: CHECKPOINT_VERSION,
      feed: this.feed,
      from: position.from,
      written: [...position.written].map(([key, ms]) => [key, Number.isNaN(ms) ? null : ms]),
      stdout: this.stdout?.state(),
    };
    await writeFileAtomically(this.file, `${JSON.stringify(saved)}\n`, { durable: true });
  }

  private parse(text: string): CheckpointFile {
    const refuse = (why: string) =>
      new UsageError(`--checkpoint ${quoteInput(this.file)} ${why}`, 'give a new file to start from --since/--from, or the file this feed wrote');
    let saved: Partial<CheckpointFile>;
    try {
      saved = JSON.parse(text) as Partial<CheckpointFile>;
    } catch {
      throw refuse(`is not a ${CHECKPOINT_FORMAT} (not JSON)`);
    }
    if (saved === null || typeof saved !== 'object' || saved.format !== CHECKPOINT_FORMAT) throw refuse(`is not a ${CHECKPOINT_FORMAT}`);
    if (saved.version !== CHECKPOINT_VERSION) throw refuse(`is of version ${String(saved.version)}; this fleetctl reads version ${CHECKPOINT_VERSION}`);
    if (saved.feed !== this.feed) throw refuse(`is the position of ${quoteInput(String(saved.feed))}, not of ${quoteInput(this.feed)}`);
    const wellFormed =
      typeof saved.from === 'string' && parseRfc3339(saved.from) !== undefined &&
      Array.isArray(saved.written) && saved.written.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string' && (pair[1] === null || Number.isFinite(pair[1])));
    if (!wellFormed) throw refuse('is damaged (its window start or written events cannot be read)');
    return saved as CheckpointFile;
  }

  /** Standard output is the file it was, longer than recorded: what was written after the last record is cut off. */
  private takeBackUnrecorded(recorded: StdoutFileState | undefined): void {
    const now = this.stdout?.state();
    if (!recorded || !now || now.dev !== recorded.dev || now.ino !== recorded.ino || now.size <= recorded.size) return;
    this.stdout!.truncate(recorded.size);
    this.say(`Checkpoint: cut ${now.size - recorded.size} byte(s) written to standard output after the last recorded event; they are written again.`);
  }
}
