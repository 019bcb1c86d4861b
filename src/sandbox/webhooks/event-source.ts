// Webhook events of the five types, made from the seeded fleet: real hardware ids, fleets and vehicles,
// the seeded events, journeys and media items (with download URLs signed by the sandbox's media signer).
//
// journey.closed and media.ready announce seeded records, walked device by device, so each envelope id can be
// looked up through the API. Once every seeded record of a type has been announced the walk starts again and
// ids repeat (receivers de-duplicate them; start the sandbox with more --devices for a longer walk).
// event.generic, live.gps and alarm.triggered are new occurrences stamped with the current time: an event
// recorded on the device (listed by GET /v1/events and /v1/devices/{hw}/events from then on, so a follower
// sees it), a fix from the device's live position, an alarm with a fresh id.
import { randomUUID } from 'node:crypto';
import { prngFor, type Prng } from '../common/prng.js';
import { makeEvent, nearTo, round } from '../seed/telemetry.js';
import type { DeviceRecord, EventRecord, JourneyRecord, MediaRecord } from '../common/records.js';
import type { SandboxApp } from '../app.js';
import type { EventDataByType, EventType } from '../../webhooks/index.js';

/** One occurrence to announce: its payload and the organization whose subscribers hear of it. */
export interface SourceEvent<T extends EventType = EventType> {
  type: T;
  organizationId: string;
  hardwareId: string;
  data: EventDataByType[T];
  /** Device wire time when the payload carries none (media.ready). */
  time?: string;
}

/** An occurrence of `type` on a device (or a record of one), heard of by its organization's subscribers. */
const occurrence = <T extends EventType>(type: T, of: { organization_id: string; hardware_id: string }, data: EventDataByType[T]): SourceEvent<T> => ({
  type, organizationId: of.organization_id, hardwareId: of.hardware_id, data,
});

/** Limits the devices events come from (an organization and its descendants); null: any device. */
export type DeviceFilter = ((organizationId: string) => boolean) | null;

const ALARM_KEYS = ['harsh_braking', 'harsh_acceleration', 'harsh_cornering', 'overspeed', 'panic_button', 'tamper', 'low_battery'];

interface WalkCursor {
  device: number;
  record: number;
}

export class FleetEventSource {
  private readonly cursors = new Map<EventType, WalkCursor>();
  private readonly lastFixMs = new Map<string, number>();
  private readonly rng: Prng;

  constructor(private readonly app: SandboxApp) {
    this.rng = prngFor(app.world.seed, 'webhook-events');
  }

  /** The next occurrence of `type` from a device the filter admits, or null when the fleet has none. */
  next<T extends EventType>(type: T, filter: DeviceFilter = null): SourceEvent<T> | null {
    return this.make(type, filter) as SourceEvent<T> | null;
  }

  private make(type: EventType, filter: DeviceFilter): SourceEvent | null {
    switch (type) {
      case 'event.generic':
        return this.onDevice(type, filter, (d) => this.newEvent(d));
      case 'journey.closed':
        return this.walk(type, filter, (t) => t.journeys, (r: JourneyRecord) => journeyClosed(r));
      case 'media.ready':
        return this.walk(type, filter, (t) => t.media, (r: MediaRecord) => this.mediaReady(r));
      case 'live.gps':
        return this.onDevice(type, filter, (d) => this.liveGps(d));
      case 'alarm.triggered':
        return this.onDevice(type, filter, (d) => this.alarm(d));
    }
  }

  /** Walks the seeded records of one kind, device by device, resuming where the last call stopped. */
  private walk<R extends { organization_id: string }>(
    type: EventType,
    filter: DeviceFilter,
    recordsOf: (t: ReturnType<SandboxApp['world']['telemetry']['get']>) => R[],
    toEvent: (record: R) => SourceEvent,
  ): SourceEvent | null {
    const devices = this.app.world.devices;
    const cursor = this.cursors.get(type) ?? { device: 0, record: 0 };
    this.cursors.set(type, cursor);
    for (let visited = 0; visited <= devices.size && devices.size > 0; ) {
      const device = devices.at(cursor.device % devices.size);
      // oldest first within a device, as they happened
      const records = recordsOf(this.app.world.telemetry.get(device)).slice().reverse();
      while (cursor.record < records.length) {
        const record = records[cursor.record++]!;
        if (!filter || filter(record.organization_id)) return toEvent(record);
      }
      cursor.device = (cursor.device + 1) % devices.size;
      cursor.record = 0;
      visited++;
    }
    return null;
  }

