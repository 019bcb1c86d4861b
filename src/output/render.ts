// The one output layer: every command hands its records here, and only here is stdout written.
import type { IOStreams } from '../io/streams.js';
import { UsageError } from '../errors.js';
import { cellText, flattenRecord, valueAt } from './values.js';
import { bundledDeclaredFields, type DeclaredFields, type DeclaredTimes, type ResourceView } from './columns.js';
import { didYouMeanSuffix } from '../shared/did-you-mean.js';
import { quoteInput, safeText, terminalSafeJson } from '../shared/terminal-text.js';
import { holdAll, sortRecords, type SortKey } from './sort.js';
import { csvHeader, csvRow, oneLine, personCell, tableHeads, tsvField } from './cells.js';
import { carries, chooseColumns, everyField } from './record-fields.js';
import { isIdentifierColumn } from '../records/members.js';
import { firstBatch } from './first-batch.js';
import { MAX_LIMIT } from '../shared/page-limits.js';
import { batchesOf } from './batches.js';
import type { JqProgram, JqResult } from './jq.js';
import type { YamlWriter } from './yaml.js';
import { followSink, type RecordSink } from './follow-sink.js';
import type { OutputFormat } from './formats.js';
import { caughtUp, GatheredWrites } from './stream-writes.js';


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

type Records = AsyncIterable<unknown> | Iterable<unknown>;

/** What a verb shows: a declared resource view, or the plain columns of rows it made itself. */
export type Shape = ResourceView | readonly string[];

export class Output {
  constructor(
    private readonly io: IOStreams,
    readonly options: OutputOptions,
  ) {}

  get format(): OutputFormat {
    return this.options.format;
  }

  /** True when the output is for programs (json, ndjson, csv, yaml, --jq): messages must stay out of stdout. */
  get isMachineReadable(): boolean {
    return (this.options.format !== 'table' && this.options.format !== 'wide') || this.options.jq !== undefined;
  }

  /**
   * A failure is told as its problem document in JSON (for programs) when a machine format was asked for, or when
   * --jq filters the output and no person reads stderr; --jq on a terminal reads as an error line, as without it.
   */
  errorsAsJson(stderrIsTTY: boolean): boolean {
    const machineFormat = this.options.format !== 'table' && this.options.format !== 'wide';
    return machineFormat || (this.options.jq !== undefined && !stderrIsTTY);
  }

  /** True with --jq: records are shown as the program makes them. */
  get hasJq(): boolean {
    return this.options.jq !== undefined;
  }

  /** The same choices in another format (`api` prints JSON unless told otherwise). */
  withFormat(format: OutputFormat): Output {
    return new Output(this.io, { ...this.options, format });
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
    if (this.options.format === 'json' || this.options.format === 'ndjson' || this.options.format === 'yaml') return this.listAs(held, [], view, how);
    if (this.options.format === 'wide' && !this.chosenColumns) return this.listWide(held, view);
    // the records of an API operation decide which preferred columns stay; rows fleetctl makes have theirs
    const { head, rest } = view.operation ? await firstBatch(held) : { head: [], rest: held };
    const columns = this.chosenColumns ?? chooseColumns(this.preferredColumns(view), head);
    if (this.io.stdoutIsTTY && this.options.format !== 'csv') {
      // a table for a person is drawn once every row is in: a field nothing carries is refused before it is
      const all: unknown[] = [];
      try {
        for await (const record of rest) all.push(record);
      } catch (error) {
        // a later page failed: the rows that came are drawn, so the line that says where to resume (after them)
        // does not skip rows nobody saw; the failure is what is then reported
        if (all.length > 0) await this.refuseUnknownFields(this.chosenColumns ?? [], view, all, '--columns').then(() => this.writeTtyTable(all, columns, view), () => undefined);
        throw error;
      }
      await this.refuseUnknownFields(this.chosenColumns ?? [], view, all, '--columns');
      return this.writeTtyTable(all, columns, view);
    }
    // a script gets data or nothing: a name no record of the first page carries is refused before the first byte
    if (view.operation) {
      await this.refuseUnknownFields(this.chosenColumns ?? [], view, head, '--columns');
      return this.listAs(rest, columns, view, how);
    }
    // rows fleetctl makes are only warned about, once every row has had its chance to carry the field
    const absent = new Set(this.chosenColumns ?? []);
    const count = await this.listAs(noticingFields(rest, absent), columns, view, how);
    if (count > 0) this.warnAbsent(absent);
    return count;
  }

