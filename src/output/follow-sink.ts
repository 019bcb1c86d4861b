// Where --follow prints, as events come: a table that grows on a terminal, CSV rows under one header, and
// otherwise one item at a time (an NDJSON line, a YAML document, or what --jq makes of it).
import { valueAt } from './values.js';
import { fieldKind, type ResourceView } from './columns.js';
import { csvHeader, csvRow, personCell, tableHeads } from './cells.js';
import type { OutputFormat } from './render.js';
import type { GrowingTable } from './growing-table.js';

export interface RecordSink {
  add(records: readonly unknown[]): Promise<void>;
}

/** What the output layer lends a sink: its choices, and its writers (which wait for a slow reader). */
export interface SinkWriters {
  format: OutputFormat;
  stdoutIsTTY: boolean;
  columns: string[];
  view: ResourceView;
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
  let header = csvHeader(w.columns);
  return {
    add: async (records) => {
      for (const record of records) {
        await w.write(`${header}${csvRow(record, w.columns)}`);
        header = '';
      }
    },
  };
}

function growingTableSink(w: SinkWriters): RecordSink {
  let table: GrowingTable | undefined;
  return {
    add: async (records) => {
      const rows = records.map((record) => w.columns.map((c) => personCell(valueAt(record, c), fieldKind(w.view, c))));
      if (!table) {
        // the header and widths come with the first rows: nothing is drawn while there are none
        if (rows.length === 0) return;
        const { headers, stiffness } = await tableHeads(w.columns, w.view, rows);
        const { GrowingTable } = await import('./growing-table.js');
        table = new GrowingTable(headers, stiffness, w.terminalWidth, w.bold);
      }
      await w.write(table.rows(rows));
    },
  };
}
