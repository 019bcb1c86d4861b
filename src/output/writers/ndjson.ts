// -o ndjson: one JSON value a line, each written as it comes (a list, a run's results, a stream's items).
import { terminalSafeJson } from '../../shared/terminal-text.js';
import { itemSink } from '../follow-sink.js';
import type { FormatWriter, WriterOutput } from './writer.js';

/** A record as one line of NDJSON: how every format without a stream form of its own writes a lone item. */
export function jsonLine(record: unknown): string {
  return `${terminalSafeJson(record)}\n`;
}

/** A lone item as an NDJSON line, written at the reader's pace. */
export function writeJsonLine(record: unknown, out: WriterOutput): Promise<void> {
  return out.writeInStream(jsonLine(record));
}

export const ndjsonWriter: FormatWriter = {
  forPerson: false,
  wholeRecords: true,
  streamsRecords: true,
  loneItems: true,
  jq: 'lines',
  list: (records, run) => run.writeEach(records, jsonLine),
  object: async (record, out) => out.write(jsonLine(record)),
  item: writeJsonLine,
  follow: itemSink,
};
