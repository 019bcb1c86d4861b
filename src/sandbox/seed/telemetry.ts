// Per-device telemetry (events, media, journeys, last report, live position), derived on demand from
// (seed, device) and cached: a 100,000-device world starts without generating millions of records.
import { Prng, prngFor } from '../common/prng.js';
import { canonicalUuid } from '../../shared/uuid.js';
import { CITIES, EVENT_TYPES, STREETS } from '../common/catalog.js';
import { LiveStore } from '../store/live-store.js';
import type {
  DeviceRecord, DeviceTelemetry, EventRecord, JourneyRecord, LastReportedState, LivePosition, MediaRecord,
} from '../common/records.js';

const DAY_MS = 86_400_000;
export const TELEMETRY_WINDOW_MS = 30 * DAY_MS;

export function encodeEventId(hardwareId: string, eventUuid: string): string {
  return Buffer.from(`${hardwareId}~${eventUuid}`, 'utf8').toString('base64url');
}

/** The hardware id and event uuid inside an event id, or null when it is not one of ours. */
export function decodeEventId(eventId: string): { hardwareId: string; eventUuid: string } | null {
  if (!/^[A-Za-z0-9_-]+$/.test(eventId)) return null;
  const text = Buffer.from(eventId, 'base64url').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('base64url') !== eventId) return null; // not canonical
  const at = text.lastIndexOf('~');
  if (at <= 0) return null;
  const eventUuid = text.slice(at + 1);
  // only the form the sandbox writes: an event id is canonical or it is not one of ours
  if (canonicalUuid(eventUuid) !== eventUuid) return null;
  return { hardwareId: text.slice(0, at), eventUuid };
}

/** Media ids carry the device's seq in their last 12 hex digits so a download resolves in O(1). */
export function mediaDeviceSeq(mediaId: string): number | null {
  const m = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{8})[0-9a-f]{4}$/.exec(mediaId);
  return m ? parseInt(m[1]!, 16) : null;
}

function mediaId(rng: Prng, deviceSeq: number, index: number): string {
  const base = rng.uuid();
  return `${base.slice(0, 24)}${deviceSeq.toString(16).padStart(8, '0')}${index.toString(16).padStart(4, '0')}`;
}

export function deriveTelemetry(seed: number, device: DeviceRecord, anchorMs: number): DeviceTelemetry {
  const empty: DeviceTelemetry = { events: [], media: [], journeys: [], lastReported: null, livePosition: null };
  const seenAt = device.seedLastSeenAt;
  if (seenAt === null) return empty;
  const rng = prngFor(seed, 'telemetry', device.seq);
  const reportedMs = Date.parse(seenAt);
  const windowStart = anchorMs - TELEMETRY_WINDOW_MS;
  const drawn = { lat: 48 + rng.next() * 6, lon: 2 + rng.next() * 12 };
  const fixed = device.fixedPosition;
  const home = fixed ? { lat: fixed.latitude, lon: fixed.longitude } : drawn;
  const at = () => Math.floor(windowStart + rng.next() * (reportedMs - windowStart));
  const near = nearTo(rng, home.lat, home.lon);
  const events: EventRecord[] = [];
  const media: MediaRecord[] = [];
  const eventCount = rng.int(0, 6);
  for (let k = 0; k < eventCount; k++) {
    const event = makeEvent(rng, device, at(), near);
    if (rng.chance(0.5)) {
      const item = makeMedia(rng, device, media.length, event.triggeredMs, event.event_id, 1);
      media.push(item);
      event.media_ids.push(item.id);
      if (rng.chance(0.4)) {
        const still = makeMedia(rng, device, media.length, event.triggeredMs, event.event_id, 2);
        media.push(still);
        event.media_ids.push(still.id);
      }
    }
    events.push(event);
  }
  if (rng.chance(0.5)) media.push(makeMedia(rng, device, media.length, at(), null, 1));
  const journeys: JourneyRecord[] = [];
  const journeyCount = rng.int(0, 8);
  for (let k = 0; k < journeyCount; k++) journeys.push(makeJourney(rng, device, at(), near));
  const drawnPosition = near(0.2); // drawn either way, so what follows is drawn alike
  const position = fixed ? { latitude: fixed.latitude, longitude: fixed.longitude } : drawnPosition;
  const speed = rng.int(0, 95);
  return {
    events: events.sort((a, b) => b.triggeredMs - a.triggeredMs || (a.event_id < b.event_id ? -1 : 1)),
    media: media.sort((a, b) => b.recordedMs - a.recordedMs || (a.id < b.id ? -1 : 1)),
    journeys: journeys.sort((a, b) => b.startMs - a.startMs || (a.id < b.id ? -1 : 1)),
    lastReported: {
      hardware_id: device.hardware_id,
      reported_at: seenAt,
      ignition_on: speed > 0 || rng.chance(0.3),
      speed_kph: speed,
      odometer_km: rng.int(5_000, 400_000),
      battery_voltage: round(11.8 + rng.next() * 2.6, 2),
      ...position,
    },
    livePosition: device.hasLivePosition
      ? {
          hardware_id: device.hardware_id,
          ...position,
          heading: rng.int(0, 359),
          speed_kph: speed,
          recorded_at: seenAt,
          is_valid_gps: rng.chance(0.95),
        }
      : null,
  };
}

