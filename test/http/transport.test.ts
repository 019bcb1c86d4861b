// The transport reads each answer whole, as text, from a real server: bytes that arrive in several pieces
// (a character's bytes split between two of them) come out as the text that was sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/http/transport.js';
import { silentTracer } from '../../src/http/trace.js';

let server: Server;
let base: string;
const pieces = [Buffer.from('{"name":"Caf'), Buffer.from([0xc3]), Buffer.from([0xa9]), Buffer.from(` ${'x'.repeat(200_000)}"}`)];

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    // each piece in its own write, a turn apart, so that they arrive as separate chunks
    const next = (i: number): void => {
      if (i === pieces.length) return void res.end();
      res.write(pieces[i], () => setTimeout(() => next(i + 1), 5));
    };
    next(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('transport', () => {
  it('reads a body that arrives in pieces, a character split between two, as the text sent', async () => {
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    const response = await transport.send({ method: 'GET', url: `${base}/v1/devices/1`, headers: {} });
    expect(response.status).toBe(200);
    expect(response.text).toBe(Buffer.concat(pieces).toString('utf8'));
    expect(JSON.parse(response.text).name).toMatch(/^Café x{200000}$/);
  });
});
