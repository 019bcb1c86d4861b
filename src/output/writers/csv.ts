// -o csv: a header, then a row per record in the view's columns (or --columns); one resource is a header and a
// row of every field it carries.
import { csvHeader, csvRow } from '../cells.js';
import { csvSink } from '../follow-sink.js';
import { flattenRecord } from '../values.js';
import type { FormatWriter } from './writer.js';
import { writeJsonLine } from './ndjson.js';

export const csvWriter: FormatWriter = {
  forPerson: false,
  wholeRecords: false,
  streamsRecords: false,
  // a row means nothing without the header and columns a list (or --follow) gives it
  loneItems: false,
  list: (records, run) => run.inColumns(records, (rows, columns) => run.writeEach(rows, (record) => csvRow(record, columns), csvHeader(columns))),
  object: async (record, out, columns) => {
    const cols = columns ?? flattenRecord(record).map(([key]) => key);
    out.write(`${csvHeader(cols)}${csvRow(record, cols)}`);
  },
  item: writeJsonLine,
  follow: csvSink,
};
