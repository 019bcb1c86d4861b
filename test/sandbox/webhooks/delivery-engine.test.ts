import { afterEach, describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhooks/cloudevents.js';
import type { EventType } from '../../../src/webhooks/cloudevents.js';
import { DeliveryEngine, deliveryIdempotencyKey } from '../../../src/sandbox/webhooks/delivery-engine.js';
import type { DeliveryEngineOptions, DeliveryTimers } from '../../../src/sandbox/webhooks/delivery-engine.js';
import type { Resolver } from '../../../src/webhooks/destination-address.js';
import { freePort, startRecordingServer, waitFor } from '../../webhooks/http-fixtures.js';
import type { RecordingServer } from '../../webhooks/http-fixtures.js';

const FAST = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 2000 };
let seq = 0;
const event = (type: EventType = 'alarm.triggered') =>
  sampleEvent(type, { baseUrl: 'http://127.0.0.1:4010', newId: () => `id-${++seq}` });
const dest = (url: string, key = 'k-current') => ({ url, key: () => key });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});
async function server(respond?: Parameters<typeof startRecordingServer>[0], port?: number): Promise<RecordingServer> {
  const s = await startRecordingServer(respond, port);
  cleanups.push(() => s.close());
  return s;
}
function engine(opts: DeliveryEngineOptions = {}): DeliveryEngine {
  const e = new DeliveryEngine({ allowPrivate: true, retry: FAST, ...opts });
  cleanups.push(async () => void (await e.close()));
  return e;
}

/** Timers that fire at once (real 0 ms) while a virtual clock advances by the requested delay. */
function virtualTimers(): DeliveryTimers & { delays: number[] } {
  let now = Date.parse('2025-01-01T00:00:00Z');
  const delays: number[] = [];
  return {
    delays,
    now: () => now,
    setTimeout: (fn, ms) => {
      delays.push(ms);
      return setTimeout(() => {
        now += ms;
        fn();
      }, 0);
    },
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  };
}

describe('DeliveryEngine: a successful delivery', () => {
  it('POSTs the structured-mode envelope with the spec delivery headers and logs it', async () => {
    const s = await server();
    const e = engine();
    const ev = event('live.gps');
    expect(e.enqueue(ev, dest(`${s.url}/hook?x=1`, 'key with spaces/+='))).toBe(true);
    await e.whenIdle();
    expect(s.requests).toHaveLength(1);
    const [req] = s.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/hook?x=1');
    expect(JSON.parse(req!.body)).toEqual(ev);
    expect(req!.headers['content-type']).toBe('application/cloudevents+json');
    expect(req!.headers['x-webhook-key']).toBe('key with spaces/+=');
    expect(req!.headers['x-delivery-attempt']).toBe('1');
    expect(req!.headers['idempotency-key']).toBe(deliveryIdempotencyKey(ev.id, `${s.url}/hook?x=1`));
    expect(req!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(e.deliveries()).toEqual([{
      event_id: ev.id, type: 'live.gps', url: `${s.url}/hook?x=1`, attempt: 1, status: 200, outcome: 'delivered',
      reason: null, at: expect.any(String),
    }]);
  });

  it.each([201, 202, 204, 299])('acknowledges any 2xx (%i)', async (status) => {
    const s = await server((_r, res) => res.writeHead(status).end());
    const e = engine();
    e.enqueue(event(), dest(s.url));
    await e.whenIdle();
    expect(e.deliveries().map((d) => [d.status, d.outcome])).toEqual([[status, 'delivered']]);
  });

  it('has a stable, UUID-shaped idempotency key per event and destination', () => {
    const k = deliveryIdempotencyKey('ev1', 'https://a.example/h');
    expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deliveryIdempotencyKey('ev1', 'https://a.example/h')).toBe(k);
    expect(deliveryIdempotencyKey('ev2', 'https://a.example/h')).not.toBe(k);
    expect(deliveryIdempotencyKey('ev1', 'https://b.example/h')).not.toBe(k);
  });
});

