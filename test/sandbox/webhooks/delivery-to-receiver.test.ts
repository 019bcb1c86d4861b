// The delivery engine and the receiver together, over real HTTP on loopback (allowPrivate, as with
// `fleetctl sandbox --allow-private-webhooks` and `fleetctl webhook listen`).
import { CloudEvent } from 'cloudevents';
import validateCloudEventSchema from 'cloudevents/dist/schema/v1.js';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES, sampleEvent } from '../../../src/webhooks/cloudevents.js';
import { DeliveryEngine } from '../../../src/sandbox/webhooks/delivery-engine.js';
import { startReceiver } from '../../../src/webhooks/receiver.js';
import type { ReceivedDelivery, RunningReceiver } from '../../../src/webhooks/receiver.js';
import { freePort, waitFor } from '../../webhooks/http-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

let seq = 0;
const newId = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

async function listen(port: number, key: string, got: ReceivedDelivery[], previousKey?: string): Promise<RunningReceiver> {
  const r = await startReceiver({ port, key, previousKey, onEvent: (d) => { got.push(d); } });
  cleanups.push(() => r.close());
  return r;
}

describe('delivery engine → receiver', () => {
  it('delivers every type exactly once, valid for the CloudEvents SDK, across a listener outage', async () => {
    const port = await freePort();
    const got: ReceivedDelivery[] = [];
    const engine = new DeliveryEngine({ allowPrivate: true, retry: { baseDelayMs: 10, maxDelayMs: 40 } });
    cleanups.push(async () => void (await engine.close()));
    const url = `http://127.0.0.1:${port}/webhooks`;
    const destination = { url, key: () => 'org-key' };
    let listener = await listen(port, 'org-key', got);
    const first = EVENT_TYPES.map((t) => sampleEvent(t, { baseUrl: 'http://127.0.0.1:4010', newId }));
    first.forEach((ev) => engine.enqueue(ev, destination));
    await engine.whenIdle();

    await listener.close();
    const second = EVENT_TYPES.map((t) => sampleEvent(t, { baseUrl: 'http://127.0.0.1:4010', newId, hardwareId: 'HW-000002' }));
    second.forEach((ev) => engine.enqueue(ev, destination));
    await waitFor(() => engine.deliveries().some((d) => d.outcome === 'retrying'));
    listener = await listen(port, 'org-key', got);
    await engine.whenIdle();

    const sent = [...first, ...second];
    expect(got.map((d) => d.event.id)).toEqual(sent.map((e) => e.id));
    for (const d of got) {
      expect(validateCloudEventSchema(JSON.parse(d.body))).toBe(true);
      expect(new CloudEvent(JSON.parse(d.body) as never, true).validate()).toBe(true);
      expect(d.headers['x-webhook-key']).toBe('org-key');
      expect(d.headers['content-type']).toBe('application/cloudevents+json');
      expect(d.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    }
    expect(got.filter((d) => (d.attempt ?? 0) > 1).map((d) => d.event.id)).toContain(second[0]!.id);
    expect(engine.deliveries().filter((d) => d.outcome === 'delivered')).toHaveLength(sent.length);
    expect(engine.deliveries().some((d) => d.outcome === 'failed' || d.outcome === 'blocked')).toBe(false);
  });

  it('accepts every delivery across a key rotation', async () => {
    const got: ReceivedDelivery[] = [];
    const listener = await listen(0, 'key-1', got);
    let senderKey = 'key-1';
    const engine = new DeliveryEngine({ allowPrivate: true, retry: { baseDelayMs: 10, maxDelayMs: 40 } });
    cleanups.push(async () => void (await engine.close()));
    const destination = { url: `${listener.url}/hook`, key: () => senderKey };
    const send = async (n: number) => {
      for (let i = 0; i < n; i++) engine.enqueue(sampleEvent('alarm.triggered', { baseUrl: 'http://x.test', newId }), destination);
      await engine.whenIdle();
    };
    await send(3);
    listener.setKey('key-2'); // the subscriber learns the new key first...
    await send(3); // ...while the producer still sends the old one during propagation
    senderKey = 'key-2';
    await send(3);
    expect(got.map((d) => d.keyUsed)).toEqual(['current', 'current', 'current', 'previous', 'previous', 'previous', 'current', 'current', 'current']);
    expect(engine.deliveries().map((d) => d.outcome)).toEqual(Array(9).fill('delivered'));
  });
});
