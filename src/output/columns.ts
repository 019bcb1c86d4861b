// Default table columns of each resource, declared once; --columns picks others.
export const COLUMNS = {
  device: ['id', 'hardware_id', 'name', 'model', 'fleet_id', 'vehicle_id', 'capabilities', 'last_seen_at'],
  fleet: ['id', 'name', 'organization_id', 'vehicle_count', 'created_at'],
  driver: ['id', 'first_name', 'last_name', 'status', 'fleet_id', 'email', 'employee_id'],
  event: ['event_id', 'hardware_id', 'triggered_at', 'event_types', 'is_accident', 'is_important', 'vehicle_id'],
  organization: ['id', 'name', 'parent_id'],
  vehicle: ['id', 'name', 'license_plate', 'make', 'model', 'year', 'fleet_id'],
  journey: ['id', 'hardware_id', 'start_utc', 'end_utc', 'distance_meters', 'duration_seconds', 'vehicle_id'],
  deviceMedia: ['id', 'hardware_id', 'file_name', 'mime_type', 'channel', 'size_bytes', 'recorded_at', 'event_id'],
  webhookConfig: ['organization_id', 'is_enabled', 'topics', 'auth_key_hint', 'etag', 'created_at', 'updated_at'],
  webhookChange: ['op', 'type', 'before', 'after'],
  deviceEvent: ['event_id', 'triggered_at', 'event_types', 'is_accident', 'is_important'],
  deviceCommandResult: ['hardware_id', 'status', 'http_status', 'code', 'idempotency_key'],
  webhookEmitted: ['id', 'type', 'hardware_id', 'organization_id', 'destinations'],
  sandboxRequest: ['id', 'at', 'method', 'path', 'operation_id', 'client_id', 'status', 'duration_ms', 'fault'],
  sandboxFault: ['id', 'match', 'respond', 'probability', 'times', 'hits'],
} as const satisfies Record<string, readonly string[]>;

export function columnsOf(resource: keyof typeof COLUMNS): string[] {
  return [...COLUMNS[resource]];
}
