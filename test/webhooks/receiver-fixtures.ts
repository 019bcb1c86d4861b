// A receiver started for one test (closed when it ends), the deliveries it took and refused, and a POST of a
// delivery to it with the headers the service sends.
import { request } from 'undici';
import { onTestFinished } from 'vitest';
import { sampleEvent } from '../../src/webhooks/cloudevents.js';
import type { EventType } from '../../src/webhooks/cloudevents.js';
import { startReceiver } from '../../src/webhooks/receiver.js';
import type { ReceivedDelivery, ReceiverOptions, RejectedDelivery, RunningReceiver } from '../../src/webhooks/receiver.js';

export const KEY = 'whk_current_0123456789';

let seq = 0;
/** A valid envelope of the type, with a fresh id. */
export const event = (type: EventType = 'event.generic') =>
  sampleEvent(type, { baseUrl: 'http://127.0.0.1:4010', newId: () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}` });

export interface Harness {
  r: RunningReceiver;
  events: ReceivedDelivery[];
  rejects: RejectedDelivery[];
}

export async function receiver(opts: Partial<ReceiverOptions> = {}): Promise<Harness> {
  const events: ReceivedDelivery[] = [];
  const rejects: RejectedDelivery[] = [];
  const r = await startReceiver({ key: KEY, onEvent: (d) => { events.push(d); }, onReject: (x) => rejects.push(x), ...opts });
  onTestFinished(() => r.close());
  return { r, events, rejects };
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/cloudevents+json', 'x-webhook-key': KEY, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text, json: () => JSON.parse(text) as Record<string, unknown> };
}