export type Near = (spread: number) => { latitude: number; longitude: number };

/** Positions drawn within `spread` degrees of (latitude, longitude), to six decimals. */
export const nearTo = (rng: Prng, latitude: number, longitude: number): Near => (spread) => ({
  latitude: round(latitude + (rng.next() - 0.5) * spread, 6),
  longitude: round(longitude + (rng.next() - 0.5) * spread, 6),
});

export function makeEvent(rng: Prng, device: DeviceRecord, triggeredMs: number, near: Near): EventRecord {
  const first = rng.chance(0.12) ? EVENT_TYPES[4]! : rng.pick(EVENT_TYPES); // collisions: a few more
  const kinds = [first];
  if (rng.chance(0.3)) {
    const second = rng.pick(EVENT_TYPES);
    if (second.type !== first.type) kinds.push(second);
  }
  const types = kinds.map((k) => k.type);
  const isAccident = types.includes('collision');
  const eventUuid = rng.uuid();
  return {
    event_id: encodeEventId(device.hardware_id, eventUuid),
    event_uuid: eventUuid,
    hardware_id: device.hardware_id,
    organization_id: device.seedOrganizationId,
    vehicle_id: device.seedVehicleId,
    fleet_id: device.seedFleetId,
    event_types: types,
    event_categories: [...new Set(kinds.map((k) => k.category))],
    triggered_at: new Date(triggeredMs).toISOString(),
    triggeredMs,
    is_accident: isAccident,
    is_important: isAccident || types.includes('speeding') || rng.chance(0.15),
    address: `${rng.int(1, 250)} ${rng.pick(STREETS)}, ${rng.pick(CITIES)}`,
    speed_kph: rng.int(0, 130),
    locations: [-10_000, 0, 10_000].map((offset) => ({
      ...near(0.05),
      recorded_at: new Date(triggeredMs + offset).toISOString(),
    })),
    media_ids: [],
  };
}

function makeMedia(
  rng: Prng, device: DeviceRecord, index: number, recordedMs: number, eventId: string | null, channel: number,
): MediaRecord {
  const video = channel === 1;
  const stamp = new Date(recordedMs).toISOString().replace(/[-:]/g, '').slice(0, 15);
  return {
    id: mediaId(rng, device.seq, index),
    hardware_id: device.hardware_id,
    organization_id: device.seedOrganizationId,
    event_id: eventId,
    file_name: `${device.hardware_id}_ch${channel}_${stamp}.${video ? 'mp4' : 'jpg'}`,
    mime_type: video ? 'video/mp4' : 'image/jpeg',
    channel,
    size_bytes: video ? rng.int(8_192, 65_536) : rng.int(2_048, 16_384),
    recorded_at: new Date(recordedMs).toISOString(),
    recordedMs,
  };
}

function makeJourney(rng: Prng, device: DeviceRecord, startMs: number, near: Near): JourneyRecord {
  const durationSeconds = rng.int(10, 180) * 60;
  const start = near(0.3);
  const end = near(0.3);
  return {
    id: rng.uuid(),
    hardware_id: device.hardware_id,
    organization_id: device.seedOrganizationId,
    vehicle_id: device.seedVehicleId,
    fleet_id: device.seedFleetId,
    start_utc: new Date(startMs).toISOString(),
    end_utc: new Date(startMs + durationSeconds * 1000).toISOString(),
    startMs,
    start_latitude: start.latitude,
    start_longitude: start.longitude,
    end_latitude: end.latitude,
    end_longitude: end.longitude,
    distance_meters: Math.round((durationSeconds / 3600) * rng.int(25, 80) * 1000),
    duration_seconds: durationSeconds,
  };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Derived telemetry per device seq, least recently used dropped beyond `capacity`, with what devices reported
 * since start-up (--telemetry-rate, emitted event.generic) on top.
 */
export class TelemetryCache {
  private readonly entries = new Map<number, DeviceTelemetry>();
  readonly live = new LiveStore();

  constructor(
    private readonly seed: number,
    private readonly anchorMs: number,
    private readonly capacity = 20_000,
  ) {}

  get(device: DeviceRecord): DeviceTelemetry {
    return this.live.merged(this.derived(device), device.seq);
  }

  /** What the seed says alone. */
  derived(device: DeviceRecord): DeviceTelemetry {
    const hit = this.entries.get(device.seq);
    if (hit) {
      this.entries.delete(device.seq);
      this.entries.set(device.seq, hit);
      return hit;
    }
    const made = deriveTelemetry(this.seed, device, this.anchorMs);
    this.entries.set(device.seq, made);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return made;
  }
}
