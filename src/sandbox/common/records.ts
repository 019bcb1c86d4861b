// The sandbox's records. API fields are snake_case as the document names them; fields the API never
// shows (seq, seed* ...) are internal and stripped by the views in src/sandbox/routes/.
import type { Schema } from '../../openapi/operation-types.js';

export type Capability = Schema<'DeviceCapability'>;
export type OrganizationRecord = Schema<'Organization'>;

export interface FleetRecord extends Schema<'Fleet'> {
  seq: number;
}

export interface VehicleRecord extends Schema<'Vehicle'> {
  seq: number;
}

export interface DeviceRecord extends Schema<'Device'> {
  seq: number;
  /** Where the seed put the device: telemetry (events, journeys) stays attributed there. */
  seedOrganizationId: string;
  seedFleetId: string;
  seedVehicleId: string | null;
  /**
   * When the world had the device last report (null: never): its telemetry is derived from this, so what it
   * reported since (a return after a reboot) adds to its history without redrawing it.
   */
  seedLastSeenAt: string | null;
  /** Whether the device has a live GPS position (only meaningful when it has reported). */
  hasLivePosition: boolean;
  /** Where a scenario put the device; null: where the seed's draws put it. */
  fixedPosition: { latitude: number; longitude: number } | null;
}

export type DriverStatus = Schema<'DriverStatus'>;

export interface DriverRecord extends Schema<'Driver'> {
  seq: number;
}

/** The sandbox always knows an event's address and speed, which the document allows to be null. */
export interface EventRecord extends Schema<'Event'> {
  event_uuid: string;
  triggeredMs: number;
  address: string;
  speed_kph: number;
}

/** The download URL is signed when a list is answered, not stored. */
export interface MediaRecord extends Omit<Schema<'DeviceMedia'>, 'download_url' | 'download_url_expires_at'> {
  organization_id: string;
  recordedMs: number;
}

export interface JourneyRecord extends Schema<'Journey'> {
  organization_id: string;
  startMs: number;
}

export type LastReportedState = Schema<'DeviceLastReported'>;
export type LivePosition = Schema<'DeviceLastPosition'>;
/** What a device reported: derived from the seed, with what it reported live on top (store/live-store.ts). */
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
