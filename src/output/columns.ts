// What each resource shows, declared once: the columns a script reads, the columns a person reads, and the
// fields of the OpenAPI document that --columns may name.
import { UsageError } from '../errors.js';
import { SCHEMA_FIELDS, type RecordSchema } from '../openapi/fields.gen.js';
import { quoteInput } from './terminal-text.js';

export interface ResourceView {
  /** What --columns is checked against (and what -o wide shows): a record schema of the OpenAPI document. */
  schema?: RecordSchema;
  /** Fields fleetctl adds to the records it shows (a webhook configuration's etag). */
  extra?: readonly string[];
  /**
   * Piped tables and CSV: what scripts read. Changing these columns is a breaking change, to be documented,
   * never a side effect of making the terminal table nicer.
   */
  script: readonly string[];
  /** A table on a terminal: what an operator reads at a glance, chosen to fit 80 columns; -o wide shows all. */
  person: readonly string[];
}

/** A view of rows fleetctl makes itself (no schema): the same columns for people and scripts. */
function rows(...columns: string[]): ResourceView {
  return { script: columns, person: columns };
}

export const VIEWS = {
  device: {
    schema: 'Device',
    script: ['id', 'hardware_id', 'name', 'model', 'fleet_id', 'vehicle_id', 'capabilities', 'last_seen_at'],
    person: ['hardware_id', 'name', 'model', 'capabilities', 'last_seen_at'],
  },
  fleet: {
    schema: 'Fleet',
    script: ['id', 'name', 'organization_id', 'vehicle_count', 'created_at'],
    person: ['id', 'name', 'vehicle_count'],
  },
  driver: {
    schema: 'Driver',
    script: ['id', 'first_name', 'last_name', 'status', 'fleet_id', 'email', 'employee_id'],
    person: ['first_name', 'last_name', 'status', 'employee_id', 'email'],
  },
  event: {
    schema: 'EventListItem',
    script: ['event_id', 'hardware_id', 'triggered_at', 'event_types', 'is_accident', 'is_important', 'vehicle_id'],
    person: ['triggered_at', 'hardware_id', 'event_types', 'is_accident', 'is_important'],
  },
  organization: {
    schema: 'Organization',
    script: ['id', 'name', 'parent_id'],
    person: ['id', 'name'],
  },
  vehicle: {
    schema: 'Vehicle',
    script: ['id', 'name', 'license_plate', 'make', 'model', 'year', 'fleet_id'],
    person: ['name', 'license_plate', 'make', 'model', 'year'],
  },
  journey: {
    schema: 'Journey',
    script: ['id', 'hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds', 'vehicle_id'],
    person: ['hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds'],
  },
  deviceMedia: {
    schema: 'DeviceMedia',
    script: ['id', 'hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at', 'event_id'],
    person: ['hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at'],
  },
  deviceEvent: {
    schema: 'DeviceEventSummary',
    script: ['event_id', 'triggered_at', 'event_types', 'is_accident', 'is_important'],
    person: ['triggered_at', 'event_types', 'is_accident', 'is_important'],
  },
  webhookConfig: {
    schema: 'WebhookConfig',
    extra: ['etag'],
    script: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
    person: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
  },
  webhookChange: rows('op', 'type', 'before', 'after'),
  deviceCommandResult: rows('hardware_id', 'status', 'http_status', 'code', 'idempotency_key'),
  webhookEmitted: rows('id', 'type', 'hardware_id', 'organization_id', 'destinations'),
  sandboxRequest: rows('id', 'at', 'method', 'path', 'operation_id', 'client_id', 'status', 'outcome', 'duration_ms', 'fault'),
  sandboxFault: rows('id', 'match', 'respond', 'probability', 'times', 'hits'),
} as const satisfies Record<string, ResourceView>;

export type ViewName = keyof typeof VIEWS;

export function viewOf(name: ViewName): ResourceView {
  return VIEWS[name];
}

/** A view of a single operation's answer, for the verbs whose records have no list view of their own. */
export function schemaView(schema: RecordSchema): ResourceView {
  const fields = leafFields(schema);
  return { schema, script: fields, person: fields };
}

/** The columns of `-o wide`: every field of the record, uuids included, nested objects by their members. */
export function wideColumns(view: ResourceView): string[] {
  if (!view.schema) return [...view.script];
  return [...leafFields(view.schema), ...(view.extra ?? [])];
}

/** The kind of a field in the document (uuid, date-time, array ...), to format it for a person. */
export function fieldKind(view: ResourceView, column: string): string | undefined {
  return view.schema ? (SCHEMA_FIELDS[view.schema] as Record<string, string>)[column] : undefined;
}

/**
 * --columns names are checked against the record schema before any request: a misspelt name would
 * otherwise print an empty column and exit 0. Nested fields are named with dots (delivery.url).
 */
export function checkColumns(columns: readonly string[], view: ResourceView, flag = '--columns'): void {
  const known = knownColumns(view);
  const unknown = columns.filter((column) => !known.includes(column));
  if (unknown.length === 0) return;
  const named = unknown.map((column) => {
    const closest = closestNames(column, known);
    return `${quoteInput(column, 40)}${closest.length > 0 ? ` (did you mean ${closest.join(' or ')}?)` : ''}`;
  });
  const noun = flag === '--columns' ? 'column' : 'field';
  throw new UsageError(`${flag}: unknown ${noun}${unknown.length === 1 ? '' : 's'} ${named.join(', ')}`, `valid ${noun}s: ${known.join(', ')}`);
}

function knownColumns(view: ResourceView): string[] {
  const fields = view.schema ? Object.keys(SCHEMA_FIELDS[view.schema]) : [];
  return [...new Set([...fields, ...(view.extra ?? []), ...view.script, ...view.person])];
}

function leafFields(schema: RecordSchema): string[] {
  const fields = SCHEMA_FIELDS[schema] as Record<string, string>;
  return Object.keys(fields).filter((field) => fields[field] !== 'object');
}

/**
 * The known names nearest to a mistyped one, best first: a few edits away (nme → name), or holding its letters
 * in order (hw → hardware_id).
 */
export function closestNames(typed: string, known: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  const scored = known.map((name) => {
    const distance = editDistance(wanted, name.toLowerCase());
    const near = distance <= Math.max(1, Math.min(3, Math.floor(name.length / 3)));
    return { name, distance, matches: near || (wanted.length >= 2 && isSubsequence(wanted, name.toLowerCase())) };
  });
  return scored
    .filter(({ matches }) => matches)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ name }) => name);
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at++;
  return at === short.length;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
