// -o json (and --json): a list as one JSON array written as its items come, one resource as an indented object.
import { terminalSafeJson } from '../../shared/terminal-text.js';
import { itemSink } from '../follow-sink.js';
import { GatheredWrites } from '../stream-writes.js';
import type { FormatWriter, Records, WriterOutput } from './writer.js';
import { writeJsonLine } from './ndjson.js';

/**
 * A JSON array, written as its items come. When a later page fails, the array is closed on what was printed, so
 * stdout stays valid JSON; the caller says how far it got and where to resume.
 */
async function writeJsonArray(records: Records, out: WriterOutput): Promise<number> {
  let count = 0;
  const writes = new GatheredWrites(out.stdout);
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

export const jsonWriter: FormatWriter = {
  forPerson: false,
  wholeRecords: true,
  streamsRecords: false,
  loneItems: true,
  jq: 'indented',
  list: writeJsonArray,
  object: async (record, out) => out.write(`${terminalSafeJson(record, 2)}\n`),
  // an item of an open-ended stream is a line of its own: an array would never close
  item: writeJsonLine,
  follow: itemSink,
};
