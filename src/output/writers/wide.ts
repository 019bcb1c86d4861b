// -o wide: every field the records carry (the union over every record fetched, so the whole list is held), as a
// table on a terminal (blocks of FIELD VALUE lines when wider than it) or TSV when piped; with --columns, a table.
import { everyField } from '../record-fields.js';
import type { SinkWriters } from '../follow-sink.js';
import type { FormatWriter, ListRun, Records } from './writer.js';
import { listInTable, tableWriter, writeFieldRows, writeTsv } from './table.js';

async function listEveryField(records: Records, run: ListRun): Promise<number> {
  if (run.chosenColumns) return listInTable(records, run);
  const all = await run.holdAll(records, '-o wide');
  const columns = everyField(all);
  if (run.stdoutIsTTY) return run.terminal.list(all, columns, run.view, { expandWhenWide: true });
  return writeTsv(all, columns, run);
}

/** --follow's table shows every field of the first records, as they are. */
function everyFieldOfFirst(sink: SinkWriters): SinkWriters {
  if (sink.chosen) return sink;
  return {
    ...sink,
    columnsFor: (first) => everyField(first),
    plan: async (first, columns) => {
      const { planPersonTable } = await import('../person-table.js');
      return planPersonTable({ script: [], person: [] }, first, { columns, chosen: true });
    },
  };
}

export const wideWriter: FormatWriter = {
  forPerson: true,
  wholeRecords: false,
  streamsRecords: false,
  loneItems: true,
  list: listEveryField,
  object: writeFieldRows,
  item: tableWriter.item,
  follow: (sink) => tableWriter.follow(everyFieldOfFirst(sink)),
};
