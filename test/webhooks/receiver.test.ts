import { connect } from 'node:net';
import { Client, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startRecordingServer } from './http-fixtures.js';
import type { RecordingServer, Responder } from './http-fixtures.js';
import { event, KEY, post, receiver } from './receiver-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function app(respond?: Responder): Promise<RecordingServer> {
  const s = await startRecordingServer(respond);
  cleanups.push(() => s.close());
  return s;
}

describe('receiver: accepting deliveries', () => {
  it('accepts a valid delivery and reports it once', async () => {
    const { r, events } = await receiver();
    const ev = event();
    const res = await post(`${r.url}/webhooks`, ev, { 'idempotency-key': 'idem-1', 'x-delivery-attempt': '2' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'accepted', id: ev.id });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: ev, differences: [], body: JSON.stringify(ev), idempotencyKey: 'idem-1', attempt: 2, keyUsed: 'current' });
  });

  it('answers 200 to a duplicate envelope id or Idempotency-Key without reporting it again', async () => {
    const { r, events, rejects } = await receiver();
    const ev = event();
    expect((await post(r.url, ev, { 'idempotency-key': 'k1' })).status).toBe(200);
    const again = await post(r.url, ev, { 'idempotency-key': 'k2' });
    expect([again.status, again.json().status]).toEqual([200, 'duplicate']);
    const sameKey = await post(r.url, event(), { 'idempotency-key': 'k1' });
    expect([sameKey.status, sameKey.json().status]).toEqual([200, 'duplicate']);
    expect(events).toHaveLength(1);
    expect(rejects.map((x) => [x.status, x.reason])).toEqual([
      [200, 'duplicate delivery, already accepted'], [200, 'duplicate delivery, already accepted'],
    ]);
  });

  it('answers 500 when onEvent throws, and accepts the retry', async () => {
    let fail = true;
    const seen: string[] = [];
    const { r } = await receiver({ onEvent: (d) => { seen.push(d.event.id); if (fail) { fail = false; throw new Error('disk full'); } } });
    const ev = event();
    const first = await post(r.url, ev);
    expect([first.status, first.json()]).toEqual([500, { error: 'the receiver failed: disk full' }]);
    expect((await post(r.url, ev)).json().status).toBe('accepted');
    expect(seen).toEqual([ev.id, ev.id]);
  });
});

describe('receiver: refusals', () => {
  it.each([
    ['no key', {}, 401],
    ['a wrong key', { 'x-webhook-key': 'nope' }, 401],
    ['a key differing in length', { 'x-webhook-key': KEY + 'x' }, 401],
    ['a key differing in case', { 'x-webhook-key': KEY.toUpperCase() }, 401],
  ])('401 for %s', async (_name, headers, status) => {
    const { r, events, rejects } = await receiver();
    const h: Record<string, string> = { ...headers };
    const res = await request(r.url, {
      method: 'POST', headers: { 'content-type': 'application/cloudevents+json', ...h }, body: JSON.stringify(event()),
    });
    await res.body.dump();
    expect(res.statusCode).toBe(status);
    expect(events).toHaveLength(0);
    expect(rejects[0]).toMatchObject({ status: 401, reason: 'missing or wrong X-Webhook-Key' });
  });

  it('405 for other methods', async () => {
    const { r } = await receiver();
    const res = await request(r.url, { method: 'GET', headers: { 'x-webhook-key': KEY } });
    await res.body.dump();
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'POST']);
  });

  it('strict: 415 for a body that is not structured-mode CloudEvents', async () => {
    const { r } = await receiver({ strict: true });
    const res = await post(r.url, event(), { 'content-type': 'application/json' });
    expect(res.status).toBe(415);
    expect(res.json().error).toMatch(/expected application\/cloudevents\+json/);
    expect((await post(r.url, event(), { 'content-type': 'application/cloudevents+json; charset=utf-8' })).status).toBe(200);
  });

  const without = (attribute: string) => () => {
    const e: Record<string, unknown> = { ...event() };
    delete e[attribute];
    return e;
  };
  it.each([
    ['malformed JSON', () => '{"id":', /not valid JSON/],
    ['an array', () => [event()], /invalid CloudEvents envelope: the body is not a JSON object/],
    ['a missing specversion', without('specversion'), /^invalid CloudEvents envelope: specversion: is required$/],
    ['specversion 0.3', () => ({ ...event(), specversion: '0.3' }), /^invalid CloudEvents envelope: specversion: must be "1.0"$/],
    ['a missing id', without('id'), /^invalid CloudEvents envelope: id: is required$/],
    ['an empty id', () => ({ ...event(), id: '' }), /^invalid CloudEvents envelope: id: must have at least 1 character/],
    ['a missing source', without('source'), /^invalid CloudEvents envelope: source: is required$/],
    ['a missing type', without('type'), /^invalid CloudEvents envelope: type: is required$/],
    ['a numeric type', () => ({ ...event(), type: 7 }), /^invalid CloudEvents envelope: type: must be a string$/],
  ])('400 for %s, strict or not', async (_name, body, reason) => {
    for (const strict of [false, true]) {
      const { r, events } = await receiver({ strict });
      const res = await post(r.url, body());
      expect(res.status).toBe(400);
      expect(res.json().error).toMatch(reason);
      expect(events).toHaveLength(0);
    }
  });

  it('413 for a body over the limit, declared or streamed', async () => {
    const { r, events } = await receiver({ maxBodyBytes: 2000 });
    const big = { ...event(), padding: 'x'.repeat(5000) };
    const declared = await post(r.url, big);
    expect([declared.status, declared.json().error]).toEqual([413, 'the body exceeds 2000 bytes']);
    const streamed = await rawChunkedPost(r.port, JSON.stringify(big));
    expect(streamed).toMatch(/^HTTP\/1\.1 413/);
    expect(events).toHaveLength(0);
  });
});

