// API representations of the records: internal fields (seq, seed attribution, ms timestamps) removed.
import type {
  DeviceRecord, DriverRecord, EventRecord, FleetRecord, JourneyRecord, MediaRecord, OrganizationRecord, VehicleRecord,
} from '../common/records.js';
import type { SandboxApp } from '../app.js';

export const organizationView = (o: OrganizationRecord) => ({ id: o.id, name: o.name, parent_id: o.parent_id });

export const fleetView = (f: FleetRecord) => ({
  id: f.id, organization_id: f.organization_id, name: f.name, vehicle_count: f.vehicle_count, created_at: f.created_at,
});

export const vehicleView = (v: VehicleRecord) => ({
  id: v.id, organization_id: v.organization_id, fleet_id: v.fleet_id, name: v.name, vin: v.vin,
  license_plate: v.license_plate, make: v.make, model: v.model, year: v.year,
});

export const deviceView = (d: DeviceRecord) => ({
  id: d.id, hardware_id: d.hardware_id, organization_id: d.organization_id, fleet_id: d.fleet_id,
  vehicle_id: d.vehicle_id, name: d.name, model: d.model, firmware_version: d.firmware_version,
  capabilities: [...d.capabilities], last_seen_at: d.last_seen_at, created_at: d.created_at,
});

export const driverView = (d: DriverRecord) => ({
  id: d.id, organization_id: d.organization_id, fleet_id: d.fleet_id, first_name: d.first_name,
  last_name: d.last_name, email: d.email, phone: d.phone, license_number: d.license_number,
  employee_id: d.employee_id, status: d.status, created_at: d.created_at, updated_at: d.updated_at,
});

export const deviceEventSummaryView = (e: EventRecord) => ({
  event_id: e.event_id, hardware_id: e.hardware_id, event_types: e.event_types, triggered_at: e.triggered_at,
  is_accident: e.is_accident, is_important: e.is_important,
});

export const eventListItemView = (e: EventRecord) => ({
  event_id: e.event_id, hardware_id: e.hardware_id, vehicle_id: e.vehicle_id, fleet_id: e.fleet_id,
  event_types: e.event_types, event_categories: e.event_categories, triggered_at: e.triggered_at,
  is_accident: e.is_accident, is_important: e.is_important,
});

export const eventRecordView = (e: EventRecord) => ({
  ...eventListItemView(e),
  organization_id: e.organization_id, address: e.address, speed_kph: e.speed_kph, locations: e.locations,
  media_ids: e.media_ids,
});

export const journeyView = (j: JourneyRecord) => ({
  id: j.id, hardware_id: j.hardware_id, vehicle_id: j.vehicle_id, fleet_id: j.fleet_id, start_utc: j.start_utc,
  end_utc: j.end_utc, start_latitude: j.start_latitude, start_longitude: j.start_longitude,
  end_latitude: j.end_latitude, end_longitude: j.end_longitude, distance_meters: j.distance_meters,
  duration_seconds: j.duration_seconds,
});

/** A media item with a freshly signed download URL. */
export function mediaView(m: MediaRecord, app: SandboxApp) {
  const signed = app.media.sign(app.baseUrl(), m.id);
  return {
    id: m.id, hardware_id: m.hardware_id, event_id: m.event_id, file_name: m.file_name, mime_type: m.mime_type,
    channel: m.channel, size_bytes: m.size_bytes, recorded_at: m.recorded_at, download_url: signed.url,
    download_url_expires_at: signed.expiresAt,
  };
}
