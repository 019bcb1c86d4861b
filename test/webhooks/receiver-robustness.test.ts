// `webhook listen` under slow or broken clients: connections whose request stalls are closed (408) after the
// request timeout, real deliveries are answered while hundreds of such connections are open, a body that is not
// UTF-8 is refused (two event ids differing only in invalid bytes are not one event), and a sender that goes away
// mid-request is not a failure of the receiver. Loopback only; every socket is closed by the test's end.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { event, KEY, post, receiver } from './receiver-fixtures.js';

/** Opens a connection that sends part of a request, then nothing more; resolves when the receiver closes it. */
function stalledConnection(port: number, partial: string): { socket: Socket; closed: Promise<{ answer: string; afterMs: number }> } {
  const socket = connect(port, '127.0.0.1');
  const opened = Date.now();
  let answer = '';
  socket.on('data', (d) => (answer += d.toString()));
  socket.on('error', () => undefined);
  socket.write(partial);
  const closed = new Promise<{ answer: string; afterMs: number }>((resolve) => socket.on('close', () => resolve({ answer, afterMs: Date.now() - opened })));
  return { socket, closed };
}

const rawPost = (body: Buffer) =>
  Buffer.concat([Buffer.from(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\nX-Webhook-Key: ${KEY}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]);

function send(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
    socket.end(bytes);
  });
}

describe('receiver: slow and broken clients', () => {
  it('closes connections whose headers or body stall, after the request timeout, and answers deliveries meanwhile (300 slow connections)', async () => {
    const { r, events } = await receiver({ requestTimeoutMs: 1500 });
    const slow = Array.from({ length: 300 }, (_, i) =>
      stalledConnection(r.port, i % 2 ? 'POST / HTTP/1.1\r\nHost: x\r\nX-Webhook-Key: ' : `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\nX-Webhook-Key: ${KEY}\r\n\r\n{"id":`));
    try {
      // real deliveries get through while every slow connection is open
      await new Promise((resolve) => setTimeout(resolve, 200));
      const answers = await Promise.all([event(), event(), event()].map((e) => post(r.url, e)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(events).toHaveLength(3);
      // each slow one is closed by the receiver (408), soon after the timeout: not kept for Node's 60 s
      const closed = await Promise.all(slow.map((s) => s.closed));
      expect(closed.every((c) => c.afterMs >= 1400 && c.afterMs < 6000), JSON.stringify(closed.map((c) => c.afterMs))).toBe(true);
      expect(closed.filter((c) => /^HTTP\/1\.1 408/.test(c.answer)).length).toBeGreaterThan(250);
    } finally {
      for (const s of slow) s.socket.destroy();
    }
  }, 30_000);

  it('a body that is not valid UTF-8 is refused 400: ids differing only in invalid bytes are never taken for one event', async () => {
    const { r, events } = await receiver();
    const base = JSON.stringify(event()).replace(/"id":"[^"]*"/, '"id":"coll-@-1"');
    const withByte = (byte: number) => {
      const text = Buffer.from(base);
      text[text.indexOf('@')] = byte;
      return text;
    };
    for (const byte of [0xff, 0xfe]) {
      const answer = await send(r.port, rawPost(withByte(byte)));
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(answer).toContain('the body is not valid UTF-8');
    }
    expect(events).toHaveLength(0);
    // the same ids in valid UTF-8 are two events
    for (const ch of ['\u00ff', '\u00fe']) expect((await post(r.url, base.replace('@', ch))).status).toBe(200);
    expect(events.map((e) => e.event.id)).toEqual(['coll-\u00ff-1', 'coll-\u00fe-1']);
  });

  it('a sender that leaves mid-body is not reported as a receiver failure', async () => {
    const { r, rejects, events } = await receiver();
    const { socket, closed } = stalledConnection(r.port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\nX-Webhook-Key: ${KEY}\r\n\r\n{"id":`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await closed;
    // the receiver goes on, and its next answer shows nothing was reported for the one that left
    expect((await post(r.url, event())).status).toBe(200);
    expect(rejects).toEqual([]);
    expect(events).toHaveLength(1);
  });
});
