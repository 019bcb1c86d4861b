// src/shared/undici.ts imports undici's files one by one: they must be the very classes and function its
// index exports, and a request through them must reach the server with its path and query whole.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import v8 from 'node:v8';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, loadEnvHttpProxyAgent, PARSER_COMPILE_FLAGS, request } from '../../src/shared/undici.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url, key: req.headers['idempotency-key'] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('undici parts', () => {
  // the module sets the flag until its first answer only: a fresh copy of it, whatever ran before in this
  // worker (test files share modules: vitest.config.ts)
  it('compile the response parser with the baseline compiler only on V8 11 (Node 20): the flag is set until the first answer, also after a refused connection, and on no other V8', async () => {
    vi.resetModules();
    const { Agent, PARSER_COMPILE_FLAGS, request } = await import('../../src/shared/undici.js');
    const setFlags = vi.spyOn(v8, 'setFlagsFromString');
    const dispatcher = new Agent();
    try {
      // a port nothing listens on any more: the connection is refused, no parser is compiled
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await expect(request(`http://127.0.0.1:${port}/v1/devices`, { method: 'GET', dispatcher })).rejects.toThrow();
      for (let i = 0; i < 2; i++) await (await request(`${base}/v1/devices`, { method: 'GET', dispatcher })).body.json();
      const [set, reset] = PARSER_COMPILE_FLAGS.map((flag) => [flag]);
      expect(setFlags.mock.calls).toEqual(process.versions.v8.startsWith('11.') ? [set, reset, set, reset] : []);
    } finally {
      setFlags.mockRestore();
      await dispatcher.close();
    }
  });

  // (that they also get the index's dispatcher methods, connect for proxy tunnels, is test/e2e/proxy-tls.test.ts's to show:
  // this file loads the index itself)
  it('are the agents undici exports', async () => {
    expect(Agent).toBe(undici.Agent);
    expect(await loadEnvHttpProxyAgent()).toBe(undici.EnvHttpProxyAgent);
  });

  it('send a request with its method, path, query and headers through the given dispatcher', async () => {
    const dispatcher = new Agent();
    try {
      const answer = await request(`${base}/v1/devices/HW%2F1/commands/reboot?a=1&b=x%20y`, { method: 'POST', headers: { 'idempotency-key': 'k-1' }, dispatcher });
      expect(answer.statusCode).toBe(200);
      expect(await answer.body.json()).toEqual({ method: 'POST', url: '/v1/devices/HW%2F1/commands/reboot?a=1&b=x%20y', key: 'k-1' });
    } finally {
      await dispatcher.close();
    }
  });
});
