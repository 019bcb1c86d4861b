// One writer per output format (-o): what a format does with a list, one record, an item of an open-ended stream
// and a --follow feed. The Output (render.ts) does what every format shares (--sort, --jq, the checks of
// --columns) and hands the rest to the writer chosen once from the flags (registry.ts). Callers ask the Output
// how its writer behaves (for a person? records one by one?); nothing outside the output layer names a format.
import type { Writable } from 'node:stream';
import type { ResourceView } from '../columns.js';
import type { RecordSink, SinkWriters } from '../follow-sink.js';
import type { TerminalTables } from '../terminal-table.js';

export type Records = AsyncIterable<unknown> | Iterable<unknown>;

/** What the Output lends a writer: stdout, and the writes every format shares. */
export interface WriterOutput {
  readonly stdout: Writable;
  readonly stdoutIsTTY: boolean;
  /** Tables for a person on a terminal. */
  readonly terminal: TerminalTables;
  /** A write of a document in one piece. */
  write(text: string): void;
  /** A write in a stream of items: waits while the reader is behind, so memory stays flat. */
  writeInStream(text: string): Promise<void>;
  /** Each record's line as it comes, a page's lines in one write; the header goes out with the first (or alone). */
  writeEach(records: Records, line: (record: unknown) => string, header?: string): Promise<number>;
  /** On a terminal, control characters the text carries (a YAML string's, a raw jq string's) are shown. */
  safeForTerminal(text: string): string;
}

/** A list being written: its view and flags, and the Output's ways of choosing its columns. */
export interface ListRun extends WriterOutput {
  readonly view: ResourceView;
  /** --all: every page is fetched. */
  readonly all: boolean;
  /** --columns, as given. */
  readonly chosenColumns: string[] | undefined;
  /**
   * The records with their columns: --columns, else the view's, kept where the first page carries them. A name no
   * record carries is refused before the first byte; `held` takes every record before writing (a person's table).
   */
  inColumns(records: Records, write: (records: Records, columns: string[]) => Promise<number>, opts?: { held?: boolean }): Promise<number>;
  /** Every record held (the list is then bounded, as --sort's); `reason` names what needs them all. */
  holdAll(records: Records, reason: string): Promise<unknown[]>;
}

/** How --jq's values are laid out: indented, one a line, or as stdout suits (indented on a terminal). */
export type JqLayout = 'indented' | 'lines' | 'terminal';

export interface FormatWriter {
  /** A table for a person (on a terminal, or its tab-separated rows when piped); otherwise output for programs. */
  readonly forPerson: boolean;
  /** Records are written whole, as values (--columns does not apply); otherwise in columns. */
  readonly wholeRecords: boolean;
  /** A run's results are written one by one as each is final, rather than listed once the run ends. */
  readonly streamsRecords: boolean;
  /** An item of an open-ended stream can be written on its own, with no header and no columns. */
  readonly loneItems: boolean;
  /** --jq goes with this format, its values laid out so; absent: --jq is refused with it. */
  readonly jq?: JqLayout;
  /** Writes a list as its records come; returns how many. */
  list(records: Records, run: ListRun): Promise<number>;
  /** Writes one resource; `columns` are the fields to show where the format shows columns (else every field). */
  object(record: unknown, out: WriterOutput, columns: string[] | undefined): Promise<void>;
  /** Writes one item of an open-ended stream (a watch, a listener, a run's result). */
  item(record: unknown, out: WriterOutput): Promise<void>;
  /** Where --follow writes records as they come. */
  follow(sink: SinkWriters): RecordSink;
}
