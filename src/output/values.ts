// Turning API records into cells: dotted paths, and missing fields that show empty instead of crashing.
import { UsageError } from '../errors.js';
import { hasControlCharacters, quoteInput } from '../shared/terminal-text.js';

export { valueAt } from '../shared/member-path.js';

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
    return value.map((item) => cellText(item)).join(',');
  }
  return JSON.stringify(value) ?? '';
}

/** Nested objects become dotted keys, so one record reads as FIELD / VALUE rows. */
export function flattenRecord(record: unknown, prefix = ''): [string, unknown][] {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return [[prefix || 'value', record]];
  const rows: [string, unknown][] = [];
  for (const [key, value] of Object.entries(record as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      rows.push(...flattenRecord(value, path));
    } else {
      rows.push([path, value]);
    }
  }
  return rows;
}

export function parseColumns(spec: string | undefined): string[] | undefined {
  if (spec === undefined) return undefined;
  const columns = spec
    .split(',')
    .map((column) => column.trim())
    .filter((column) => column.length > 0);
  // no field of the API has a name like these: refused here, before a message quotes them whole
  const impossible = columns.find((column) => column.length > MAX_COLUMN_NAME || hasControlCharacters(column));
  if (impossible !== undefined) throw new UsageError(`--columns: ${quoteInput(impossible, 40)} cannot be a field name`, 'field names are short words such as hardware_id, or dotted paths such as delivery.url');
  return columns.length > 0 ? columns : undefined;
}

/** Dotted paths of the API's records are a few dozen characters at most. */
const MAX_COLUMN_NAME = 200;
