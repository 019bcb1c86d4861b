// A list in columns (a table, CSV): which columns, and when a field named with --columns that no record carries is
// refused. The columns come from the records that arrive first (a view's columns are preferences, kept when the
// records carry them), since the spec leaves every record's fields unshown.
import type { ResourceView } from './columns.js';
import { firstBatch } from './first-batch.js';
import { carries, chooseColumns } from './record-fields.js';
import type { Records } from './writers/writer.js';

export interface ColumnChoice {
  view: ResourceView;
  /** Every record is taken before any is written (a person's table, drawn once every row is in). */
  held: boolean;
  /** --columns, as given. */
  chosen: string[] | undefined;
  /** The view's columns for this output (a person's, or a script's). */
  preferred: readonly string[];
  /** Refuses (or warns about) --columns names the sample does not carry. */
  refuse(given: readonly string[], sample: readonly unknown[]): Promise<void>;
  warnAbsent(absent: Set<string>): void;
}

export async function listInColumns(records: Records, write: (records: Records, columns: string[]) => Promise<number>, c: ColumnChoice): Promise<number> {
  // the records of an API operation decide which preferred columns stay; rows fleetctl makes have theirs
  // (and with --columns, a name in none of the view's columns is judged by them too)
  const named = hasColumns(c.view) && c.chosen !== undefined;
  const { head, rest } = c.view.operation || named ? await firstBatch(records) : { head: [], rest: records };
  const columns = c.chosen ?? chooseColumns(c.preferred, head);
  const chosen = c.chosen ?? [];
  if (c.held) {
    const all: unknown[] = [];
    try {
      for await (const record of rest) all.push(record);
    } catch (error) {
      // a later page failed: the rows that came are written, so the line that says where to resume (after them)
      // does not skip rows nobody saw; the failure is what is then reported
      if (all.length > 0) await c.refuse(chosen, all).then(() => write(all, columns), () => undefined);
      throw error;
    }
    await c.refuse(chosen, all);
    return write(all, columns);
  }
  // a script gets data or nothing: a name no record of the first page carries is refused before the first byte
  if (c.view.operation) {
    await c.refuse(chosen, head);
    return write(rest, columns);
  }
  // rows fleetctl makes: a name none of the view's columns is refused before the first byte (field-checks.ts); one
  // of them, or any with no view named (an api answer), only warned about once every row had its chance to carry it
  if (named) await c.refuse(chosen, head);
  const absent = new Set(chosen);
  const count = await write(noticingFields(rest, absent), columns);
  if (count > 0) c.warnAbsent(absent);
  return count;
}

/** Passes records through, striking from `absent` each field that some record has. */
async function* noticingFields(records: Records, absent: Set<string>): AsyncIterable<unknown> {
  for await (const record of records) {
    for (const field of absent) if (carries(record, field)) absent.delete(field);
    yield record;
  }
}

/** A view that names its columns (rows fleetctl makes), not an answer shown as it comes (`api`). */
function hasColumns(view: ResourceView): boolean {
  return view.script.length + view.person.length > 0;
}
