// Cells: what a record's values look like in a table for a person, a TSV row or a CSV row.
import { cellText, valueAt } from './values.js';
import { fieldKind, type ResourceView } from './columns.js';
import { safeText } from './terminal-text.js';
import { isUuid } from '../shared/uuid.js';

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/**
 * A cell as a person reads it: on one line, control characters visible, and times to the minute in UTC
 * ("2026-11-21 03:36"), which is what a glance at a list needs; -o json keeps the exact value.
 */
export function personCell(value: unknown, kind: string | undefined): string {
  if (kind === 'date-time' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) {
    const time = new Date(value);
    if (!Number.isNaN(time.getTime())) return time.toISOString().slice(0, 16).replace('T', ' ');
  }
  return safeText(oneLine(cellText(value)));
}

/** Columns worth nothing once cut: ids (a user copies them into the next command), times, numbers, flags. */
function isRigidColumn(column: string, kind: string | undefined): boolean {
  const last = column.split('.').pop()!;
  if (last === 'id' || last.endsWith('_id')) return true;
  return kind !== undefined && RIGID_KINDS.has(kind);
}

const RIGID_KINDS = new Set(['uuid', 'date-time', 'boolean', 'number', 'integer', 'int32', 'int64']);

/** Headers of a table for a person, and how readily each column gives way when the terminal is narrow. */
export async function tableHeads(columns: string[], view: ResourceView, rows: string[][]) {
  const { Stiffness } = await import('./table-layout.js');
  const headers = columns.map((c) => safeText(c.toUpperCase().replace(/[._]/g, ' ')));
  const stiffness = columns.map((c, i) => {
    if (isRigidColumn(c, fieldKind(view, c)) || rows.every((row) => row[i] === '' || isUuid(row[i]!))) return Stiffness.rigid;
    return fieldKind(view, c) === 'array' ? Stiffness.list : Stiffness.text;
  });
  return { headers, stiffness };
}

/** A TSV cell: tabs and line breaks would split the row, so they become spaces; other controls are shown. */
export function tsvField(text: string): string {
  return safeText(text.replace(/[\t\r\n]+/g, ' '));
}

/** A CSV cell: quoted where needed; tabs and line feeds are allowed inside quotes, other controls are shown. */
export function csvField(text: string): string {
  const safe = safeText(text.replace(/\r\n/g, '\n'), { newlines: true, tabs: true });
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line of CSV output. */
export function csvHeader(columns: readonly string[]): string {
  return `${columns.map(csvField).join(',')}\n`;
}

/** One record as a CSV line of the columns. */
export function csvRow(record: unknown, columns: readonly string[]): string {
  return `${columns.map((c) => csvField(cellText(valueAt(record, c)))).join(',')}\n`;
}
