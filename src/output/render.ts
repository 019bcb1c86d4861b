// The one output layer: every command hands its records here, and only here is stdout written.
import type { IOStreams } from '../io/streams.js';
import { type DeclaredFields, type DeclaredTimes, type ResourceView } from './columns.js';
import { safeText } from '../shared/terminal-text.js';
import { refuseUnknownFields, warnAbsent } from './field-checks.js';
import { holdAll, sortRecords, type SortKey } from './sort.js';
import { chooseColumns } from './record-fields.js';
import { listInColumns } from './columned-list.js';
import { MAX_LIMIT } from '../shared/page-limits.js';
import { batchesOf } from './batches.js';
import type { JqProgram, JqResult } from './jq.js';
import type { RecordSink } from './follow-sink.js';
import { JSON_FORMAT, writerFor, type OutputFormat } from './writers/registry.js';
import type { FormatWriter, ListRun, Records, WriterOutput } from './writers/writer.js';
import { TerminalTables } from './terminal-table.js';
import { writeEach, writeInStream } from './stream-writes.js';


export interface OutputOptions {
  format: OutputFormat;
  /** --columns: overrides the resource's default columns (dotted paths for nested fields). */
  columns?: string[];
  /** --jq: the program, compiled once before any request. */
  jq?: Promise<JqProgram>;
  /** --slurp: --jq gets a whole list as one array instead of each item. */
  slurp?: boolean;
  /** What the document in use (the service's own, else the bundled one) says the records of an operation carry. */
  declaredFields?: DeclaredFields;
  /** Which fields of an operation's records the service's document declares times, for --sort's order (none: the values decide). */
  declaredTimes?: DeclaredTimes;
}

/** How a list is fetched and ordered, from the list command's own flags. */
export interface ListOptions {
  /** --sort: every item is held, then printed in this order. */
  sort?: readonly SortKey[];
  /** --all: every page is fetched. */
  all?: boolean;
  /** --max-items: the bound the user set on the run. */
  maxItems?: number;
}

/** Items in a jq run: a page at most, so memory stays flat; each run costs a few milliseconds. */
const JQ_BATCH = MAX_LIMIT;

/** What a verb shows: a declared resource view, or the plain columns of rows it made itself. */
export type Shape = ResourceView | readonly string[];

export class Output {
  private readonly writer: FormatWriter;
  private readonly terminal: TerminalTables;
  /** What the writer is lent: stdout and the writes every format shares. */
  private readonly out: WriterOutput;

  constructor(
    private readonly io: IOStreams,
    private readonly options: OutputOptions,
  ) {
    this.writer = writerFor(options.format);
    this.terminal = new TerminalTables(io, this.chosenColumns !== undefined);
    this.out = {
      stdout: io.out,
      stdoutIsTTY: io.stdoutIsTTY,
      terminal: this.terminal,
      write: (text) => this.write(text),
      writeInStream: (text) => this.writeInStream(text),
      writeEach: (records, line, header) => writeEach(io.out, records, line, header),
      safeForTerminal: (text) => this.safeForTerminal(text),
    };
  }

  /** The format's name, for messages that say what it cannot do. */
  get formatName(): string {
    return this.options.format;
  }

  /** True when the output is for programs (json, ndjson, csv, yaml, --jq): messages must stay out of stdout. */
  get isMachineReadable(): boolean {
    return !this.writer.forPerson || this.options.jq !== undefined;
  }

  /**
   * A failure is told as its problem document in JSON (for programs) when a machine format was asked for, or when
   * --jq filters the output and no person reads stderr; --jq on a terminal reads as an error line, as without it.
   */
  errorsAsJson(stderrIsTTY: boolean): boolean {
    return !this.writer.forPerson || (this.options.jq !== undefined && !stderrIsTTY);
  }

  /** True with --jq: records are shown as the program makes them. */
  get hasJq(): boolean {
    return this.options.jq !== undefined;
  }

  /** Records are shown in columns (a table, CSV), not as whole values (JSON, NDJSON, YAML, --jq). */
  get showsColumns(): boolean {
    return !this.writer.wholeRecords && this.options.jq === undefined;
  }