describe('DeliveryEngine: retries', () => {
  it('retries non-2xx answers with the same idempotency key and trace, counting attempts', async () => {
    const s = await server((_r, res, i) => res.writeHead(i < 2 ? 500 : 200).end());
    const e = engine();
    const ev = event();
    e.enqueue(ev, dest(s.url));
    await e.whenIdle();
    expect(s.requests.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(s.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    const traces = s.requests.map((r) => String(r.headers.traceparent).split('-'));
    expect(new Set(traces.map((t) => t[1])).size).toBe(1);
    expect(new Set(traces.map((t) => t[2])).size).toBe(3);
    expect(e.deliveries().map((d) => [d.attempt, d.status, d.outcome])).toEqual([
      [1, 500, 'retrying'], [2, 500, 'retrying'], [3, 200, 'delivered'],
    ]);
    expect(e.deliveries()[0]!.reason).toBe('HTTP 500; next attempt in 5 ms');
  });

  it('backs off exponentially up to the cap, and gives up after maxRetries', async () => {
    const s = await server((_r, res) => res.writeHead(503).end());
    const timers = virtualTimers();
    const e = engine({ timers, retry: { baseDelayMs: 1000, maxDelayMs: 8000, maxRetries: 5 } });
    e.enqueue(event(), dest(s.url));
    await e.whenIdle();
    expect(timers.delays).toEqual([1000, 2000, 4000, 8000, 8000]);
    const log = e.deliveries();
    expect(log.map((d) => d.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'retrying', 'failed']);
    expect(log.at(-1)!.reason).toBe('HTTP 503; gave up after 6 attempts');
  });

  it('honours Retry-After when longer than the back-off', async () => {
    const s = await server((_r, res, i) => (i === 0 ? res.writeHead(429, { 'retry-after': '7' }).end() : res.writeHead(200).end()));
    const timers = virtualTimers();
    const e = engine({ timers, retry: { baseDelayMs: 1000 } });
    e.enqueue(event(), dest(s.url));
    await e.whenIdle();
    expect(timers.delays).toEqual([7000]);
    expect(e.deliveries()[0]!.reason).toBe('HTTP 429; next attempt in 7000 ms (Retry-After 7 s)');
    expect(e.deliveries()[1]!.outcome).toBe('delivered');
  });

  it('gives up rather than retry past the age limit', async () => {
    const s = await server((_r, res) => res.writeHead(500).end());
    const timers = virtualTimers();
    const e = engine({ timers, retry: { baseDelayMs: 1000, maxDelayMs: 60_000, maxRetries: 99, maxElapsedMs: 10_000 } });
    e.enqueue(event(), dest(s.url));
    await e.whenIdle();
    expect(timers.delays).toEqual([1000, 2000, 4000]);
    expect(e.deliveries().at(-1)!.reason).toMatch(/HTTP 500; gave up: the next attempt would start more than 10 s after the work began/);
  });

  it('retries a timeout', async () => {
    const s = await server((_r, res, i) => {
      if (i > 0) res.writeHead(200).end();
    });
    const e = engine({ retry: { ...FAST, timeoutMs: 150 } });
    e.enqueue(event(), dest(s.url));
    await e.whenIdle();
    expect(e.deliveries().map((d) => [d.status, d.outcome, d.reason?.split(';')[0]])).toEqual([
      [null, 'retrying', 'timed out after 150 ms'], [200, 'delivered', undefined],
    ]);
  });

  it('asks for the key at each attempt, so a retry after rotation carries the new key', async () => {
    const s = await server((_r, res, i) => res.writeHead(i === 0 ? 500 : 200).end());
    const e = engine();
    let key = 'old-key';
    e.enqueue(event(), { url: s.url, key: () => { const k = key; key = 'new-key'; return k; } });
    await e.whenIdle();
    expect(s.requests.map((r) => r.headers['x-webhook-key'])).toEqual(['old-key', 'new-key']);
  });

  it('abandons a delivery whose subscription is no longer active', async () => {
    const s = await server((_r, res) => res.writeHead(500).end());
    const e = engine();
    let active = true;
    e.enqueue(event(), { url: s.url, key: () => 'k', isActive: () => active });
    await waitFor(() => s.requests.length === 1);
    active = false;
    await e.whenIdle();
    expect(s.requests).toHaveLength(1);
    expect(e.deliveries().at(-1)).toMatchObject({ attempt: 2, outcome: 'failed', reason: 'the subscription was disabled or removed before delivery' });
  });
});

describe('DeliveryEngine: queues while a destination is down', () => {
  it('keeps FIFO order and delivers everything once the destination is back', async () => {
    const port = await freePort();
    const e = engine();
    const url = `http://127.0.0.1:${port}/hook`;
    const events = [event(), event('media.ready'), event('journey.closed')];
    for (const ev of events) e.enqueue(ev, dest(url));
    await waitFor(() => e.deliveries().filter((d) => d.outcome === 'retrying').length >= 3);
    expect(e.deliveries().every((d) => d.event_id === events[0]!.id)).toBe(true);
    expect(e.deliveries()[0]!.reason).toMatch(/^connection to 127\.0\.0\.1 failed \(ECONNREFUSED\)/);
    const s = await server(undefined, port);
    await e.whenIdle();
    expect(s.requests.map((r) => JSON.parse(r.body).id)).toEqual(events.map((ev) => ev.id));
    expect(e.deliveries().filter((d) => d.outcome === 'delivered').map((d) => d.event_id)).toEqual(events.map((ev) => ev.id));
  });

  it('refuses events beyond the queue bound and records them as dropped_overflow', async () => {
    const down = await server((_r, res) => res.writeHead(503).end());
    const up = await server();
    const e = engine({ maxQueuePerDestination: 2, retry: { ...FAST, maxRetries: 2 } });
    const [a, b, c, d] = [event(), event(), event(), event()];
    expect([e.enqueue(a, dest(down.url)), e.enqueue(b, dest(down.url)), e.enqueue(c, dest(down.url))]).toEqual([true, true, false]);
    expect(e.enqueue(d, dest(up.url))).toBe(true);
    expect(e.pending(down.url)).toBe(2);
    await e.whenIdle();
    expect(e.deliveries().find((x) => x.event_id === c.id)).toMatchObject({
      attempt: 0, status: null, outcome: 'dropped_overflow', reason: 'the queue of this destination is full (2 events)',
    });
    expect(e.deliveries().find((x) => x.event_id === d.id)?.outcome).toBe('delivered');
    expect(up.requests).toHaveLength(1);
  });

  it('keeps only the newest maxLogEntries entries, oldest first', async () => {
    const s = await server();
    const e = engine({ maxLogEntries: 2 });
    const evs = [event(), event(), event()];
    for (const ev of evs) e.enqueue(ev, dest(s.url));
    await e.whenIdle();
    expect(e.deliveries().map((d) => d.event_id)).toEqual([evs[1]!.id, evs[2]!.id]);
  });
});

describe('DeliveryEngine: delivery-time address checks (fail closed)', () => {
  const resolverOf = (map: Record<string, string[]>, calls: string[] = []): Resolver => async (host) => {
    calls.push(host);
    const answers = map[host];
    if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it.each([
    [['127.0.0.1'], /resolves to 127\.0\.0\.1, in a blocked range \(loopback\); nothing was sent/],
    [['93.184.216.34', '10.0.0.7'], /resolves to 10\.0\.0\.7, in a blocked range \(private\)/],
    [['::ffff:127.0.0.1'], /resolves to ::ffff:127\.0\.0\.1, in a blocked range \(ipv4Mapped\)/],
    [['169.254.169.254'], /\(linkLocal\)/],
  ])('blocks a host name resolving to %j, sending nothing', async (answers, reason) => {
    const s = await server();
    const calls: string[] = [];
    const e = engine({ allowPrivate: false, resolve: resolverOf({ 'hooks.example.com': answers }, calls) });
    const ev = event();
    e.enqueue(ev, dest(`https://hooks.example.com:${s.port}/hook`));
    await e.whenIdle();
    expect(calls).toEqual(['hooks.example.com']);
    expect(s.connections).toBe(0);
    expect(e.deliveries()).toEqual([expect.objectContaining({
      event_id: ev.id, attempt: 1, status: null, outcome: 'blocked', reason: expect.stringMatching(reason),
    })]);
  });

  it('resolves again at each attempt, so a rebinding to a blocked address is caught', async () => {
    let answer: string[] | undefined;
    const calls: string[] = [];
    const resolve: Resolver = async (host) => {
      calls.push(host);
      if (!answer) { answer = ['127.0.0.1']; throw Object.assign(new Error('x'), { code: 'EAI_AGAIN' }); }
      return answer.map((address) => ({ address, family: 4 as const }));
    };
    const e = engine({ allowPrivate: false, resolve });
    e.enqueue(event(), dest('https://rebind.example.com/hook'));
    await e.whenIdle();
    expect(calls).toHaveLength(2);
    expect(e.deliveries().map((d) => [d.outcome, d.reason?.split(';')[0]])).toEqual([
      ['retrying', 'DNS lookup of rebind.example.com failed (EAI_AGAIN)'],
      ['blocked', 'rebind.example.com resolves to 127.0.0.1, in a blocked range (loopback)'],
    ]);
  });

  it.each([
    ['http://127.0.0.1:9/hook', false, /webhook\.invalid_url: .*must use https/],
    ['https://127.0.0.1:9/hook', false, /webhook\.ssrf_blocked: .*\(loopback\)/],
    ['http://hooks.example.com/hook', true, /webhook\.invalid_url: .*must use https, not http/],
  ])('blocks %s (allowPrivate %s) without resolving', async (url, allowPrivate, reason) => {
    const calls: string[] = [];
    const e = engine({ allowPrivate, resolve: resolverOf({}, calls) });
    e.enqueue(event(), dest(url));
    await e.whenIdle();
    expect(calls).toEqual([]);
    expect(e.deliveries()).toEqual([expect.objectContaining({ outcome: 'blocked', reason: expect.stringMatching(reason) })]);
  });

  it('connects to the pinned address while keeping the host name in Host', async () => {
    // the system resolver does not know pinned.localhost: the connection can only come from the pin
    const s = await server();
    const calls: string[] = [];
    const e = engine({ resolve: resolverOf({ 'pinned.localhost': ['127.0.0.1'] }, calls) });
    e.enqueue(event(), dest(`http://pinned.localhost:${s.port}/hook`));
    await e.whenIdle();
    expect(calls).toEqual(['pinned.localhost']);
    expect(s.requests[0]!.headers.host).toBe(`pinned.localhost:${s.port}`);
    expect(e.deliveries()[0]!.outcome).toBe('delivered');
  });
});

describe('DeliveryEngine: close', () => {
  it('stops retrying and refuses new events', async () => {
    const s = await server((_r, res) => res.writeHead(500).end());
    const e = engine({ retry: { baseDelayMs: 60_000 } });
    e.enqueue(event(), dest(s.url));
    await waitFor(() => e.deliveries().length === 1);
    e.enqueue(event(), dest(s.url));
    expect(await e.close()).toEqual([{ url: s.url, pending: 2 }]);
    expect(await e.close()).toEqual([]);
    await e.whenIdle();
    expect(e.pending()).toBe(2);
    expect(e.enqueue(event(), dest(s.url))).toBe(false);
    expect(e.deliveries().at(-1)).toMatchObject({ outcome: 'dropped_overflow', reason: 'the delivery engine is closed' });
  });
});

describe('DeliveryEngine: robustness', () => {
  it('records a throwing provider as failed and goes on with the queue', async () => {
    const s = await server();
    const e = engine();
    const [a, b] = [event(), event()];
    e.enqueue(a, { url: s.url, key: () => 'k', isActive: () => { throw new Error('store gone'); } });
    e.enqueue(b, dest(s.url));
    await e.whenIdle();
    expect(e.deliveries().map((d) => [d.event_id, d.outcome, d.reason])).toEqual([
      [a.id, 'failed', 'internal error: store gone'], [b.id, 'delivered', null],
    ]);
  });

  it('reports an unavailable key and retries', async () => {
    const s = await server();
    const e = engine();
    let calls = 0;
    e.enqueue(event(), { url: s.url, key: () => { if (++calls === 1) throw new Error('vault sealed'); return 'k'; } });
    await e.whenIdle();
    expect(e.deliveries().map((d) => [d.outcome, d.reason?.split(';')[0]])).toEqual([
      ['retrying', 'the webhook key is unavailable (vault sealed)'], ['delivered', undefined],
    ]);
  });
});
