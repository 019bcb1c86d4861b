// Outbound deliveries as the second service sends them: CloudEvents 1.0 structured envelopes POSTed with
// X-Webhook-Key, X-Delivery-Attempt and Idempotency-Key. Payload properties are camelCase (spec) but named this
// service's own way where the spec leaves them open (journey coordinates are startLat/startLng, not ours).
import { randomUUID } from 'node:crypto';
import { request } from 'undici';

export type DeliveryType = 'live.gps' | 'journey.closed' | 'alarm.triggered' | 'event.generic' | 'media.ready';

const HW = 'TLM-00001';

/** A payload per type: the spec's listed properties where it names them, this service's names where it does not. */
export function samplePayload(type: DeliveryType, at = new Date()): Record<string, unknown> {
  const utc = at.toISOString();
  switch (type) {
    case 'live.gps':
      return { hardwareId: HW, latitude: 69.6492, longitude: 18.9553, heading: 270, speed: 48, utc, invalidGps: false, satellites: 9 };
    case 'journey.closed':
      return {
        journeyId: `jr-${randomUUID()}`, hardwareId: HW, startUtc: new Date(at.getTime() - 1_800_000).toISOString(), endUtc: utc,
        startLat: 69.6492, startLng: 18.9553, endLat: 69.68, endLng: 18.99, distanceMeters: 5120, durationSeconds: 1800,
      };
    case 'alarm.triggered':
      return {
        id: `al-${randomUUID()}`, hardwareId: HW, triggerOn: utc, alarmKey: 'panic_button',
        locations: [{ lat: 69.6492, lng: 18.9553, at: utc }], speedPoints: [{ at: utc, kmh: 0 }], headingPoints: [{ at: utc, deg: 90 }],
      };
    case 'event.generic':
      return {
        eventId: `ev-${randomUUID()}`, hardwareId: HW, triggerUtc: utc, eventTypes: ['hard_brake'], eventCategories: ['driving'], isAccident: false,
        locations: [{ lat: 69.6492, lng: 18.9553, at: utc }], address: { line: 'Storgata 10', city: 'Tromsø' }, vehicleId: '0000007e-5e2c-4d00-9a00-000000000001',
      };
    case 'media.ready':
      return { mediaId: 'md-00', hardwareId: HW, fileName: 'md-00.mp4', mimeType: 'video/mp4', channel: 'road', downloadUrl: 'https://media.second-service.test/md-00.mp4?sig=x', validUntil: utc };
  }
}

export interface DeliveryOptions {
  key: string;
  type: DeliveryType | string;
  data?: unknown;
  id?: string;
  attempt?: number;
  /** Base URL of the sending service, for `source`. */
  source?: string;
}

export interface DeliveryResult {
  status: number;
  body: string;
  envelope: Record<string, unknown>;
}

/** POSTs one structured-mode envelope to `url`, as the service would, and returns the receiver's answer. */
export async function deliverWebhook(url: string, opts: DeliveryOptions): Promise<DeliveryResult> {
  const id = opts.id ?? randomUUID();
  const data = opts.data ?? samplePayload(opts.type as DeliveryType);
  const envelope = {
    id,
    source: opts.source ?? '//second-service.test/telematics',
    type: opts.type,
    specversion: '1.0',
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: HW,
    data,
  };
  const answer = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/cloudevents+json; charset=utf-8',
      'x-webhook-key': opts.key,
      'x-delivery-attempt': String(opts.attempt ?? 1),
      'idempotency-key': `dlv-${id}`,
    },
    body: JSON.stringify(envelope),
  });
  return { status: answer.statusCode, body: await answer.body.text(), envelope };
}
