// The fields a list of records carries, and which of them a view shows: written once, for tables, CSV, -o wide,
// pickers and completion alike. The spec leaves every record's fields unshown, so a view's columns are
// preferences: kept when the records carry them, and otherwise the records' own fields stand in, in one order
// (identifiers, then names/titles/labels, then times, then other scalars). What a member means (an identifier, a
// name, a time) is the record boundary's to say (src/records/members.ts); this file only arranges.
import { cellText, valueAt } from './values.js';
import { FieldRank, isHardwareIdField, lastPart, rankField } from '../records/members.js';

/** The top-level fields the records carry (a member present, even null), in the order they first appear. */
export function carriedFields(records: readonly unknown[]): string[] {
  const fields = new Set<string>();
  for (const record of records) {
    if (record !== null && typeof record === 'object' && !Array.isArray(record)) for (const key of Object.keys(record)) fields.add(key);
  }
  return [...fields];
}

/**
 * Every field the records carry, nested objects by their dotted members (firmware.version), arrays as one
 * field: what -o wide shows, the union over every record.
 */
export function everyField(records: readonly unknown[]): string[] {
  const fields = new Set<string>();
  const walk = (value: unknown, prefix: string): void => {
    for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (member !== null && typeof member === 'object' && !Array.isArray(member) && Object.keys(member).length > 0) walk(member, path);
      else fields.add(path);
    }
  };
  for (const record of records) if (record !== null && typeof record === 'object' && !Array.isArray(record)) walk(record, '');
  return [...fields];
}

/** Whether a record carries a field (dotted paths walk nested members); null counts as carried. */
export function carries(record: unknown, path: string): boolean {
  // records come from JSON, where a member is never undefined: undefined is a member the record lacks
  return valueAt(record, path) !== undefined;
}

/**
 * The columns to show for these records: the preferred ones that some record carries, then - while fewer than
 * the view prefers - the records' own fields by rank (identifiers, names, times, other scalars; nested values
 * last). A preferred column no record carries is left out, never shown empty.
 */
export function chooseColumns(preferred: readonly string[], records: readonly unknown[]): string[] {
  if (records.length === 0) return [...preferred];
  const kept = preferred.filter((column) => records.some((record) => carries(record, column)));
  if (kept.length >= preferred.length) return kept;
  return [...kept, ...standIns(records, kept, preferred.length - kept.length)];
}

/** Identifiers a line shows before its names and times: the record's own, and one more (a hardware id). */
const LEADING_IDENTIFIERS = 2;

/**
 * The records' own fields not yet shown, best first, at most `count` of them. Identifiers lead, but only the
 * first few: references to other records (fleet, vehicle) come after the record's names, times and plain values,
 * so a line says what the record is. A nested value stands in only when nothing flatter is left.
 */
export function standIns(records: readonly unknown[], shown: readonly string[], count: number): string[] {
  const rankOf = (field: string) => rankField(field, records.map((record) => valueAt(record, field)));
  let identifiers = shown.filter((field) => rankOf(field) === FieldRank.identifier).length;
  const candidates = carriedFields(records)
    .filter((field) => !shown.includes(field))
    .map((field, order) => {
      const rank = rankOf(field);
      if (rank !== FieldRank.identifier) return { field, order, rank: rank as number };
      // the hardware id is what the device commands take: it leads whatever other identifiers were shown
      // (references such as vehicle_id, preferred by name, must not push it out of the line)
      if (isHardwareIdField(field)) return { field, order, rank: FieldRank.identifier - 0.5 };
      // past the leading identifiers, one more reads after the plain values
      return { field, order, rank: identifiers++ < LEADING_IDENTIFIERS ? rank : FieldRank.scalar + 0.5 };
    });
  candidates.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return candidates.slice(0, count).map(({ field }) => field);
}

/**
 * The cells of one record's line in a picker: the preferred fields it carries, then its own by the same rule. A
 * list reads as words; a flag that is set reads as its name (is_accident: accident), one that is not as nothing.
 */
export function recordCells(record: unknown, preferred: readonly string[]): string[] {
  return chooseColumns(preferred, [record]).map((field) => {
    const value = valueAt(record, field);
    if (typeof value === 'boolean') return value ? lastPart(field).replace(/^is_?/i, '') : '';
    if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.join(' ');
    return cellText(value);
  });
}

/**
 * A few words that say what a record is, beside its identifier (a completion's description): the first of the
 * view's preferred fields the record has that is not an identifier (the candidate is one already), else its first
 * name, title or label, else its first other plain value.
 */
export function recordLabel(record: unknown, preferred: readonly string[]): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const plain = (value: unknown) => (typeof value === 'string' && value !== '') || typeof value === 'number';
  const given = preferred
    .map((field) => ({ field, value: valueAt(record, field) }))
    .find(({ field, value }) => plain(value) && rankField(field, [value]) !== FieldRank.identifier)?.value;
  if (given !== undefined) return cellText(given);
  const fields = Object.entries(record as Record<string, unknown>)
    .filter(([, value]) => plain(value))
    .map(([field, value], order) => ({ value, order, rank: rankField(field, [value]) }))
    .filter(({ rank }) => rank !== FieldRank.identifier);
  fields.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return fields.length > 0 ? cellText(fields[0]!.value) : undefined;
}