  /** A view's columns for a person (a table on a terminal) or for a script (piped tables, CSV). */
  private preferredColumns(view: ResourceView): readonly string[] {
    return this.options.format === 'table' && this.io.stdoutIsTTY ? view.person : view.script;
  }

  /**
   * Names given with --columns or --sort that no record carries are refused unless the API document in use
   * describes them for these records (an optional field): a typo is caught, a field of the service never is.
   */
  private async refuseUnknownFields(given: readonly string[], view: ResourceView, sample: readonly unknown[], flag: string): Promise<void> {
    const names = given.filter((name) => !sample.some((record) => carries(record, name)));
    if (names.length === 0) return;
    // rows fleetctl makes, or an `api` answer: no document to ask, and nothing printed yet to judge by but them
    if (!view.operation) return this.warnAbsent(new Set(names));
    if (sample.length === 0) return;
    const declared = await (this.options.declaredFields ?? bundledDeclaredFields)(view.operation);
    const unknown = names.filter((name) => !declared?.has(name));
    if (unknown.length === 0) return;
    const known = [...new Set([...everyField(sample), ...(declared ?? [])])];
    const named = unknown.map((name) => `${quoteInput(name, 40)}${didYouMeanSuffix(name, known)}`);
    const noun = unknown.length === 1 ? 'field' : 'fields';
    throw new UsageError(`${flag}: no record has the ${noun} ${named.join(', ')}, and the API document does not describe ${unknown.length === 1 ? 'it' : 'them'}`, `fields these records carry: ${everyField(sample).join(', ')}`);
  }

