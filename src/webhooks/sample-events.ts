// Plausible payloads of each event type, for sampleEvent() (`fleetctl webhook trigger`) and tests.
import type { EventDataByType, EventType } from './event-payloads.js';

export interface SampleEventOptions {
  /** The API's {base_url}, used for source and dataschema. */
  baseUrl: string;
  hardwareId?: string;
  now?: () => Date;
  /** Source of fresh ids; each call yields a new event id so a receiver does not de-duplicate it. */
  newId?: () => string;
}

const SAMPLE_HARDWARE_ID = 'HW-000001';

export function sampleData<T extends EventType>(type: T, opts: SampleEventOptions, now: Date, newId: () => string): EventDataByType[T] {
  return samplePayload(type, opts.hardwareId ?? SAMPLE_HARDWARE_ID, opts.baseUrl, now, newId) as EventDataByType[T];
}

function samplePayload(type: EventType, hw: string, baseUrl: string, now: Date, newId: () => string): EventDataByType[EventType] {
  const at = (secondsAgo: number): string => new Date(now.getTime() - secondsAgo * 1000).toISOString();
  const where = { latitude: 52.3702, longitude: 4.8952 };
  switch (type) {
    case 'live.gps':
      return { hardwareId: hw, ...where, heading: 87.5, speed: 42.3, utc: at(0), invalidGps: false };
    case 'journey.closed':
      return {
        journeyId: newId(), hardwareId: hw, startUtc: at(1800), endUtc: at(0),
        startLatitude: 52.3702, startLongitude: 4.8952, endLatitude: 52.0907, endLongitude: 5.1214,
        distanceMeters: 45210, durationSeconds: 1800,
      };
    case 'alarm.triggered':
      return {
        id: newId(), hardwareId: hw, triggerOn: at(0), alarmKey: 'harsh_braking',
        locations: [{ ...where, utc: at(2) }, { latitude: 52.3704, longitude: 4.8958, utc: at(0) }],
        speedPoints: [{ speed: 61.2, utc: at(2) }, { speed: 18.4, utc: at(0) }],
        headingPoints: [{ heading: 90, utc: at(2) }, { heading: 92.5, utc: at(0) }],
      };
    case 'event.generic':
      // spec: the event id is the base64url of the hardware id and the event id joined by a separator
      return {
        eventId: Buffer.from(`${hw}~${newId()}`, 'utf8').toString('base64url'), hardwareId: hw, triggerUtc: at(0),
        eventTypes: ['harsh_braking'], eventCategories: ['driving'], isAccident: false,
        locations: [{ ...where, utc: at(0) }], address: 'Dam 1, 1012 JS Amsterdam, Netherlands', vehicleId: newId(),
      };
    case 'media.ready': {
      const mediaId = newId();
      return {
        mediaId, hardwareId: hw, fileName: `${mediaId}.mp4`, mimeType: 'video/mp4', channel: 1,
        downloadUrl: `${baseUrl.replace(/\/+$/, '')}/_sandbox/media/${mediaId}?expires=${Math.floor(now.getTime() / 1000) + 3600}&signature=sample`,
      };
    }
  }
}
