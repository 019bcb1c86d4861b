// -o table, the default: on a terminal a table fitted to its width, drawn once every row is in (a growing one
// with --follow), one resource as FIELD / VALUE rows; piped, the same columns as tab-separated rows.
import { tsvField } from '../cells.js';
import { growingTableSink, itemSink } from '../follow-sink.js';
import { cellText, flattenRecord, valueAt } from '../values.js';
import type { FormatWriter, ListRun, Records, WriterOutput } from './writer.js';
import { writeJsonLine } from './ndjson.js';

/** Records as tab-separated rows of the columns, under a header of their names. */
export function writeTsv(records: Records, columns: readonly string[], out: WriterOutput): Promise<number> {
  return out.writeEach(records, (record) => `${columns.map((c) => tsvField(cellText(valueAt(record, c)))).join('\t')}\n`, `${columns.join('\t')}\n`);
}

/** One resource's FIELD / VALUE rows: the columns given, else every field it carries. */
export async function writeFieldRows(record: unknown, out: WriterOutput, columns: string[] | undefined): Promise<void> {
  const rows: [string, unknown][] = columns ? columns.map((c) => [c, valueAt(record, c)]) : flattenRecord(record);
  if (out.stdoutIsTTY) return out.terminal.record(rows);
  out.write(rows.map(([key, value]) => `${tsvField(key)}\t${tsvField(cellText(value))}\n`).join(''));
}

/** A list in the view's columns (or --columns): a person's table on a terminal, TSV when piped. */
export function listInTable(records: Records, run: ListRun): Promise<number> {
  // a table for a person is drawn once every row is in: a field nothing carries is refused before it is
  if (run.stdoutIsTTY) return run.inColumns(records, (all, columns) => run.terminal.list(all, columns, run.view), { held: true });
  return run.inColumns(records, (rows, columns) => writeTsv(rows, columns, run));
}

export const tableWriter: FormatWriter = {
  forPerson: true,
  wholeRecords: false,
  streamsRecords: false,
  loneItems: true,
  jq: 'terminal',
  list: listInTable,
  object: writeFieldRows,
  item: writeJsonLine,
  follow: (sink) => (sink.stdoutIsTTY ? growingTableSink(sink) : itemSink(sink)),
};
