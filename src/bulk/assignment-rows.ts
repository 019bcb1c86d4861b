// The rows of `devices assign|unassign --from-file`: CSV with a header row, or NDJSON, of a device (its id or its
// hardware id) and a vehicle id. Every row is checked before anything is sent; the first bad one is refused in
// one line naming the file, the line and what is wrong (exit 2).
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { canonicalUuid } from '../shared/uuid.js';
import { hasControlCharacters } from '../shared/terminal-text.js';

export type AssignmentCommand = 'assign' | 'unassign';

export interface AssignmentRow {
  /** 1-based line of the file, for messages. */
  line: number;
  /** As given: a device id (uuid, canonical) or a hardware id. */
  device: string;
  /** The vehicle id (assign only). */
  vehicle?: string;
}

/** Column or member names taken for each value: the first found wins. */
const DEVICE_NAMES = ['device', 'device_id', 'hardware_id'];
const VEHICLE_NAMES = ['vehicle', 'vehicle_id'];
const MAX_DEVICE_REF = 1024;

export function parseAssignmentRows(text: string, command: AssignmentCommand, source: string): AssignmentRow[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  const first = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (first === -1) throw new UsageError(`${source} has no rows`, `give a CSV with a header row (device,vehicle) or NDJSON ({"device": ..., "vehicle": ...} a line)`);
  const bad = (line: number, what: string) => new UsageError(`${source} line ${line}: ${what}`);
  const rows = lines[first]!.trimStart().startsWith('{') ? ndjsonRows(lines, bad) : csvRows(lines, first, bad);
  const seen = new Map<string, number>();
  for (const row of rows) {
    row.device = checkDevice(row.device, (what) => bad(row.line, what));
    if (command === 'assign') {
      if (row.vehicle === undefined || row.vehicle === '') throw bad(row.line, 'no vehicle: assign needs a vehicle id on every row');
      const vehicle = canonicalUuid(row.vehicle);
      if (vehicle === undefined) throw bad(row.line, `vehicle ${quoteInput(row.vehicle)} is not a vehicle id (uuid)`);
      row.vehicle = vehicle;
    } else {
      row.vehicle = undefined;
    }
    const earlier = seen.get(row.device);
    if (earlier !== undefined) throw bad(row.line, `device ${quoteInput(row.device)} is already on line ${earlier}: one row a device`);
    seen.set(row.device, row.line);
  }
  if (rows.length === 0) throw new UsageError(`${source} has a header but no rows`);
  return rows;
}

function checkDevice(value: string | undefined, bad: (what: string) => UsageError): string {
  const ref = (value ?? '').trim();
  if (ref === '') throw bad('no device: give its id (uuid) or its hardware id');
  if (ref.length > MAX_DEVICE_REF || hasControlCharacters(ref)) throw bad(`device ${quoteInput(ref)} is not a device id or hardware id`);
  return canonicalUuid(ref) ?? ref;
}

function pick(record: Record<string, unknown>, names: string[]): unknown {
  for (const name of names) if (record[name] !== undefined) return record[name];
  return undefined;
}

function ndjsonRows(lines: string[], bad: (line: number, what: string) => UsageError): AssignmentRow[] {
  const rows: AssignmentRow[] = [];
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw bad(index + 1, 'not a JSON object (NDJSON: one object a line)');
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) throw bad(index + 1, 'not a JSON object (NDJSON: one object a line)');
    const device = pick(record as Record<string, unknown>, DEVICE_NAMES);
    const vehicle = pick(record as Record<string, unknown>, VEHICLE_NAMES);
    if (device !== undefined && typeof device !== 'string') throw bad(index + 1, 'device must be a string');
    if (vehicle !== undefined && vehicle !== null && typeof vehicle !== 'string') throw bad(index + 1, 'vehicle must be a string');
    rows.push({ line: index + 1, device: device ?? '', vehicle: vehicle ?? undefined });
  });
  return rows;
}

function csvRows(lines: string[], headerIndex: number, bad: (line: number, what: string) => UsageError): AssignmentRow[] {
  const header = splitCsv(lines[headerIndex]!, headerIndex + 1, bad).map((h) => h.trim().toLowerCase());
  const deviceColumn = header.findIndex((h) => DEVICE_NAMES.includes(h));
  const vehicleColumn = header.findIndex((h) => VEHICLE_NAMES.includes(h));
  if (deviceColumn === -1) throw bad(headerIndex + 1, `the header row names no device column (${DEVICE_NAMES.join(', ')}): got ${quoteInput(lines[headerIndex]!)}`);
  const rows: AssignmentRow[] = [];
  for (let index = headerIndex + 1; index < lines.length; index++) {
    const text = lines[index]!;
    if (text.trim() === '' || text.trimStart().startsWith('#')) continue;
    const cells = splitCsv(text, index + 1, bad);
    if (cells.length !== header.length) throw bad(index + 1, `${cells.length} field${cells.length === 1 ? '' : 's'}, the header has ${header.length}`);
    rows.push({ line: index + 1, device: cells[deviceColumn]!, vehicle: vehicleColumn === -1 ? undefined : cells[vehicleColumn]!.trim() });
  }
  return rows;
}

/** One CSV line (RFC 4180 quoting; a quoted field may not span lines). */
function splitCsv(text: string, line: number, bad: (line: number, what: string) => UsageError): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw bad(line, 'a quoted field is not closed');
        if (text[i] === '"' && text[i + 1] === '"') [cell, i] = [`${cell}"`, i + 2];
        else if (text[i] === '"') break;
        else cell += text[i++];
      }
      i++;
      if (i < text.length && text[i] !== ',') throw bad(line, 'text after a quoted field');
    } else {
      const end = text.indexOf(',', i);
      cell = end === -1 ? text.slice(i) : text.slice(i, end);
      i = end === -1 ? text.length : end;
    }
    cells.push(cell);
    if (i >= text.length) return cells;
    i++; // the comma
  }
}
