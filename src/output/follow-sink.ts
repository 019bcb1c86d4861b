// Where --follow prints, as events come: a table that grows on a terminal, CSV rows under one header, and
// otherwise one item at a time (an NDJSON line, a YAML document, or what --jq makes of it).
import { valueAt } from './values.js';
import { csvHeader, csvRow, personCell, tableHeads } from './cells.js';
import type { OutputFormat } from './formats.js';
import type { GrowingTable } from './growing-table.js';

export interface RecordSink {
  add(records: readonly unknown[]): Promise<void>;
}

/** What the output layer lends a sink: its choices, and its writers (which wait for a slow reader). */
export interface SinkWriters {
  format: OutputFormat;
  stdoutIsTTY: boolean;
  /** The columns, chosen when the first records come (the records decide which fields there are). */
  columnsFor(first: readonly unknown[]): string[];
  /** Refuses --columns names the first records do not carry (and the document does not describe), before any is printed. */
  checkColumns(first: readonly unknown[]): Promise<void>;
  /** Says on stderr which columns did not fit the terminal. */
  noteDropped(columns: readonly string[]): void;
  terminalWidth: number;
  bold(text: string): string;
  write(text: string): Promise<void>;
  item(record: unknown): Promise<void>;
  /** --jq: a batch of records through the program. */
  jq?: (records: readonly unknown[]) => Promise<void>;
}

export function followSink(w: SinkWriters): RecordSink {
  if (w.jq) {
    const run = w.jq;
    return { add: async (records) => (records.length > 0 ? run(records) : undefined) };
  }
  if (w.format === 'csv') return csvSink(w);
  if ((w.format === 'table' || w.format === 'wide') && w.stdoutIsTTY) return growingTableSink(w);
  return {
    add: async (records) => {
      for (const record of records) await w.item(record);
    },
  };
}

function csvSink(w: SinkWriters): RecordSink {
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

function growingTableSink(w: SinkWriters): RecordSink {
  let table: GrowingTable | undefined;
  let columns: string[] = [];
  return {
    add: async (records) => {
      if (!table) {
        // the columns, header and widths come with the first rows: nothing is drawn while there are none
        if (records.length === 0) return;
        await w.checkColumns(records);
        columns = w.columnsFor(records);
        const values = records.map((record) => columns.map((c) => valueAt(record, c)));
        const { headers, stiffness } = await tableHeads(columns, values);
        const { GrowingTable } = await import('./growing-table.js');
        table = new GrowingTable(headers, stiffness, w.terminalWidth, w.bold);
        const text = table.rows(values.map((row) => row.map(personCell)));
        const dropped = columns.filter((_, i) => !table!.shown.includes(i));
        if (dropped.length > 0) w.noteDropped(dropped);
        return w.write(text);
      }
      await w.write(table.rows(records.map((record) => columns.map((c) => personCell(valueAt(record, c))))));
    },
  };
}
