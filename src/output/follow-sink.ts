// Where --follow prints, as events come: a table that grows on a terminal, CSV rows under one header, or one item
// at a time (an NDJSON line, a YAML document). Each format's writer (writers/) picks its sink.
import { valueAt } from './values.js';
import { csvHeader, csvRow, tableHeads } from './cells.js';
import type { GrowingTable } from './growing-table.js';
import type { PersonTable } from './person-table.js';

export interface RecordSink {
  add(records: readonly unknown[]): Promise<void>;
}

/** What the output layer lends a sink: its choices, and its writers (which wait for a slow reader). */
export interface SinkWriters {
  stdoutIsTTY: boolean;
  /** --columns was given. */
  chosen: boolean;
  /** The columns, chosen when the first records come (the records decide which fields there are). */
  columnsFor(first: readonly unknown[]): string[];
  /** A person's table of the first records, from those columns: what it shows, and what it says once. */
  plan(first: readonly unknown[], columns: string[]): Promise<PersonTable>;
  /** A line on stderr. */
  say(line: string): void;
  /** Says on stderr which fields the table leaves out: those the terminal had no room for, then the others. */
  noteLeftOut(dropped: readonly string[], leftOut: readonly string[]): void;
  /** Refuses --columns names the first records do not carry (and the document does not describe), before any is printed. */
  checkColumns(first: readonly unknown[]): Promise<void>;
  terminalWidth: number;
  bold(text: string): string;
  write(text: string): Promise<void>;
  item(record: unknown): Promise<void>;
}

/** One item at a time, as the format writes an item of a stream. */
export function itemSink(w: SinkWriters): RecordSink {
  return {
    add: async (records) => {
      for (const record of records) await w.item(record);
    },
  };
}

/** CSV rows under one header, its columns chosen when the first records come. */
export function csvSink(w: SinkWriters): RecordSink {
  let columns: string[] | undefined;
  return {
    add: async (records) => {
      if (records.length === 0) return;
      let header = '';
      if (!columns) {
        await w.checkColumns(records);
        columns = w.columnsFor(records);
        header = csvHeader(columns);
      }
      for (const record of records) {
        await w.write(`${header}${csvRow(record, columns)}`);
        header = '';
      }
    },
  };
}

/** A table that grows on a terminal: its header and widths come with the first rows. */
export function growingTableSink(w: SinkWriters): RecordSink {
  let table: GrowingTable | undefined;
  let plan: PersonTable | undefined;
  let columns: string[] = [];
  return {
    add: async (records) => {
      if (!table) {
        // the columns, header and widths come with the first rows: nothing is drawn while there are none
        if (records.length === 0) return;
        await w.checkColumns(records);
        plan = await w.plan(records, w.columnsFor(records));
        columns = plan.columns;
        const values = records.map((record) => columns.map((c) => valueAt(record, c)));
        const { headers, stiffness, endKept } = await tableHeads(columns, values);
        const { GrowingTable } = await import('./growing-table.js');
        table = new GrowingTable(headers, { stiffness, parts: plan.parts, endKept }, w.terminalWidth, w.bold);
        const text = table.rows(values.map((row) => row.map((value, i) => plan!.cell(columns[i]!, value))));
        for (const caption of plan.captions) w.say(caption);
        w.noteLeftOut(columns.filter((_, i) => !table!.shown.includes(i)), plan.leftOut);
        return w.write(text);
      }
      await w.write(table.rows(records.map((record) => columns.map((c) => plan!.cell(c, valueAt(record, c))))));
    },
  };
}
