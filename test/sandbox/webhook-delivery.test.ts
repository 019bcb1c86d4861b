// Webhook delivery by the sandbox (issue 6): /_sandbox/emit, routing by configuration, propagation window,
// key rotation, delivery-time address checks and /_sandbox/deliveries. A real receiver (startReceiver).
import { afterEach, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';
import { EVENT_TYPES, TOPIC_TYPES, startReceiver, type ReceivedDelivery, type RunningReceiver } from '../../src/webhooks/index.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';

const FAST_RETRY = { baseDelayMs: 50, maxDelayMs: 200, maxRetries: 49, timeoutMs: 2_000 };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function sandbox(opts: SandboxOptions = {}): Promise<Harness> {
  const h = await startHarness({ allowPrivateWebhooks: true, propagationMs: 0, webhookRetry: FAST_RETRY, ...opts });
  cleanups.push(() => h.close());
  return h;
}

async function receiver(key: string, extra: { previousKey?: string; port?: number } = {}) {
  const got: ReceivedDelivery[] = [];
  const r: RunningReceiver = await startReceiver({ key, ...extra, onEvent: (d) => void got.push(d) });
  cleanups.push(() => r.close());
  return { r, got };
}

const rootOf = (h: Harness) => h.sb.clients.find((c) => c.client_id === 'sandbox-admin')!.organization_id;

/** Creates, points every topic at `url`, enables; returns the key. */
async function subscribe(h: Harness, url: string, org = rootOf(h)): Promise<string> {
  const base = `/v1/organizations/${org}/webhook-config`;
  const topics = TOPIC_TYPES.map((type) => ({ type, is_enabled: true, delivery: { url } }));
  const created = await h.call('PUT', base, { body: { is_enabled: false, topics } });
  expect([200, 201]).toContain(created.status);
  const enabled = await h.call('PATCH', base, { body: { is_enabled: true }, headers: { 'if-match': created.headers.get('etag')! } });
  expect(enabled.status).toBe(200);
  const rotated = await h.call('POST', `${base}/regenerate-auth-key`);
  return rotated.body.auth_key;
}

/** A subscription of every topic (root organization) to a receiver that knows the key. */
async function listening(h: Harness) {
  const probe = await receiver('placeholder');
  const key = await subscribe(h, `${probe.r.url}/hooks`);
  await probe.r.close();
  return { key, ...(await receiver(key, { port: probe.r.port })) };
}

const emit = (h: Harness, body: unknown) =>
  fetch(`${h.sb.baseUrl}/_sandbox/emit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => ({
    status: res.status, headers: res.headers, body: (await res.json()) as any, text: '',
  }));
const deliveries = async (h: Harness) => (await fetch(`${h.sb.baseUrl}/_sandbox/deliveries`)).json() as Promise<any[]>;

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('POST /_sandbox/emit', () => {
  it('400 problems for a bad type, count or field', async () => {
    const h = await sandbox();
    for (const body of [{ type: 'nope' }, { type: 'live.gps', count: 0 }, { type: 'live.gps', count: 1.5 }, { type: 'live.gps', count: 1001 }, { type: 'live.gps', extra: 1 }, {}]) {
      const res = await emit(h, body);
      expectProblem(res as never, 400, 'request.invalid_body');
    }
    expectProblem((await emit(h, { type: 'live.gps', organization_id: '00000000-0000-4000-8000-000000000000' })) as never, 400, 'request.invalid_body');
  });

  it('emits events of every type from the seeded fleet; with no subscription nothing is queued', async () => {
    const h = await sandbox();
    for (const type of EVENT_TYPES) {
      const res = await emit(h, { type, count: 3 });
      expect(res.status).toBe(202);
      expect(res.body.events).toHaveLength(3);
      for (const e of res.body.events) {
        expect(e).toMatchObject({ type, destinations: 0 });
        expect(e.hardware_id).toMatch(/^HW-\d{6}$/);
      }
      expect(new Set(res.body.events.map((e: any) => e.id)).size).toBe(3);
    }
    expect(await deliveries(h)).toEqual([]);
  });

  it('seeded records are real: the event resolves through the API and the media link downloads', async () => {
    const h = await sandbox();
    const { got } = await listening(h);
    const ev = (await emit(h, { type: 'event.generic', organization_id: rootOf(h) })).body.events[0];
    const media = (await emit(h, { type: 'media.ready', organization_id: rootOf(h) })).body.events[0];
    await until('both deliveries', () => got.length === 2);
    expect((await h.call('GET', `/v1/events/${ev.id}`)).status).toBe(200);
    const mediaEvent = got.find((d) => d.event.type === 'media.ready')!.event as any;
    expect(mediaEvent.id).toBe(media.id);
    const download = await fetch(mediaEvent.data.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(mediaEvent.data.mimeType);
  });
});

describe('emitted event.generic: an event that happens now, on the device', () => {
  it('is listed by GET /v1/devices/{hw}/events and /v1/events, newest first, and resolves by its id', async () => {
    const h = await sandbox();
    const before = Date.now() - 1000;
    const emitted = (await emit(h, { type: 'event.generic', count: 5, organization_id: rootOf(h) })).body.events as { id: string; hardware_id: string }[];
    expect(new Set(emitted.map((e) => e.hardware_id)).size).toBe(5);
    const window = new URLSearchParams({ date_from: new Date(before).toISOString(), date_to: new Date(Date.now() + 1000).toISOString() });
    for (const { id, hardware_id: hw } of emitted) {
      const own = await h.call('GET', `/v1/devices/${hw}/events?${window}`);
      expect(own.status, own.text).toBe(200);
      expect(own.body.data.map((e: any) => e.event_id)).toEqual([id]);
      const all = await h.call('GET', `/v1/devices/${hw}/events?limit=500`);
      expect(all.body.data[0].event_id).toBe(id);
      const times = all.body.data.map((e: any) => Date.parse(e.triggered_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const found = await h.call('GET', `/v1/events?hardware_id=${hw}&${window}`);
      expect(found.body.data.map((e: any) => e.event_id)).toEqual([id]);
      expect((await h.call('GET', `/v1/events/${id}`)).status).toBe(200);
    }
  });
});

describe('delivery', () => {
  it('delivers each event once per destination, with the key, and logs every attempt', async () => {
    const h = await sandbox();
    const { r, got, key } = await listening(h);
    const ids: string[] = [];
    for (const type of EVENT_TYPES) {
      const res = await emit(h, { type, count: 2, organization_id: rootOf(h) });
      for (const e of res.body.events) {
        expect(e.destinations).toBe(1);
        ids.push(e.id);
      }
    }
    await until('all deliveries', () => got.length === ids.length);
    expect(got.map((d) => d.event.id).sort()).toEqual([...ids].sort());
    for (const d of got) {
      expect(d.headers['x-webhook-key']).toBe(key);
      expect(d.headers['content-type']).toBe('application/cloudevents+json');
      expect(d.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    }
    const log = await deliveries(h);
    const delivered = log.filter((e) => e.outcome === 'delivered');
    expect(delivered.map((e) => e.event_id).sort()).toEqual([...ids].sort());
    expect(log[0]).toEqual(expect.objectContaining({ url: `${r.url}/hooks`, status: 200, reason: null }));
  });

  it('events of a child organization reach the root subscription; the unrelated organization\'s do not', async () => {
    const h = await sandbox();
    const { got } = await listening(h);
    const child = h.sb.organizations.find((o) => o.parent_id === rootOf(h))!;
    const unrelated = h.sb.organizations.find((o) => o.parent_id === null && o.id !== rootOf(h))!;
    const fromChild = (await emit(h, { type: 'alarm.triggered', organization_id: child.id })).body.events[0];
    const fromUnrelated = (await emit(h, { type: 'alarm.triggered', organization_id: unrelated.id })).body.events[0];
    expect(fromChild.destinations).toBe(1);
    expect(fromUnrelated.destinations).toBe(0);
    await until('the child event', () => got.length === 1);
    expect(got[0]!.event.id).toBe(fromChild.id);
  });

  it('retries while the receiver is down and delivers when it is back (Retry-After honoured)', async () => {
    const h = await sandbox();
    const probe = await receiver('x');
    const key = await subscribe(h, `${probe.r.url}/hooks`);
    await probe.r.close();
    const res = await emit(h, { type: 'live.gps', count: 3, organization_id: rootOf(h) });
    await until('a failed attempt', async () => (await deliveries(h)).some((e) => e.outcome === 'retrying'));
    const { got } = await receiver(key, { port: probe.r.port });
    await until('all three', () => got.length === 3);
    expect(got.map((d) => d.event.id)).toEqual(res.body.events.map((e: any) => e.id));
    expect(got[0]!.attempt).toBeGreaterThan(1);
  });

  it('configuration changes and key rotation take effect after the propagation window', async () => {
    const h = await sandbox({ propagationMs: 400 });
    const probe = await receiver('x');
    const org = rootOf(h);
    const base = `/v1/organizations/${org}/webhook-config`;
    const url = `${probe.r.url}/hooks`;
    const created = await h.call('PUT', base, { body: { is_enabled: false, topics: [{ type: 'alarms', delivery: { url } }] } });
    await h.call('PATCH', base, { body: { is_enabled: true }, headers: { 'if-match': created.headers.get('etag')! } });
    // not yet in effect
    expect((await emit(h, { type: 'alarm.triggered', organization_id: org })).body.events[0].destinations).toBe(0);
    await until('enabled', async () => (await emit(h, { type: 'alarm.triggered', organization_id: org })).body.events[0].destinations === 1, 3_000);
    await probe.r.close();
    const first = (await h.call('POST', `${base}/regenerate-auth-key`)).body.auth_key;
    const second = (await h.call('POST', `${base}/regenerate-auth-key`)).body.auth_key;
    // a bare server that records the key each delivery carried
    const seen: string[] = [];
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      seen.push(String(req.headers['x-webhook-key']));
      req.resume();
      res.end();
    });
    await new Promise<void>((ok) => server.listen(probe.r.port, '127.0.0.1', ok));
    cleanups.push(() => new Promise((ok) => server.close(ok)));
    await emit(h, { type: 'alarm.triggered', organization_id: org });
    await until('a delivery with an older key', () => seen.length >= 1);
    expect(seen[0]).not.toBe(second);
    // once the rotation has propagated (400 ms), a new event carries the new key: emitted until one does
    await until('a delivery with the new key', async () => {
      await emit(h, { type: 'alarm.triggered', organization_id: org });
      const before = seen.length;
      await until('its delivery', () => seen.length > before);
      return seen.at(-1) === second;
    });
    expect(first).not.toBe(second);
    // disabling stops deliveries after the window
    const etag = (await h.call('GET', base)).headers.get('etag')!;
    await h.call('PATCH', base, { body: { is_enabled: false }, headers: { 'if-match': etag } });
    // waited for as the enabling was: each emit says whether the change has reached deliveries
    await until('disabled', async () => (await emit(h, { type: 'alarm.triggered', organization_id: org })).body.events[0].destinations === 0, 3_000);
  });

  it('without allowPrivateWebhooks a host name resolving to a private address is blocked: nothing sent, the log says why', async () => {
    const lines: string[] = [];
    const h = await sandbox({ allowPrivateWebhooks: false, log: (line) => lines.push(line) });
    const hits: string[] = [];
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    cleanups.push(() => new Promise((ok) => server.close(ok)));
    const port = (server.address() as { port: number }).port;
    await subscribe(h, `https://localhost:${port}/hooks`);
    const ev = (await emit(h, { type: 'live.gps', organization_id: rootOf(h) })).body.events[0];
    expect(ev.destinations).toBe(1);
    const entry = await until('a blocked entry', async () => (await deliveries(h)).find((e) => e.event_id === ev.id));
    expect(entry).toMatchObject({ outcome: 'blocked', status: null, attempt: 1, url: `https://localhost:${port}/hooks` });
    expect(entry.reason).toMatch(/localhost resolves to (127\.0\.0\.1|::1), in a blocked range \(loopback\); nothing was sent/);
    expect(hits).toEqual([]);
    expect(lines.some((l) => l.includes(`blocked live.gps ${ev.id}`) && l.includes('nothing was sent'))).toBe(true);
  });

  it("a full destination queue refuses new events: the emit answer counts them as refused, the log says why", async () => {
    const h = await sandbox();
    const { r } = await listening(h);
    await r.close(); // the destination is down: its queue fills up behind the retried head
    const filled = (await emit(h, { type: 'alarm.triggered', count: 1000, organization_id: rootOf(h) })).body.events;
    expect(filled.every((e: any) => e.destinations === 1 && e.refused === 0)).toBe(true);
    const [over] = (await emit(h, { type: 'alarm.triggered', organization_id: rootOf(h) })).body.events;
    expect(over).toMatchObject({ destinations: 0, refused: 1 });
    expect((await deliveries(h)).find((e) => e.event_id === over.id)).toMatchObject({ outcome: 'dropped_overflow', attempt: 0 });
  });

  it('stopping the sandbox with deliveries still queued says so in its log (queues are not saved)', async () => {
    const lines: string[] = [];
    const h = await sandbox({ log: (line) => lines.push(line) });
    const { r } = await listening(h);
    await r.close();
    await emit(h, { type: 'alarm.triggered', count: 3, organization_id: rootOf(h) });
    await until('a failed attempt', async () => (await deliveries(h)).some((e) => e.outcome === 'retrying'));
    await h.close();
    expect(lines).toContain(`webhooks: stopped with 3 event(s) still queued for ${r.url}/hooks; they will not be delivered`);
  });

  it('POST /_sandbox/reset withdraws the subscriptions: a delivery being retried is abandoned, even with nothing emitted since', async () => {
    const h = await sandbox();
    const { r } = await listening(h);
    await r.close();
    const [ev] = (await emit(h, { type: 'alarm.triggered', organization_id: rootOf(h) })).body.events;
    await until('a failed attempt', async () => (await deliveries(h)).some((e) => e.event_id === ev.id && e.outcome === 'retrying'));
    expect((await fetch(`${h.sb.baseUrl}/_sandbox/reset`, { method: 'POST' })).status).toBeLessThan(300);
    const last = await until('the delivery abandoned', async () => (await deliveries(h)).find((e) => e.event_id === ev.id && e.outcome === 'failed'));
    expect(last.reason).toBe('the subscription was disabled or removed before delivery');
  });

  it('--emit-rate emits on a timer, round robin over the types', async () => {
    const h = await sandbox({ emitRatePerSecond: 50 });
    const { got } = await listening(h);
    await until('every type', () => new Set(got.map((d) => d.event.type)).size === 5, 5_000);
  });
});