/** A chunked POST (no Content-Length), so the limit can only be found while reading. */
function rawChunkedPost(port: number, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => { answer += d.toString(); });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
    socket.setTimeout(3000, () => { socket.destroy(); reject(new Error('no answer')); });
    const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\nX-Webhook-Key: ${KEY}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    socket.write(head + chunk(body.slice(0, 1000)) + chunk(body.slice(1000)) + '0\r\n\r\n');
  });
}

describe('receiver: key rotation', () => {
  it('accepts --previous-key during the grace period only', async () => {
    let now = 1_000_000;
    const { r, events } = await receiver({ key: 'new-key', previousKey: 'old-key', previousKeyGraceMs: 60_000, now: () => now });
    expect((await post(r.url, event(), { 'x-webhook-key': 'old-key' })).status).toBe(200);
    expect(events[0]!.keyUsed).toBe('previous');
    now += 60_000;
    expect((await post(r.url, event(), { 'x-webhook-key': 'old-key' })).status).toBe(401);
    expect((await post(r.url, event(), { 'x-webhook-key': 'new-key' })).status).toBe(200);
  });

  it('keeps the replaced key for the grace period after setKey', async () => {
    let now = 0;
    const { r } = await receiver({ key: 'k1', previousKeyGraceMs: 1000, now: () => now });
    r.setKey('k2');
    expect((await post(r.url, event(), { 'x-webhook-key': 'k1' })).status).toBe(200);
    expect((await post(r.url, event(), { 'x-webhook-key': 'k2' })).status).toBe(200);
    now = 1000;
    expect((await post(r.url, event(), { 'x-webhook-key': 'k1' })).status).toBe(401);
  });
});

