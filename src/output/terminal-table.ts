// Tables for a person on a terminal (-o table and -o wide when stdout is one): a list fitted to the terminal's
// width, or blocks of FIELD VALUE lines when it cannot fit, and one record as FIELD / VALUE rows. The writers of
// those formats (writers/table.ts, writers/wide.ts) and nothing else draw them.
import type { IOStreams } from '../io/streams.js';
import type { ResourceView } from './columns.js';
import { valueAt, cellText } from './values.js';
import { oneLine, personCell, tableHeads } from './cells.js';
import { isIdentifierColumn } from '../records/members.js';
import { safeText } from '../shared/terminal-text.js';
import { GatheredWrites } from './stream-writes.js';

type Records = AsyncIterable<unknown> | Iterable<unknown>;

export class TerminalTables {
  constructor(
    private readonly io: IOStreams,
    /** --columns was given: the view's plan keeps those columns as they are. */
    private readonly chosen: boolean,
  ) {}

  /** The terminal's width; 80 when it does not say (a terminal that cannot tell is most likely that wide). */
  get width(): number {
    return this.io.columns && this.io.columns > 0 ? this.io.columns : 80;
  }

  async list(records: Records, columns: string[], view: ResourceView, opts: { expandWhenWide?: boolean } = {}): Promise<number> {
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
    const plan = opts.expandWhenWide ? undefined : await planPersonTable(view, all, { columns, chosen: this.chosen });
    const shownColumns = plan?.columns ?? columns;
    const values = all.map((record) => shownColumns.map((c) => valueAt(record, c)));
    const rows = values.map((row) => row.map((value, i) => (plan ? plan.cell(shownColumns[i]!, value) : personCell(value))));
    const { headers, stiffness, endKept } = await tableHeads(shownColumns, values);
    const natural = headers.map((header, i) => Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[i]!))));
    const fitted = fitTable(headers, rows, this.width, stiffness, plan?.parts);
    // wider than the terminal (-o wide's every field, or an identifier wider than the room): one block per record
    // rather than cells cut to nothing
    const tooWide = opts.expandWhenWide ? natural.reduce((sum, width) => sum + width, frameWidth(shownColumns.length)) > this.width : !fitted.fits;
    for (const caption of plan?.captions ?? []) this.io.info(caption);
    if (tooWide) return this.blocks(shownColumns, values, rows);
    const { widths, shown } = fitted;
    const theme = this.io.outTheme();
    const cut = (text: string, i: number) => (stiffness[i]! > Stiffness.list || plan?.parts[i] === Part.identifier ? text : cutToWidth(text, widths[i]!, endKept[i] ? 'end' : 'start'));
    await this.framed(
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
  noteLeftOut(dropped: readonly string[], leftOut: readonly string[]): void {
    const names = [...dropped, ...leftOut].map((c) => safeText(c));
    if (names.length === 0) return;
    const end = '; -o wide shows them';
    const start = `Not shown at ${this.width} columns: `;
    let listed = names.length;
    const line = (n: number) => `${start}${names.slice(0, n).join(', ')}${n < names.length ? ` and ${names.length - n} more` : ''}${end}`;
    while (listed > 1 && line(listed).length > this.width) listed--;
    this.io.info(line(listed));
  }

  /** Records as FIELD VALUE blocks, as psql's expanded display. */
  private async blocks(columns: string[], values: unknown[][], rows: string[][]): Promise<number> {
    const { recordBlock } = await import('./record-blocks.js');
    const theme = this.io.outTheme();
    const whole = columns.map((column, i) => isIdentifierColumn(column, values.map((row) => row[i])));
    const writes = new GatheredWrites(this.io.out);
    for (const [n, row] of rows.entries()) {
      // a field this record does not carry is left out of its block
      const lines = columns.map((column, i) => ({ field: safeText(column), value: row[i]!, whole: whole[i]! })).filter((_, i) => values[n]![i] !== undefined);
      const readerBehind = writes.add(recordBlock(lines, this.width, theme, `RECORD ${n + 1}`));
      if (readerBehind) await readerBehind;
    }
    await writes.flush();
    return rows.length;
  }

  /**
   * One resource as FIELD / VALUE rows that fit the terminal. Identifiers are never cut: when one is wider than
   * the room a framed table leaves, the record is shown as unframed FIELD VALUE lines instead.
   */
  async record(rows: [string, unknown][]): Promise<void> {
    const [{ frameWidth }, { cutToWidth, displayWidth }] = await Promise.all([import('./table-layout.js'), import('./text-width.js')]);
    const keys = rows.map(([key]) => safeText(key));
    const values = rows.map(([, value]) => safeText(oneLine(cellText(value))));
    const whole = rows.map(([key, value]) => isIdentifierColumn(key, [value]));
    const keyWidth = Math.min(Math.max(...keys.map(displayWidth)), Math.floor(this.width / 3));
    const valueWidth = Math.max(1, this.width - frameWidth(2) - keyWidth);
    const theme = this.io.outTheme();
    if (values.some((value, i) => whole[i] && displayWidth(value) > valueWidth)) {
      const { recordBlock } = await import('./record-blocks.js');
      this.io.out.write(recordBlock(keys.map((field, i) => ({ field, value: values[i]!, whole: whole[i]! })), this.width, theme));
      return;
    }
    await this.framed([], values.map((value, i) => [theme.dim(cutToWidth(keys[i]!, keyWidth)), cutToWidth(value, valueWidth)]));
  }

  private async framed(head: string[], rows: string[][]): Promise<void> {
    const { default: Table } = await import('cli-table3');
    // Compact: no rule between rows, so a page of results fits on a screen.
    const compact = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
    const table = new Table({ head, chars: compact, style: { head: [], border: [] }, wordWrap: false });
    for (const row of rows) table.push(row);
    this.io.out.write(`${table.toString()}\n`);
  }
}
