// The sandbox's records. API fields are snake_case as the document names them; fields the API never
// shows (seq, seed* ...) are internal and stripped by the views in src/sandbox/routes/.

export type Capability = 'reboot' | 'wake_up';

export interface OrganizationRecord {
  id: string;
  name: string;
  parent_id: string | null;
}

export interface FleetRecord {
  seq: number;
  id: string;
  organization_id: string;
  name: string;
  vehicle_count: number;
  created_at: string;
}

export interface VehicleRecord {
  seq: number;
  id: string;
  organization_id: string;
  fleet_id: string;
  name: string;
  vin: string;
  license_plate: string;
  make: string;
  model: string;
  year: number;
}

export interface DeviceRecord {
  seq: number;
  id: string;
  hardware_id: string;
  organization_id: string;
  fleet_id: string;
  vehicle_id: string | null;
  name: string;
  model: string;
  firmware_version: string;
  capabilities: Capability[];
  last_seen_at: string | null;
  created_at: string;
  /** Where the seed put the device: telemetry (events, journeys) stays attributed there. */
  seedOrganizationId: string;
  seedFleetId: string;
  seedVehicleId: string | null;
  /** Whether the device has a live GPS position (only meaningful when it has reported). */
  hasLivePosition: boolean;
  /** Where a scenario put the device; null: where the seed's draws put it. */
  fixedPosition: { latitude: number; longitude: number } | null;
}

export type DriverStatus = 'active' | 'inactive';

export interface DriverRecord {
  seq: number;
  id: string;
  organization_id: string;
  fleet_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  license_number: string | null;
  employee_id: string | null;
  status: DriverStatus;
  created_at: string;
  updated_at: string;
}

export interface EventRecord {
  event_id: string;
  event_uuid: string;
  hardware_id: string;
  organization_id: string;
  vehicle_id: string | null;
  fleet_id: string;
  event_types: string[];
  event_categories: string[];
  triggered_at: string;
  triggeredMs: number;
  is_accident: boolean;
  is_important: boolean;
  address: string;
  speed_kph: number;
  locations: { latitude: number; longitude: number; recorded_at: string }[];
  media_ids: string[];
}

export interface MediaRecord {
  id: string;
  hardware_id: string;
  organization_id: string;
  event_id: string | null;
  file_name: string;
  mime_type: string;
  channel: number;
  size_bytes: number;
  recorded_at: string;
  recordedMs: number;
}

export interface JourneyRecord {
  id: string;
  hardware_id: string;
  organization_id: string;
  vehicle_id: string | null;
  fleet_id: string;
  start_utc: string;
  end_utc: string;
  startMs: number;
  start_latitude: number;
  start_longitude: number;
  end_latitude: number;
  end_longitude: number;
  distance_meters: number;
  duration_seconds: number;
}

export interface LastReportedState {
  hardware_id: string;
  reported_at: string;
  ignition_on: boolean;
  speed_kph: number;
  odometer_km: number;
  battery_voltage: number;
  latitude: number;
  longitude: number;
}

export interface LivePosition {
  hardware_id: string;
  latitude: number;
  longitude: number;
  heading: number;
  speed_kph: number;
  recorded_at: string;
  is_valid_gps: boolean;
}

/** What a device reported: derived from the seed, with what it reported live on top (telemetry/live-store.ts). */
export interface DeviceTelemetry {
  /** Newest first. */
  events: EventRecord[];
  /** Newest first. */
  media: MediaRecord[];
  /** Newest first. */
  journeys: JourneyRecord[];
  lastReported: LastReportedState | null;
  livePosition: LivePosition | null;
}
