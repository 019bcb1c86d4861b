// What fleetctl prefers to show of each of the service's records, declared once: the columns a script reads, the
// columns a person reads, and what a picker's line shows. The spec leaves every record's fields
// unshown, so these names are preferences, not facts about the service: a column the records don't carry is left
// out and the records' own fields stand in (output/record-fields.ts, by the ranks of records/members.ts). The
// fields a record may carry come from the document in use (records/declared-fields.ts); bundled, from fields.gen.
// What matters is declared as parts, never as names: the identifier the next command takes and the columns of
// the command's task, which records/view-roles.ts finds among the members of the service in use.
import { RESPONSE_RECORDS, SCHEMA_FIELDS } from '../openapi/fields.gen.js';
import type { OperationId } from '../openapi/operation-types.js';
import type { ColumnRole, ViewColumn } from './view-roles.js';
import type { Resource } from './resources.js';

export type { ColumnRole, ViewColumn } from './view-roles.js';

export interface ResourceView {
  /** The operation whose records these are: the document in use says which fields they may carry. */
  operation?: OperationId;
  /**
   * Piped tables and CSV: what scripts read. Changing these columns is a breaking change, to be documented,
   * never a side effect of making the terminal table nicer.
   */
  script: readonly string[];
  /** A table on a terminal: what an operator reads at a glance, chosen to fit 80 columns; -o wide shows all. */
  person: readonly string[];
  /** A picker's line: the fields that say which record it is. */
  picker?: readonly string[];
  /**
   * A person's table, when the terminal is narrow: the column the next command takes, never cut nor left out
   * (default: the first column)...
   */
  identifier?: ViewColumn;
  /** ...then what the command is for (a bulk run's status and code), left out only once everything else is. */
  task?: readonly ViewColumn[];
  /** The kind of record, whose identifier rule finds the identifier member (records/resources.ts). */
  resource?: Resource;
  /** A list of one device's records: columns equal on every row (its hardware id) are said once, above the table. */
  oneDevice?: boolean;
  /**
   * Columns whose every value is one prefix and the row's identifier (a run's idempotency keys): said once, under
   * this name, instead of a column, so each key stays whole and copyable and the row keeps its room.
   */
  prefixed?: Readonly<Record<string, string>>;
}

const role = (part: ColumnRole): ViewColumn => ({ role: part });
const IDENTIFIER = role('identifier');

export const RECORD_VIEWS = {
  device: {
    operation: 'listDevices',
    script: ['id', 'hardware_id', 'name', 'model', 'fleet_id', 'vehicle_id', 'capabilities', 'last_seen_at'],
    person: ['hardware_id', 'name', 'model', 'capabilities', 'last_seen_at'],
    picker: ['hardware_id', 'name', 'model', 'capabilities'],
    identifier: role('hardware-id'),
    task: [role('report-time')],
    resource: 'device',
  },
  fleet: {
    operation: 'listFleets',
    script: ['id', 'name', 'organization_id', 'vehicle_count', 'created_at'],
    person: ['id', 'name', 'vehicle_count'],
    picker: ['name', 'vehicle_count'],
    identifier: IDENTIFIER,
    resource: 'fleet',
  },
  driver: {
    operation: 'listDrivers',
    script: ['id', 'first_name', 'last_name', 'status', 'fleet_id', 'email', 'employee_id'],
    person: ['id', 'first_name', 'last_name', 'status', 'employee_id'],
    picker: ['first_name', 'last_name', 'employee_id', 'status', 'email'],
    identifier: IDENTIFIER,
    resource: 'driver',
  },
  event: {
    operation: 'searchEvents',
    script: ['event_id', 'hardware_id', 'triggered_at', 'event_types', 'is_accident', 'is_important', 'vehicle_id'],
    person: ['triggered_at', 'hardware_id', 'event_types', 'is_accident', 'is_important'],
    picker: ['triggered_at', 'event_types', 'is_accident', 'is_important'],
    identifier: IDENTIFIER,
    resource: 'event',
  },
  organization: {
    operation: 'listOrganizations',
    script: ['id', 'name', 'parent_id'],
    person: ['id', 'name'],
    // names can repeat across a tenant: the id tells them apart
    picker: ['name', 'id'],
    identifier: IDENTIFIER,
    resource: 'organization',
  },
  vehicle: {
    operation: 'listVehicles',
    script: ['id', 'name', 'license_plate', 'make', 'model', 'year', 'fleet_id'],
    person: ['name', 'license_plate', 'make', 'model', 'year'],
    picker: ['name', 'license_plate', 'make', 'model', 'year'],
    identifier: IDENTIFIER,
    resource: 'vehicle',
  },
  journey: {
    operation: 'listJourneys',
    script: ['id', 'hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds', 'vehicle_id'],
    person: ['hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds'],
    identifier: role('hardware-id'),
    resource: 'journey',
  },
  deviceMedia: {
    operation: 'listDeviceMedia',
    script: ['id', 'hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at', 'event_id'],
    person: ['hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at'],
    picker: ['file_name', 'recorded_at', 'mime_type', 'size_bytes'],
    identifier: IDENTIFIER,
    resource: 'media',
    oneDevice: true,
  },
  deviceEvent: {
    operation: 'listDeviceEvents',
    script: ['event_id', 'triggered_at', 'event_types', 'is_accident', 'is_important'],
    person: ['triggered_at', 'event_types', 'is_accident', 'is_important'],
    identifier: IDENTIFIER,
    resource: 'event',
    oneDevice: true,
  },
  webhookConfig: {
    operation: 'getWebhookConfig',
    script: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
    person: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
  },
} as const satisfies Record<string, ResourceView>;

/**
 * The fields a document declares for the records of an operation, dotted for nested members; undefined when the
 * document does not describe them. This one reads the document bundled with fleetctl.
 */
export type DeclaredFields = (operation: OperationId) => Promise<ReadonlySet<string> | undefined>;

export const bundledDeclaredFields: DeclaredFields = async (operation) => {
  const schema = (RESPONSE_RECORDS as Record<string, keyof typeof SCHEMA_FIELDS>)[operation];
  return schema ? new Set(Object.keys(SCHEMA_FIELDS[schema])) : undefined;
};


/**
 * Whether a field of an operation's records holds times, as a document declares it: true for a member declared
 * `format: date-time` (however its nullability is written: the document is read composed), false for a member
 * declared as anything else, undefined for one it does not declare (the records' values then decide). --sort orders
 * a time by the instant it names, and a member declared as text by its text even when its values read as times.
 * Only a document the service serves says so: the bundled one describes the sandbox, and its guess of a member's
 * type must not re-order a service's records (with none served, the values decide, as for the report time).
 */
export type DeclaredTimes = (operation: OperationId) => Promise<(field: string) => boolean | undefined>;

/** The rule above over a document's fields and their kinds (undefined: it describes no records for the operation). */
export function timeByDeclaredKinds(kinds: Readonly<Record<string, string>> | undefined): (field: string) => boolean | undefined {
  return (field) => (kinds && Object.hasOwn(kinds, field) ? kinds[field] === 'date-time' : undefined);
}