describe('receiver: --forward-to', () => {
  it('relays headers and body, and answers with the app status and body', async () => {
    const a = await app((_req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('queued'));
    const { r, events } = await receiver({ forwardTo: `${a.url}/app/hook` });
    const ev = event('media.ready');
    const headers = { 'idempotency-key': 'idem-9', 'x-delivery-attempt': '1', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const res = await post(`${r.url}/in`, ev, headers);
    expect([res.status, res.body, res.headers['content-type']]).toEqual([202, 'queued', 'text/plain']);
    expect(a.requests).toHaveLength(1);
    const got = a.requests[0]!;
    expect(got.url).toBe('/app/hook');
    expect(got.body).toBe(JSON.stringify(ev));
    expect(got.headers).toMatchObject({ ...headers, 'content-type': 'application/cloudevents+json', 'x-webhook-key': KEY });
    expect(got.headers.host).toBe(`127.0.0.1:${a.port}`);
    expect(events[0]!.forwardStatus).toBe(202);
  });

  it('passes an app failure back, so the sender retries, and relays the retry', async () => {
    const a = await app((_req, res, i) => (i === 0 ? res.writeHead(503, { 'retry-after': '3' }).end() : res.writeHead(200).end()));
    const { r, events, rejects } = await receiver({ forwardTo: a.url });
    const ev = event();
    const first = await post(r.url, ev);
    expect([first.status, first.headers['retry-after']]).toEqual([503, '3']);
    expect(events).toHaveLength(0);
    expect(rejects[0]).toMatchObject({ status: 503, eventId: ev.id });
    expect((await post(r.url, ev)).status).toBe(200);
    expect((await post(r.url, ev)).json().status).toBe('duplicate');
    expect(a.requests).toHaveLength(2);
    expect(events).toHaveLength(1);
  });

  it("an app's 2xx whose body never ends is still the app's answer (not a 504, which would make the sender retry)", async () => {
    const a = await app((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('ok'); // and never ends
    });
    const { r, events } = await receiver({ forwardTo: a.url, forwardTimeoutMs: 200 });
    const res = await post(r.url, event());
    expect([res.status, res.body]).toEqual([200, 'ok']);
    expect(events).toHaveLength(1);
  });

  it('answers 502 when the app is unreachable and 504 when it does not answer in time', async () => {
    const { r } = await receiver({ forwardTo: `http://127.0.0.1:${await freePort()}/` });
    const unreachable = await post(r.url, event());
    expect(unreachable.status).toBe(502);
    expect(unreachable.json().error).toMatch(/is unreachable \(ECONNREFUSED\)/);
    const silent = await app(() => undefined);
    const { r: r2 } = await receiver({ forwardTo: silent.url, forwardTimeoutMs: 100 });
    const slow = await post(r2.url, event());
    expect(slow.status).toBe(504);
    expect(slow.json().error).toMatch(/did not answer within 100 ms/);
  });
});

describe('receiver: --max-events', () => {
  it('over one keep-alive connection: exactly N accepted, every later request 503, the limit reported once the Nth answer is sent', async () => {
    let reached = 0;
    const { r, events } = await receiver({ maxEvents: 3, onLimitReached: () => reached++ });
    const client = new Client(r.url, { pipelining: 1 });
    cleanups.push(() => client.close());
    let connects = 0;
    client.on('connect', () => connects++);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await client.request({
        path: '/', method: 'POST', body: JSON.stringify(event()),
        headers: { 'content-type': 'application/cloudevents+json', 'x-webhook-key': KEY },
      });
      await answer.body.text();
      statuses.push(answer.statusCode);
      if (i === 3) expect(connects).toBe(1); // the three accepted and the first refused: one connection
    }
    expect(statuses).toEqual([200, 200, 200, 503, 503, 503]);
    expect(events).toHaveLength(3);
    expect(reached).toBe(1);
  });

  it('concurrent deliveries on many connections never overshoot the limit', async () => {
    const { r, events, rejects } = await receiver({
      maxEvents: 3,
      onEvent: async (d) => {
        await new Promise((done) => setTimeout(done, 50)); // all ten are in flight together
        events.push(d);
      },
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(r.url, event())));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 503, 503, 503, 503, 503, 503, 503]);
    expect(events).toHaveLength(3);
    expect(rejects.filter((x) => x.status === 503)).toHaveLength(7);
    expect(rejects[0]!.reason).toBe('this receiver stops after 3 event(s) and has accepted them all');
  });

  it('a delivery that is not accepted (the app behind --forward-to fails) does not count', async () => {
    const target = await app((_req, res, index) => res.writeHead(index === 0 ? 500 : 200).end());
    const { r, events } = await receiver({ maxEvents: 1, forwardTo: target.url });
    expect((await post(r.url, event())).status).toBe(500);
    expect((await post(r.url, event())).status).toBe(200);
    expect((await post(r.url, event())).status).toBe(503);
    expect(events).toHaveLength(1);
  });
});
