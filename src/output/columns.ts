// What each resource shows, declared once: the columns a script reads and the columns a person reads. The spec
// leaves every record's fields unshown, so these names are preferences, not facts about the service: a column the
// records don't carry is left out and the records' own fields stand in (output/record-fields.ts).
import { RESPONSE_RECORDS, SCHEMA_FIELDS } from '../openapi/fields.gen.js';
import type { OperationId } from '../openapi/operation-types.js';

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
}

/** A view of rows fleetctl makes itself (no operation): the same columns for people and scripts. */
function rows(...columns: string[]): ResourceView {
  return { script: columns, person: columns };
}

export const VIEWS = {
  device: {
    operation: 'listDevices',
    script: ['id', 'hardware_id', 'name', 'model', 'fleet_id', 'vehicle_id', 'capabilities', 'last_seen_at'],
    person: ['hardware_id', 'name', 'model', 'capabilities', 'last_seen_at'],
  },
  fleet: {
    operation: 'listFleets',
    script: ['id', 'name', 'organization_id', 'vehicle_count', 'created_at'],
    person: ['id', 'name', 'vehicle_count'],
  },
  driver: {
    operation: 'listDrivers',
    script: ['id', 'first_name', 'last_name', 'status', 'fleet_id', 'email', 'employee_id'],
    person: ['id', 'first_name', 'last_name', 'status', 'employee_id'],
  },
  event: {
    operation: 'searchEvents',
    script: ['event_id', 'hardware_id', 'triggered_at', 'event_types', 'is_accident', 'is_important', 'vehicle_id'],
    person: ['triggered_at', 'hardware_id', 'event_types', 'is_accident', 'is_important'],
  },
  organization: {
    operation: 'listOrganizations',
    script: ['id', 'name', 'parent_id'],
    person: ['id', 'name'],
  },
  vehicle: {
    operation: 'listVehicles',
    script: ['id', 'name', 'license_plate', 'make', 'model', 'year', 'fleet_id'],
    person: ['name', 'license_plate', 'make', 'model', 'year'],
  },
  journey: {
    operation: 'listJourneys',
    script: ['id', 'hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds', 'vehicle_id'],
    person: ['hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds'],
  },
  deviceMedia: {
    operation: 'listDeviceMedia',
    script: ['id', 'hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at', 'event_id'],
    person: ['hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at'],
  },
  deviceEvent: {
    operation: 'listDeviceEvents',
    script: ['event_id', 'triggered_at', 'event_types', 'is_accident', 'is_important'],
    person: ['triggered_at', 'event_types', 'is_accident', 'is_important'],
  },
  webhookConfig: {
    operation: 'getWebhookConfig',
    script: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
    person: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
  },
  webhookChange: rows('op', 'type', 'before', 'after'),
  deviceCommandResult: rows('hardware_id', 'status', 'http_status', 'code', 'idempotency_key'),
  /** With --wait: whether each device reported again, and after how long. */
  deviceCommandWaitResult: rows('hardware_id', 'status', 'wait', 'back_after_s', 'http_status', 'code', 'idempotency_key'),
  webhookEmitted: rows('id', 'type', 'hardware_id', 'organization_id', 'destinations'),
  sandboxRequest: rows('id', 'at', 'method', 'path', 'operation_id', 'client_id', 'status', 'outcome', 'duration_ms', 'fault'),
  sandboxFault: rows('id', 'match', 'respond', 'probability', 'times', 'hits'),
} as const satisfies Record<string, ResourceView>;

export type ViewName = keyof typeof VIEWS;

export function viewOf(name: ViewName): ResourceView {
  return VIEWS[name];
}

/** A view of a single operation's answer (a get, a create): every field the record carries is shown. */
export function operationView(operation: OperationId): ResourceView {
  return { operation, script: [], person: [] };
}

/**
 * The fields a document declares for the records of an operation, dotted for nested members; undefined when the
 * document does not describe them. This one reads the document bundled with fleetctl.
 */
export type DeclaredFields = (operation: OperationId) => Promise<ReadonlySet<string> | undefined>;

export const bundledDeclaredFields: DeclaredFields = async (operation) => {
  const schema = (RESPONSE_RECORDS as Record<string, keyof typeof SCHEMA_FIELDS>)[operation];
  return schema ? new Set(Object.keys(SCHEMA_FIELDS[schema])) : undefined;
};
