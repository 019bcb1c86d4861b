// What a member of a record means, judged from its name and its value: the rules of src/records/README.md for
// identifiers, hardware ids, names and times, written once. The spec leaves every record's fields unshown, so
// these are the only places fleetctl reads meaning into a member's name.
import { isUuid } from '../shared/uuid.js';

/** What a field is, judged from its name and its values: the order in which fields stand in for a view. */
export const FieldRank = { identifier: 0, name: 1, time: 2, scalar: 3, nested: 4 } as const;
export type FieldRankValue = (typeof FieldRank)[keyof typeof FieldRank];

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const IDENTIFIER_NAME = /(^|[._])(id|ids|uuid|key|hardware_?id|serial(_?number)?)$|[a-z0-9](Id|Ids|Key|Uuid)$/;
const NAME_NAME = /(^|[._])(name|title|label|display_?name|(first|last|given|family|full|nick)_?name)$|[a-z0-9](Name|Title|Label)$/;
const TIME_NAME = /(_at|_utc|_time|_on|[a-z0-9](At|Utc|Time|On))$/;
/** The spec's name (`hardware_id`, the list filter), its camelCase, then a member named for the hardware (`hw`, `device_hw`). */
const HARDWARE_ID_NAMES = ['hardware_id', 'hardwareId'];
const HARDWARE_ID_NAME = /(^|_)(hw|hardware)(_?id)?$|[a-z0-9](Hw|Hardware)(Id)?$/;

function membersOf(record: unknown): Record<string, unknown> | undefined {
  return record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : undefined;
}

/**
 * The identifier of a record, which the spec does not name: `id`, else the noun's own (`media_id`, `mediaId`,
 * `media_ref`, `event_id` ...), else a bare `ref`, `uuid` or `key`. Undefined when none holds a string or number.
 */
export function recordId(record: unknown, noun: string): string | undefined {
  const members = membersOf(record);
  if (!members) return undefined;
  const snake = noun.trim().replace(/[\s-]+/g, '_');
  const camel = snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const names = ['id', `${snake}_id`, `${camel}Id`, `${snake}_ref`, `${camel}Ref`, `${snake}_uuid`, `${camel}Uuid`, 'ref', 'uuid', 'key'];
  for (const name of names) {
    const value = members[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/**
 * The hardware id a record carries (a device's, or the device an event, media item or report is of): the spec's
 * `hardware_id` or `hardwareId`, else the one member named for the hardware (`hw`, `device_hw`). Undefined when
 * none, or several of the second kind, hold a non-empty string.
 */
export function hardwareIdOf(record: unknown): string | undefined {
  const members = membersOf(record);
  if (!members) return undefined;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  for (const name of HARDWARE_ID_NAMES) if (text(members[name]) !== undefined) return members[name] as string;
  const named = Object.entries(members).filter(([name, value]) => HARDWARE_ID_NAME.test(name) && text(value) !== undefined);
  return named.length === 1 ? (named[0]![1] as string) : undefined;
}

/** Whether a member is named for the hardware id (the spec's name, its camelCase, or `hw`, `device_hw` ...). */
export function isHardwareIdField(field: string): boolean {
  const name = lastPart(field);
  return HARDWARE_ID_NAMES.includes(name) || HARDWARE_ID_NAME.test(name);
}

/** The names a record goes by (`name`, `display_name`, `title`, `label` ...): what fleet:North matches besides the id. */
export function recordNames(record: unknown): string[] {
  const members = membersOf(record);
  if (!members) return [];
  return Object.entries(members).filter(([name, value]) => NAME_NAME.test(name) && typeof value === 'string' && value.trim() !== '').map(([, value]) => value as string);
}

/**
 * When a record says it happened, which the spec does not name: the first of `preferred` holding a date-time,
 * else the first date-time member whose name is not a time of the record itself (created, updated, received).
 */
export function recordTime(record: unknown, preferred: readonly string[]): string | undefined {
  const members = membersOf(record);
  if (!members) return undefined;
  const named = preferred.map((name) => members[name]).find(isDateTime);
  if (named !== undefined) return named;
  const own = Object.entries(members).filter(([, value]) => isDateTime(value));
  const bookkeeping = /creat|updat|modif|receiv|revis|insert|ingest|expir|valid/i;
  return (own.find(([name]) => !bookkeeping.test(name)) ?? own[0])?.[1] as string | undefined;
}

/** Whether a string is an RFC 3339 date-time (or close to one: a space for the T). */
export function isDateTime(value: unknown): value is string {
  return typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}

/** What kind of value a cell holds, to format it for a person and to keep it whole: from the value itself. */
export function valueKind(field: string, value: unknown): 'identifier' | 'date-time' | 'list' | 'rigid' | 'text' {
  if (typeof value === 'number' || typeof value === 'boolean') return 'rigid';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string' && (isUuid(value) || IDENTIFIER_NAME.test(lastPart(field)))) return 'identifier';
  if (isDateTime(value)) return 'date-time';
  return 'text';
}

/** Whether a column holds identifiers: by its name, or because every value it has is a uuid. */
export function isIdentifierColumn(field: string, values: readonly unknown[]): boolean {
  if (IDENTIFIER_NAME.test(lastPart(field))) return true;
  const present = values.filter((value) => value !== null && value !== undefined && value !== '');
  return present.length > 0 && present.every((value) => typeof value === 'string' && isUuid(value));
}

/** The last member of a dotted path: what its name says. */
export function lastPart(field: string): string {
  return field.split('.').pop()!;
}

/** The rank of a field from its name and the values the records hold for it. */
export function rankField(field: string, values: readonly unknown[]): FieldRankValue {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.some((value) => typeof value === 'object')) return FieldRank.nested;
  if (isIdentifierColumn(field, present)) return FieldRank.identifier;
  if (NAME_NAME.test(lastPart(field))) return FieldRank.name;
  if (TIME_NAME.test(lastPart(field)) || (present.length > 0 && present.every(isDateTime))) return FieldRank.time;
  return FieldRank.scalar;
}