  /** A run's results go out one by one as each is final (item()); otherwise they are listed once it ends. */
  get streamsRecords(): boolean {
    return this.writer.streamsRecords;
  }

  /** An item of an open-ended stream (item()) can be written on its own, with no header and no columns. */
  get writesLoneItems(): boolean {
    return this.writer.loneItems;
  }

  /** The same choices, printed as JSON (`api` prints what the API answers unless told otherwise). */
  asJson(): Output {
    return new Output(this.io, { ...this.options, format: JSON_FORMAT });
  }

  /**
   * Renders a list; json, ndjson, csv, yaml, --jq and piped tables stream item by item. Returns the item count.
   * The columns come from the records that arrive first (a view's columns are preferences, kept when the records
   * carry them); --columns and --sort may name any field the records carry or the API document describes.
   */
  async list(records: Records, shape: Shape, how: ListOptions = {}): Promise<number> {
    const view = viewFrom(shape);
    const held = how.sort || (this.options.jq && this.options.slurp) ? await this.hold(records, how, view) : records;
    if (how.sort) {
      const all = held as unknown[];
      await this.refuseUnknownFields(how.sort.map((key) => key.field), view, all, '--sort');
    }
    if (this.options.jq) return this.listThroughJq(held, await this.options.jq);
    return this.writer.list(held, this.listRun(view, how));
  }

  private listRun(view: ResourceView, how: ListOptions): ListRun {
    return {
      ...this.out,
      view,
      all: Boolean(how.all),
      chosenColumns: this.chosenColumns,
      inColumns: (records, write, opts) =>
        listInColumns(records, write, {
          view,
          held: opts?.held === true,
          chosen: this.chosenColumns,
          preferred: this.preferredColumns(view),
          refuse: (given, sample) => this.refuseUnknownFields(given, view, sample, '--columns'),
          warnAbsent: (absent) => this.warnAbsent(absent),
        }),
      holdAll: async (records, reason) => (Array.isArray(records) ? records : holdAll(records, { reason, say: (line) => this.io.info(line) })),
    };
  }

  /** A view's columns for a person (a table on a terminal) or for a script (piped tables, CSV). */
  private preferredColumns(view: ResourceView): readonly string[] {
    return this.writer.forPerson && this.io.stdoutIsTTY ? view.person : view.script;
  }

  private refuseUnknownFields(given: readonly string[], view: ResourceView, sample: readonly unknown[], flag: string): Promise<void> {
    return refuseUnknownFields({ given, view, sample, flag, declaredFields: this.options.declaredFields, warn: (line) => this.io.warn(line) });
  }

  /** --sort and --slurp need every item first; what is held is bounded (HOLD_LIMIT) unless --max-items says. */
  private async hold(records: Records, how: ListOptions, view: ResourceView): Promise<unknown[]> {
    const reason = how.sort ? '--sort' : '--slurp';
    // a time is sorted as the service's document declares it; rows fleetctl makes have none: their values decide
    const isTime = how.sort && view.operation && this.options.declaredTimes ? await this.options.declaredTimes(view.operation) : undefined;
    const held = await holdAll(records, { reason, all: how.all, maxItems: how.maxItems, sort: how.sort, isTime, say: (line) => this.io.info(line) });
    return how.sort ? sortRecords(held, how.sort, isTime) : held;
  }

  private async listThroughJq(records: Records, program: JqProgram): Promise<number> {
    const style = this.jqStyle;
    if (this.options.slurp) {
      const all = Array.isArray(records) ? records : await holdAll(records, { reason: '--slurp', say: () => undefined });
      await this.writeJq(program.run([all], style));
      return all.length;
    }
    let count = 0;
    for await (const batch of batchesOf(records, JQ_BATCH)) {
      await this.writeJq(program.run(batch, style, count + 1));
      count += batch.length;
    }
    return count;
  }