  /** -o wide: every field the records carry (the union over every record fetched), so the whole list is held. */
  private async listWide(records: Records, view: ResourceView): Promise<number> {
    const all = Array.isArray(records) ? records : await holdAll(records, { reason: '-o wide', say: (line) => this.io.info(line) });
    const columns = everyField(all);
    if (this.io.stdoutIsTTY) return this.writeTtyTable(all, columns, view, { expandWhenWide: true });
    return this.listAs(all, columns, view, {});
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

  /** Indented on a terminal and with -o json (jq's default), one line a value when piped or with -o ndjson. */
  private get jqStyle(): { pretty: boolean } {
    return { pretty: this.options.format === 'json' || (this.options.format !== 'ndjson' && this.io.stdoutIsTTY) };
  }

  /**
   * One item of an open-ended stream (a watch, a follow, a listener): an NDJSON line, a YAML document, or what
   * --jq makes of it.
   */
  async item(record: unknown): Promise<void> {
    if (this.options.jq) return this.writeJq((await this.options.jq).run([record], this.jqStyle));
    if (this.options.format === 'yaml') return this.writeInStream(`---\n${this.safeForTerminal((await this.yaml()).document(record))}`);
    await this.writeInStream(`${terminalSafeJson(record)}\n`);
  }

  private async listAs(records: Records, columns: string[], view: ResourceView, how: ListOptions): Promise<number> {
    switch (this.options.format) {
      case 'json':
        return this.writeJsonArray(records);
      case 'yaml':
        return this.writeYaml(records, Boolean(how.all));
      case 'ndjson':
        return this.writeEach(records, (record) => `${terminalSafeJson(record)}\n`);
      case 'csv':
        return this.writeEach(records, (record) => csvRow(record, columns), csvHeader(columns));
      case 'table':
      case 'wide':
        if (this.io.stdoutIsTTY) return this.writeTtyTable(records, columns, view);
        return this.writeEach(records, (record) => `${columns.map((c) => tsvField(cellText(valueAt(record, c)))).join('\t')}\n`, `${columns.join('\t')}\n`);
    }
  }

  /** Renders one resource: the object itself in JSON, FIELD/VALUE rows in a table. */
  async object(record: unknown, shape?: Shape): Promise<void> {
    const view = shape === undefined ? undefined : viewFrom(shape);
    await this.refuseUnknownFields(this.chosenColumns ?? [], view ?? viewFrom([]), [record], '--columns');
    // A view lists a resource's columns; one resource shows every field unless plain columns are given.
    const chosen = this.chosenColumns ?? (shape !== undefined && !isView(shape) ? [...shape] : undefined);
    if (this.options.jq) return this.writeJq((await this.options.jq).run([record], this.jqStyle));
    switch (this.options.format) {
      case 'yaml':
        return this.write(this.safeForTerminal((await this.yaml()).document(record)));
      case 'json':
        return this.write(`${terminalSafeJson(record, 2)}\n`);
      case 'ndjson':
        return this.write(`${terminalSafeJson(record)}\n`);
      case 'csv': {
        const cols = chosen ?? flattenRecord(record).map(([key]) => key);
        return this.write(`${csvHeader(cols)}${csvRow(record, cols)}`);
      }
      case 'table':
      case 'wide': {
        const rows: [string, unknown][] = chosen ? chosen.map((c) => [c, valueAt(record, c)]) : flattenRecord(record);
        if (this.io.stdoutIsTTY) return this.writeTtyRecord(rows);
        return this.write(rows.map(([key, value]) => `${tsvField(key)}\t${tsvField(cellText(value))}\n`).join(''));
      }
    }
  }

  /** Compiles --jq (loading jq only then), so a bad expression is refused before any request. */
  async prepare(): Promise<void> {
    await this.options.jq;
  }

  /** The --columns the user gave, when the format shows columns (json, ndjson and yaml always carry whole items). */
  private get chosenColumns(): string[] | undefined {
    const whole = this.options.format === 'json' || this.options.format === 'ndjson' || this.options.format === 'yaml';
    return whole || this.options.jq ? undefined : this.options.columns;
  }

  /** A mistyped --columns name would otherwise show as a silently empty column. */
  private warnAbsent(absent: Set<string>): void {
    if (absent.size === 0) return;
    const names = [...absent].map((c) => `"${c}"`).join(', ');
    this.io.warn(`--columns: no record has ${absent.size === 1 ? 'a field' : 'fields'} ${names}; check the spelling (nested fields are dotted, such as delivery.url; -o json shows every field)`);
  }

  /** Raw text for stdout, such as a token or a completion script. */
  text(text: string): void {
    this.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  private write(text: string): void {
    this.io.out.write(text);
  }

  /** A write in a stream of items: waits while the reader is behind, so memory stays flat however long the list. */
  private async writeInStream(text: string): Promise<void> {
    if (this.io.out.write(text) || this.io.out.destroyed) return;
    await caughtUp(this.io.out);
  }

  /** The header goes out with the first record (or after an empty list), so a failed request leaves stdout empty. */
  private async writeEach(records: Records, line: (record: unknown) => string, header = ''): Promise<number> {
    let count = 0;
    const writes = new GatheredWrites(this.io.out);
    try {
      for await (const record of records) {
        // no promise for a write the reader keeps up with: on a list of 100,000 items that is time
        const readerBehind = writes.add(`${count === 0 ? header : ''}${line(record)}`);
        if (readerBehind) await readerBehind;
        count++;
      }
    } catch (error) {
      writes.flush();
      throw error;
    }
    if (count === 0) writes.add(header);
    await writes.flush();
    return count;
  }

  /**
   * A JSON array, written as its items come. When a later page fails, the array is closed on what was printed, so
   * stdout stays valid JSON; the caller says how far it got and where to resume.
   */
  private async writeJsonArray(records: Records): Promise<number> {
    let count = 0;
    const writes = new GatheredWrites(this.io.out);
    try {
      for await (const record of records) {
        const body = terminalSafeJson(record, 2).replace(/\n/g, '\n  ');
        const readerBehind = writes.add(`${count === 0 ? '[\n  ' : ',\n  '}${body}`);
        if (readerBehind) await readerBehind;
        count++;
      }
    } catch (error) {
      if (count > 0) writes.add('\n]\n');
      writes.flush();
      throw error;
    }
    writes.add(count === 0 ? '[]\n' : '\n]\n');
    await writes.flush();
    return count;
  }

  /** A list as one YAML sequence, or with --all one document per item (`---`), read as they come like NDJSON. */
  private async writeYaml(records: Records, documents: boolean): Promise<number> {
    const yaml = await this.yaml();
    let count = 0;
    for await (const record of records) {
      await this.writeInStream(this.safeForTerminal(documents ? `---\n${yaml.document(record)}` : yaml.sequenceItem(record)));
      count++;
    }
    if (count === 0) this.write(documents ? '' : '[]\n');
    return count;
  }

  private yamlWriter: Promise<YamlWriter> | undefined;

  private yaml(): Promise<YamlWriter> {
    return (this.yamlWriter ??= import('./yaml.js').then(({ loadYamlWriter }) => loadYamlWriter()));
  }

  /** On a terminal, control characters jq prints raw, or YAML leaves (bidirectional overrides), are shown. */
  private safeForTerminal(text: string): string {
    return this.io.stdoutIsTTY ? safeText(text, { newlines: true, tabs: true }) : text;
  }

  private async writeTtyTable(records: Records, columns: string[], view: ResourceView, opts: { expandWhenWide?: boolean } = {}): Promise<number> {
    const all: unknown[] = [];
    for await (const record of records) all.push(record);
    if (all.length === 0) {
      this.io.info('No results.');
      return 0;
    }
    const [{ fitTable, frameWidth, Part, Stiffness }, { cutToWidth, displayWidth }, { planPersonTable }] = await Promise.all([
      import('./table-layout.js'),
      import('./text-width.js'),
      import('./person-table.js'),
    ]);
    // -o wide shows every field as it is; a table of a view shows what the view says matters
    const plan = opts.expandWhenWide ? undefined : await planPersonTable(view, all, { columns, chosen: this.chosenColumns !== undefined });
    const shownColumns = plan?.columns ?? columns;
    const values = all.map((record) => shownColumns.map((c) => valueAt(record, c)));
    const rows = values.map((row) => row.map((value, i) => (plan ? plan.cell(shownColumns[i]!, value) : personCell(value))));
    const { headers, stiffness } = await tableHeads(shownColumns, values);
    const natural = headers.map((header, i) => Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[i]!))));
    const fitted = fitTable(headers, rows, this.terminalWidth, stiffness, plan?.parts);
    // wider than the terminal (-o wide's every field, or an identifier wider than the room): one block per record
    // rather than cells cut to nothing
    const tooWide = opts.expandWhenWide ? natural.reduce((sum, width) => sum + width, frameWidth(shownColumns.length)) > this.terminalWidth : !fitted.fits;
    for (const caption of plan?.captions ?? []) this.io.info(caption);
    if (tooWide) return this.writeBlocks(shownColumns, values, rows);
    const { widths, shown } = fitted;
    const theme = this.io.outTheme();
    const cut = (text: string, i: number) => (stiffness[i]! > Stiffness.list || plan?.parts[i] === Part.identifier ? text : cutToWidth(text, widths[i]!));
    await this.writeTable(
      shown.map((i) => theme.bold(cut(headers[i]!, i))),
      rows.map((row) => shown.map((i) => cut(row[i]!, i))),
    );
    this.noteLeftOut(shownColumns.filter((_, i) => !shown.includes(i)), plan?.leftOut ?? []);
    return rows.length;
  }

  /**
   * Says on one line which fields the records carry that the table does not show (those the terminal had no room
   * for first), and how to see them.
   */
  private noteLeftOut(dropped: readonly string[], leftOut: readonly string[]): void {
    const names = [...dropped, ...leftOut].map((c) => safeText(c));
    if (names.length === 0) return;
    const end = '; -o wide shows them';
    const start = `Not shown at ${this.terminalWidth} columns: `;
    let listed = names.length;
    const line = (n: number) => `${start}${names.slice(0, n).join(', ')}${n < names.length ? ` and ${names.length - n} more` : ''}${end}`;
    while (listed > 1 && line(listed).length > this.terminalWidth) listed--;
    this.io.info(line(listed));
  }

  /** Records as FIELD VALUE blocks, as psql's expanded display. */
  private async writeBlocks(columns: string[], values: unknown[][], rows: string[][]): Promise<number> {
    const { recordBlock } = await import('./record-blocks.js');
    const theme = this.io.outTheme();
    const whole = columns.map((column, i) => isIdentifierColumn(column, values.map((row) => row[i])));
    const writes = new GatheredWrites(this.io.out);
    for (const [n, row] of rows.entries()) {
      // a field this record does not carry is left out of its block
      const lines = columns.map((column, i) => ({ field: safeText(column), value: row[i]!, whole: whole[i]! })).filter((_, i) => values[n]![i] !== undefined);
      const readerBehind = writes.add(recordBlock(lines, this.terminalWidth, theme, `RECORD ${n + 1}`));
      if (readerBehind) await readerBehind;
    }
    await writes.flush();
    return rows.length;
  }

  /**
   * Where --follow prints: a table that grows on a terminal, CSV rows under one header, and otherwise one item
   * at a time (NDJSON when piped, YAML documents, --jq's results).
   */
  follow(shape: Shape): RecordSink {
    const view = viewFrom(shape);
    const jq = this.options.jq;
    return followSink({
      format: this.options.format,
      stdoutIsTTY: this.io.stdoutIsTTY,
      columnsFor: (first) => this.chosenColumns ?? (this.options.format === 'wide' ? everyField(first) : chooseColumns(this.preferredColumns(view), first)),
      plan: async (first, columns) => {
        const { planPersonTable } = await import('./person-table.js');
        // -o wide shows every field as it is
        if (this.options.format === 'wide' && !this.chosenColumns) return planPersonTable({ script: [], person: [] }, first, { columns, chosen: true });
        return planPersonTable(view, first, { columns, chosen: this.chosenColumns !== undefined, follow: true });
      },
      say: (line) => this.io.info(line),
      noteLeftOut: (dropped, leftOut) => this.noteLeftOut(dropped, leftOut),
      checkColumns: (first) => this.refuseUnknownFields(this.chosenColumns ?? [], view, first, '--columns'),
      terminalWidth: this.terminalWidth,
      bold: (text) => this.io.outTheme().bold(text),
      write: (text) => this.writeInStream(text),
      item: (record) => this.item(record),
      jq: jq && (async (records) => void (await this.listThroughJq(records, await jq))),
    });
  }

  /**
   * One resource as FIELD / VALUE rows that fit the terminal. Identifiers are never cut: when one is wider than
   * the room a framed table leaves, the record is shown as unframed FIELD VALUE lines instead.
   */
  private async writeTtyRecord(rows: [string, unknown][]): Promise<void> {
    const [{ frameWidth }, { cutToWidth, displayWidth }] = await Promise.all([import('./table-layout.js'), import('./text-width.js')]);
    const keys = rows.map(([key]) => safeText(key));
    const values = rows.map(([, value]) => safeText(oneLine(cellText(value))));
    const whole = rows.map(([key, value]) => isIdentifierColumn(key, [value]));
    const keyWidth = Math.min(Math.max(...keys.map(displayWidth)), Math.floor(this.terminalWidth / 3));
    const valueWidth = Math.max(1, this.terminalWidth - frameWidth(2) - keyWidth);
    const theme = this.io.outTheme();
    if (values.some((value, i) => whole[i] && displayWidth(value) > valueWidth)) {
      const { recordBlock } = await import('./record-blocks.js');
      return this.write(recordBlock(keys.map((field, i) => ({ field, value: values[i]!, whole: whole[i]! })), this.terminalWidth, theme));
    }
    await this.writeTable([], values.map((value, i) => [theme.dim(cutToWidth(keys[i]!, keyWidth)), cutToWidth(value, valueWidth)]));
  }

  /** The terminal's width; 80 when it does not say (a terminal that cannot tell is most likely that wide). */
  private get terminalWidth(): number {
    return this.io.columns && this.io.columns > 0 ? this.io.columns : 80;
  }

  private async writeTable(head: string[], rows: string[][]): Promise<void> {
    const { default: Table } = await import('cli-table3');
    // Compact: no rule between rows, so a page of results fits on a screen.
    const compact = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
    const table = new Table({ head, chars: compact, style: { head: [], border: [] }, wordWrap: false });
    for (const row of rows) table.push(row);
    this.write(`${table.toString()}\n`);
  }
}

function isView(shape: Shape): shape is ResourceView {
  return !Array.isArray(shape);
}

function viewFrom(shape: Shape): ResourceView {
  return isView(shape) ? shape : { script: shape, person: shape };
}

/** Passes records through, striking from `absent` each field that some record has. */
async function* noticingFields(records: Records, absent: Set<string>): AsyncIterable<unknown> {
  for await (const record of records) {
    for (const field of absent) if (carries(record, field)) absent.delete(field);
    yield record;
  }
}