  /** A new occurrence on the next device (round robin) that can produce it. */
  private onDevice(type: EventType, filter: DeviceFilter, make: (d: DeviceRecord) => SourceEvent | null): SourceEvent | null {
    const devices = this.app.world.devices;
    const cursor = this.cursors.get(type) ?? { device: 0, record: 0 };
    this.cursors.set(type, cursor);
    for (let visited = 0; visited < devices.size; visited++) {
      const device = devices.at(cursor.device % devices.size);
      cursor.device = (cursor.device + 1) % devices.size;
      if (filter && !filter(device.organization_id)) continue;
      const made = make(device);
      if (made) return made;
    }
    return null;
  }

  /** An event on a device that has reported, now, near where it last reported; recorded in its telemetry. */
  private newEvent(device: DeviceRecord): SourceEvent<'event.generic'> | null {
    const state = this.app.world.telemetry.get(device).lastReported;
    if (!state) return null;
    const event = makeEvent(this.rng, device, this.app.now().getTime(), nearTo(this.rng, state.latitude, state.longitude));
    this.app.world.telemetry.live.addEvent(device.seq, event);
    return eventGeneric(event);
  }

  /** A fix near the device's live position, now; ids are `<hardwareId>~<utc>`, so times never repeat per device. */
  private liveGps(device: DeviceRecord): SourceEvent<'live.gps'> | null {
    const position = this.app.world.telemetry.get(device).livePosition;
    if (!position) return null;
    const nowMs = Math.max(this.app.now().getTime(), (this.lastFixMs.get(device.hardware_id) ?? 0) + 1);
    this.lastFixMs.set(device.hardware_id, nowMs);
    const rng = this.rng;
    return occurrence('live.gps', device, {
      hardwareId: device.hardware_id,
      ...nearTo(rng, position.latitude, position.longitude)(0.002),
      heading: rng.int(0, 359),
      speed: rng.int(0, 110),
      utc: new Date(nowMs).toISOString(),
      invalidGps: !position.is_valid_gps,
    });
  }

  /** An alarm raised now, on a device that has reported (its last reported place). */
  private alarm(device: DeviceRecord): SourceEvent<'alarm.triggered'> | null {
    const state = this.app.world.telemetry.get(device).lastReported;
    if (!state) return null;
    const rng = this.rng;
    const nowMs = this.app.now().getTime();
    const at = (secondsAgo: number) => new Date(nowMs - secondsAgo * 1000).toISOString();
    const offsets = [4, 2, 0];
    let heading = rng.int(0, 359);
    return occurrence('alarm.triggered', device, {
      id: randomUUID(),
      hardwareId: device.hardware_id,
      triggerOn: at(0),
      alarmKey: rng.pick(ALARM_KEYS),
      locations: offsets.map((s, i) => ({
        latitude: round(state.latitude + i * 0.0002, 6), longitude: round(state.longitude + i * 0.0003, 6), utc: at(s),
      })),
      speedPoints: offsets.map((s) => ({ speed: rng.int(0, 120), utc: at(s) })),
      headingPoints: offsets.map((s) => ({ heading: (heading = (heading + rng.int(0, 20)) % 360), utc: at(s) })),
    });
  }

  private mediaReady(item: MediaRecord): SourceEvent<'media.ready'> {
    const data = {
      mediaId: item.id,
      hardwareId: item.hardware_id,
      fileName: item.file_name,
      mimeType: item.mime_type,
      channel: item.channel,
      downloadUrl: this.app.media.sign(this.app.baseUrl(), item.id).url,
    };
    return { ...occurrence('media.ready', item, data), time: item.recorded_at };
  }
}

export function eventGeneric(r: EventRecord): SourceEvent<'event.generic'> {
  return occurrence('event.generic', r, {
    eventId: r.event_id,
    hardwareId: r.hardware_id,
    triggerUtc: r.triggered_at,
    eventTypes: [...r.event_types],
    eventCategories: [...r.event_categories],
    isAccident: r.is_accident,
    locations: r.locations.map((l) => ({ latitude: l.latitude, longitude: l.longitude, utc: l.recorded_at })),
    address: r.address,
    vehicleId: r.vehicle_id,
  });
}

function journeyClosed(r: JourneyRecord): SourceEvent<'journey.closed'> {
  return occurrence('journey.closed', r, {
    journeyId: r.id,
    hardwareId: r.hardware_id,
    startUtc: r.start_utc,
    endUtc: r.end_utc,
    startLatitude: r.start_latitude,
    startLongitude: r.start_longitude,
    endLatitude: r.end_latitude,
    endLongitude: r.end_longitude,
    distanceMeters: r.distance_meters,
    durationSeconds: r.duration_seconds,
  });
}
