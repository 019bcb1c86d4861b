import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES, validateEnvelope } from '../../src/webhooks/cloudevents.js';
import { startReceiver } from '../../src/webhooks/receiver.js';
import type { ReceivedDelivery } from '../../src/webhooks/receiver.js';
import { deliveryHeaders, postDelivery, triggerSampleEvent } from '../../src/webhooks/send.js';
import { freePort, startRecordingServer } from './http-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

describe('deliveryHeaders', () => {
  it('are the spec delivery headers', () => {
    expect(deliveryHeaders({ key: 'k', attempt: 3, idempotencyKey: 'i', traceparent: 't' })).toEqual({
      'content-type': 'application/cloudevents+json', 'user-agent': 'fleet-webhooks/1.0', 'x-webhook-key': 'k',
      'x-delivery-attempt': '3', 'idempotency-key': 'i', traceparent: 't',
    });
  });
});

describe('postDelivery', () => {
  it('reports the status, Retry-After and answer; does not follow redirects', async () => {
    const s = await startRecordingServer((_r, res, i) =>
      i === 0 ? res.writeHead(302, { location: '/elsewhere' }).end() : res.writeHead(503, { 'retry-after': '4' }).end('busy'));
    cleanups.push(() => s.close());
    expect(await postDelivery(s.url, '{}', {}, { timeoutMs: 1000 })).toEqual({ status: 302, retryAfter: undefined, body: '' });
    expect(await postDelivery(s.url, '{}', {}, { timeoutMs: 1000 })).toEqual({ status: 503, retryAfter: '4', body: 'busy' });
    expect(s.requests).toHaveLength(2);
  });
  it('reports connection errors and timeouts without throwing', async () => {
    expect(await postDelivery(`http://127.0.0.1:${await freePort()}/`, '{}', {}, { timeoutMs: 1000 }))
      .toEqual({ error: 'ECONNREFUSED', timedOut: false });
    const silent = await startRecordingServer(() => undefined);
    cleanups.push(() => silent.close());
    expect(await postDelivery(silent.url, '{}', {}, { timeoutMs: 50 })).toEqual({ error: 'timed out after 50 ms', timedOut: true });
  });
  it('a 2xx acknowledges even when its body never ends or is huge (spec Delivery rule 1): the status counts, the body is cut', async () => {
    const endless = await startRecordingServer((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('ok'); // and never ends
    });
    cleanups.push(() => endless.close());
    const started = Date.now();
    expect(await postDelivery(endless.url, '{}', {}, { timeoutMs: 300 })).toEqual({ status: 200, retryAfter: undefined, body: 'ok' });
    expect(Date.now() - started).toBeLessThan(2000);
    const huge = await startRecordingServer((_r, res) => res.writeHead(202).end('x'.repeat(5 * 1024 * 1024)));
    cleanups.push(() => huge.close());
    expect(await postDelivery(huge.url, '{}', {}, { timeoutMs: 2000, maxAnswerBytes: 10 })).toEqual({ status: 202, retryAfter: undefined, body: 'xxxxxxxxxx' });
  });
});

describe('triggerSampleEvent (webhook trigger)', () => {
  it.each(EVENT_TYPES)('sends a valid %s sample that a receiver accepts', async (type) => {
    const got: ReceivedDelivery[] = [];
    const r = await startReceiver({ key: 'sekret', onEvent: (d) => { got.push(d); } });
    cleanups.push(() => r.close());
    const result = await triggerSampleEvent(type, { to: `${r.url}/hook`, key: 'sekret', baseUrl: 'http://127.0.0.1:4010' });
    expect(result.outcome).toMatchObject({ status: 200 });
    expect(validateEnvelope(result.event).ok).toBe(true);
    expect(got).toHaveLength(1);
    expect(got[0]!.event).toEqual(result.event);
    expect(got[0]!.headers).toMatchObject({ 'x-webhook-key': 'sekret', 'x-delivery-attempt': '1', 'idempotency-key': result.headers['idempotency-key'] });
  });
  it('reports a refused key as the receiver answered it', async () => {
    const r = await startReceiver({ key: 'right' });
    cleanups.push(() => r.close());
    const result = await triggerSampleEvent('live.gps', { to: r.url, key: 'wrong', baseUrl: 'http://x.test' });
    expect(result.outcome).toMatchObject({ status: 401 });
  });
});
