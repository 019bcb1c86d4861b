// Cells: what a record's values look like in a table for a person, a TSV row or a CSV row.
import { cellText, valueAt } from './values.js';
import { isDateTime, isIdentifierColumn } from '../records/members.js';
import { safeText } from '../shared/terminal-text.js';
import type { StiffnessValue } from './table-layout.js';

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/**
 * A cell as a person reads it: on one line, control characters visible, and times to the minute in UTC
 * ("2026-11-21 03:36"), which is what a glance at a list needs; -o json keeps the exact value.
 */
export function personCell(value: unknown): string {
  if (isDateTime(value) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return new Date(value).toISOString().slice(0, 16).replace('T', ' ');
  return safeText(oneLine(cellText(value)));
}

// Short words whose values are names of states or outcomes: worth nothing once cut, like a number.
const ENUM_NAME = /(^|[._])(status|state|code|outcome|op|type|kind|method|command|scope|http_status)$/;

/** An absolute or home-relative file path (POSIX or Windows): it names its file at its end. */
const FILE_PATH = /^(\/|~\/|[A-Za-z]:[\\/])/;

/**
 * Headers of a table for a person, how readily each column gives way when the terminal is narrow, and which
 * columns keep their end when cut: file paths, whose end names the file (`…/bin/fleetctl-hello`).
 */
export async function tableHeads(columns: readonly string[], values: readonly (readonly unknown[])[]) {
  const { Stiffness } = await import('./table-layout.js');
  const headers = columns.map((c) => safeText(c.toUpperCase().replace(/[._]/g, ' ')));
  const present = columns.map((_, i) => values.map((row) => row[i]).filter((value) => value !== null && value !== undefined && value !== ''));
  const stiffness = columns.map((column, i): StiffnessValue => {
    const cells = present[i]!;
    if (isIdentifierColumn(column, cells)) return Stiffness.identifier;
    if (ENUM_NAME.test(column) || (cells.length > 0 && cells.every((value) => typeof value === 'number' || typeof value === 'boolean' || isDateTime(value)))) return Stiffness.rigid;
    return cells.some(Array.isArray) ? Stiffness.list : Stiffness.text;
  });
  const endKept = present.map((cells) => cells.length > 0 && cells.every((value) => typeof value === 'string' && FILE_PATH.test(value)));
  return { headers, stiffness, endKept };
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