  /** jq's results, as `jq -r` prints them; on a terminal, control characters inside raw strings are shown. */
  private async writeJq(result: JqResult): Promise<void> {
    if (result.messages) this.io.info(result.messages.replace(/\n$/, ''));
    if (result.text) await this.writeInStream(this.safeForTerminal(result.text));
    if (result.error) throw result.error;
  }

  /** As the format lays out --jq's values: indented, one line a value, or indented only on a terminal. */
  private get jqStyle(): { pretty: boolean } {
    return { pretty: this.writer.jq === 'indented' || (this.writer.jq !== 'lines' && this.io.stdoutIsTTY) };
  }

  /** One item of an open-ended stream (a watch, a follow, a listener): as the format writes one, or through --jq. */
  async item(record: unknown): Promise<void> {
    if (this.options.jq) return this.writeJq((await this.options.jq).run([record], this.jqStyle));
    return this.writer.item(record, this.out);
  }

  /** Renders one resource: the object itself in JSON, FIELD/VALUE rows in a table. */
  async object(record: unknown, shape?: Shape): Promise<void> {
    const view = shape === undefined ? undefined : viewFrom(shape);
    await this.refuseUnknownFields(this.chosenColumns ?? [], view ?? viewFrom([]), [record], '--columns');
    // A view lists a resource's columns; one resource shows every field unless plain columns are given.
    const chosen = this.chosenColumns ?? (shape !== undefined && !isView(shape) ? [...shape] : undefined);
    if (this.options.jq) return this.writeJq((await this.options.jq).run([record], this.jqStyle));
    return this.writer.object(record, this.out, chosen);
  }

  /** Compiles --jq (loading jq only then), so a bad expression is refused before any request. */
  async prepare(): Promise<void> {
    await this.options.jq;
  }

  /** The --columns the user gave, when the format shows columns (json, ndjson and yaml always carry whole items). */
  private get chosenColumns(): string[] | undefined {
    return this.writer.wholeRecords || this.options.jq ? undefined : this.options.columns;
  }

  private warnAbsent(absent: Set<string>): void {
    warnAbsent(absent, (line) => this.io.warn(line));
  }

  /** Raw text for stdout, such as a token or a completion script. */
  text(text: string): void {
    this.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  private write(text: string): void {
    this.io.out.write(text);
  }

  private writeInStream(text: string): Promise<void> {
    return writeInStream(this.io.out, text);
  }

  /** On a terminal, control characters jq prints raw, or YAML leaves (bidirectional overrides), are shown. */
  private safeForTerminal(text: string): string {
    return this.io.stdoutIsTTY ? safeText(text, { newlines: true, tabs: true }) : text;
  }

  /**
   * Where --follow prints: as the format writes records as they come (a table that grows on a terminal, CSV rows
   * under one header, one item at a time), or --jq's results.
   */
  follow(shape: Shape): RecordSink {
    const view = viewFrom(shape);
    const jq = this.options.jq;
    if (jq) return { add: async (records) => void (records.length > 0 ? await this.listThroughJq(records, await jq) : undefined) };
    const chosen = this.chosenColumns !== undefined;
    return this.writer.follow({
      stdoutIsTTY: this.io.stdoutIsTTY,
      chosen,
      columnsFor: (first) => this.chosenColumns ?? chooseColumns(this.preferredColumns(view), first),
      plan: async (first, columns) => (await import('./person-table.js')).planPersonTable(view, first, { columns, chosen, follow: true }),
      say: (line) => this.io.info(line),
      noteLeftOut: (dropped, leftOut) => this.terminal.noteLeftOut(dropped, leftOut),
      checkColumns: (first) => this.refuseUnknownFields(this.chosenColumns ?? [], view, first, '--columns'),
      terminalWidth: this.terminal.width,
      bold: (text) => this.io.outTheme().bold(text),
      write: (text) => this.writeInStream(text),
      item: (record) => this.item(record),
    });
  }
}

function isView(shape: Shape): shape is ResourceView {
  return !Array.isArray(shape);
}

function viewFrom(shape: Shape): ResourceView {
  return isView(shape) ? shape : { script: shape, person: shape };
}
