// Which member of a list's records plays a part a view names: the identifier (what the next command takes), the
// hardware id, the report time. A view declares the part, never the member: the spec leaves every record's fields
// unshown, so the member is found here, for the service in use, by the same rules the rest of fleetctl reads
// records by (members.ts, event-identity.ts, report-time.ts).
import { hardwareIdOf } from './members.js';
import { records, type Resource } from './resources.js';

/** A part a column plays in a view of the service's records. */
export type ColumnRole = 'identifier' | 'hardware-id' | 'report-time';

/** A column a view names: a part the records' own member plays, or (rows fleetctl makes itself) a column by name. */
export type ViewColumn = { role: ColumnRole } | { field: string };

/** What a list is of: the resource (whose identifier rule applies) and, for one device's list, its hardware id. */
export interface ListSubject {
  resource?: Resource;
  hardwareId?: string;
}

/**
 * The member of these records that plays `column`'s part: the one holding most records' value for it (a service
 * names it once; a record that lacks it does not decide). Undefined when no record has one.
 */
export async function memberFor(column: ViewColumn, records: readonly unknown[], subject: ListSubject = {}): Promise<string | undefined> {
  if ('field' in column) return column.field;
  if (column.role === 'report-time') {
    // loaded only for a view that shows one: the rule's module also reads documents, which a table never needs
    const { reportTimeFromRecords } = await import('./report-time.js');
    return reportTimeFromRecords(records).field;
  }
  const valueOf = column.role === 'hardware-id' ? hardwareIdOf : identifierReader(subject);
  if (!valueOf) return undefined;
  return mostCommon(records.map((record) => memberHolding(record, valueOf(record))));
}

function identifierReader(subject: ListSubject): ((record: unknown) => string | undefined) | undefined {
  if (subject.resource === 'event') return (record) => records.event.idOf(record, subject.hardwareId);
  return subject.resource ? records[subject.resource].idOf : undefined;
}

/** The top-level member whose value is `value` (a number matches its text). */
function memberHolding(record: unknown, value: string | undefined): string | undefined {
  if (value === undefined || record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  return Object.entries(record as Record<string, unknown>).find(([, member]) => member === value || (typeof member === 'number' && String(member) === value))?.[0];
}

function mostCommon(names: readonly (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>();
  for (const name of names) if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  let best: string | undefined;
  for (const [name, count] of counts) if (best === undefined || count > counts.get(best)!) best = name;
  return best;
}
