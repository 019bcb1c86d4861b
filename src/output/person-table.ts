// What a person's table of a list shows, before it is fitted to the terminal: the view's identifier first (the
// member the next command takes, found for the service in use by the record boundary), the columns of its task,
// then its other columns; what every row shares said once above the table instead of on every row; and which of
// the fields the records carry the table leaves out, so one line can say so. Loaded only when a table is drawn.
import type { ResourceView } from './columns.js';
import { Part, type PartValue } from './table-layout.js';
import { cellText, valueAt } from './values.js';
import { personCell } from './cells.js';
import { carriedFields } from './record-fields.js';
import { memberFor, type ListSubject } from '../records/view-roles.js';
import { safeText } from '../shared/terminal-text.js';

export interface PersonTable {
  columns: string[];
  /** What each column is to the view: the identifier, the task's, or other (left out first). */
  parts: PartValue[];
  /** Lines said once above the table: what every row shares, a prefix every key shares. */
  captions: string[];
  /** Fields the records carry that the table leaves out (before fitting): " (empty)" when no row has a value. */
  leftOut: string[];
  /** A person's cell of a column: the report time of a device that never reported reads "never". */
  cell(column: string, value: unknown): string;
}

export interface PlanOptions {
  /** The columns to start from: the view's preferred ones the records carry, or --columns. */
  columns: readonly string[];
  /** --columns: the person chose them, so none is said once or left out, and no other field is named. */
  chosen: boolean;
  /** --follow: later rows may differ, so only the one device's hardware id is said once. */
  follow?: boolean;
}

export async function planPersonTable(view: ResourceView, records: readonly unknown[], opts: PlanOptions): Promise<PersonTable> {
  const subject: ListSubject = { resource: view.resource };
  const identifier = view.identifier ? await memberFor(view.identifier, records, subject) : undefined;
  const task: string[] = [];
  let reportTime: string | undefined;
  for (const column of view.task ?? []) {
    const member = await memberFor(column, records, subject);
    if (member === undefined) continue;
    task.push(member);
    if ('role' in column && column.role === 'report-time') reportTime = member;
  }
  const cell = (column: string, value: unknown) => (column === reportTime && (value === null || value === undefined || value === '') ? 'never' : personCell(value));
  if (opts.chosen) {
    const columns = [...opts.columns];
    const id = identifier !== undefined && columns.includes(identifier) ? identifier : columns[0];
    return { columns, parts: columns.map((c) => partOf(c, id, task)), captions: [], leftOut: [], cell };
  }
  let columns = unique([...(identifier !== undefined ? [identifier] : []), ...opts.columns, ...task]);
  const id = identifier ?? columns[0];
  const captions: string[] = [];
  const empty: string[] = [];

  const shared = await sharedColumns(view, records, columns, id, opts.follow === true);
  if (shared.length > 0) captions.push(`Every row: ${shared.map((c) => `${safeText(c)} ${cell(c, valueAt(records[0], c))}`).join(', ')}`);
  if (!opts.follow && id !== undefined) {
    for (const [column, label] of Object.entries(view.prefixed ?? {})) {
      const prefix = commonPrefix(records, column, id);
      // the prefix comes from the records: shown, never sent raw to the terminal
      if (prefix !== undefined) captions.push(`${label}: ${safeText(prefix)}<${safeText(id.replace(/[._]/g, ' '))}>`);
      if (prefix !== undefined) shared.push(column);
    }
    // a column no row has a value for says nothing: it gives its room to one that does
    // (an empty list is a value: a device that can do nothing)
    const blank = (value: unknown) => value === null || value === undefined || value === '';
    for (const column of columns) if (column !== id && column !== reportTime && records.every((record) => blank(valueAt(record, column)))) empty.push(column);
  }
  columns = columns.filter((column) => !shared.includes(column) && !empty.includes(column));
  const shown = (field: string) => [...columns, ...shared].some((column) => column === field || column.startsWith(`${field}.`));
  const leftOut = [...carriedFields(records).filter((field) => !shown(field) && !empty.includes(field)), ...empty.map((field) => `${field} (empty)`)];
  return { columns, parts: columns.map((c) => partOf(c, id, task)), captions, leftOut, cell };
}

function partOf(column: string, identifier: string | undefined, task: readonly string[]): PartValue {
  if (column === identifier) return Part.identifier;
  return task.includes(column) ? Part.task : Part.other;
}

/**
 * In one device's list, the columns every row has the same value in: its hardware id always (it is the device's),
 * any other once there are two rows to compare. Never the identifier.
 */
async function sharedColumns(view: ResourceView, records: readonly unknown[], columns: readonly string[], id: string | undefined, follow: boolean): Promise<string[]> {
  if (!view.oneDevice || records.length === 0) return [];
  const hardwareId = await memberFor({ role: 'hardware-id' }, records);
  // the device's hardware id is said even where the view would not show it: it is what the list is of
  const withDevice = hardwareId !== undefined && !columns.includes(hardwareId) ? [hardwareId, ...columns] : columns;
  const candidates = withDevice.filter((column) => column !== id && (column === hardwareId || (!follow && records.length > 1)));
  return candidates.filter((column) => {
    const texts = records.map((record) => valueAt(record, column));
    return texts[0] !== undefined && texts[0] !== null && texts.every((value) => cellText(value) === cellText(texts[0]));
  });
}

/** The prefix every row's `column` puts before its identifier, when each is that prefix and the row's identifier. */
function commonPrefix(records: readonly unknown[], column: string, identifier: string): string | undefined {
  let prefix: string | undefined;
  for (const record of records) {
    const value = valueAt(record, column);
    const id = cellText(valueAt(record, identifier));
    if (typeof value !== 'string' || id === '' || !value.endsWith(id) || value.length === id.length) return undefined;
    const own = value.slice(0, -id.length);
    if (prefix !== undefined && own !== prefix) return undefined;
    prefix = own;
  }
  return prefix;
}

function unique(columns: readonly string[]): string[] {
  return [...new Set(columns)];
}
