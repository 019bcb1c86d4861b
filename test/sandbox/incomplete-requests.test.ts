// Requests that never arrive whole: a client that leaves mid-body is journalled as aborted (not a 500), and a
// stalled request (headers or body) is answered 408 once SandboxOptions.requestTimeoutMs has passed.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { serverTimeouts, startSandbox } from '../../src/sandbox/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../src/sandbox/options.js';

const TIMEOUT_MS = 300;
let h: Harness;
const logs: string[] = [];
beforeAll(async () => {
  h = await startHarness({ devices: 3, requestTimeoutMs: TIMEOUT_MS, log: (line) => logs.push(line) });
});
afterAll(() => h.close());

function open(): Promise<Socket> {
  const url = new URL(h.sb.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection, and how long that took. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
  });
}

async function latestEntry(path: string): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const entries = (await h.call('GET', '/_sandbox/requests?limit=20', { token: null })).body as any[];
    const entry = entries.reverse().find((e) => e.path === path);
    if (entry) return entry;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no journal entry for ${path}; log:\n${logs.slice(-15).join('\n')}`);
}

const postHead = async (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${await h.token()}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

describe('a client that leaves mid-body', () => {
  it('is journalled as aborted, without a status, and is no internal error', async () => {
    // the head first: a connection that sends nothing is itself a stalled request once TIMEOUT_MS has passed
    const head = await postHead('/v1/drivers', 200);
    const socket = await open();
    socket.write(`${head}{"first_name":"Ab`);
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    const entry = await latestEntry('/v1/drivers');
    expect(entry).toMatchObject({ method: 'POST', operation_id: 'createDriver', status: null, outcome: 'aborted' });
    expect(logs.join('\n')).toContain('POST /v1/drivers aborted: the client left before its request was complete');
    expect(logs.join('\n')).not.toMatch(/internal error|POST \/v1\/drivers 500 /);
    const dropped = (await h.call('GET', '/_sandbox/requests?status=dropped', { token: null })).body as any[];
    expect(dropped.map((e) => e.id)).toContain(entry.id);
  });
});

describe('a stalled request', () => {
  it('whose body stops coming is answered 408 problem+json, and journalled as timed out', async () => {
    const head = await postHead('/v1/drivers?stalled=body', 200);
    const socket = await open();
    const answer = untilClosed(socket);
    socket.write(`${head}{"first_name":"Ab`);
    const { text, ms } = await answer;
    expect(text).toMatch(/^HTTP\/1.1 408 Request Timeout\r\n/);
    expect(text).toContain('content-type: application/problem+json');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 408, title: 'Request Timeout', code: 'request.timeout' });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS * 5);
    expect(await latestEntry('/v1/drivers')).toMatchObject({ query: 'stalled=body', status: 408, outcome: 'timed_out' });
  });

  it('whose headers stop coming is answered 408 too', async () => {
    const socket = await open();
    const answer = untilClosed(socket);
    socket.write('GET /v1/fleets HTTP/1.1\r\nhost: x\r\n');
    const { text, ms } = await answer;
    expect(text).toMatch(/^HTTP\/1.1 408 Request Timeout\r\n/);
    expect(ms).toBeLessThan(TIMEOUT_MS * 5);
  });

  it('is not an idle kept-alive connection between two requests', async () => {
    const body = JSON.stringify({ first_name: 'x' });
    const head = await postHead('/v1/drivers', body.length);
    const token = await h.token();
    const socket = await open();
    const answers: string[] = [];
    socket.on('data', (chunk) => answers.push(String(chunk)));
    socket.write(`${head}${body}`);
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
    socket.write(`GET /v1/fleets?limit=1 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\n\r\n`);
    for (let i = 0; i < 100 && !answers.join('').includes('"data":['); i++) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    const all = answers.join('');
    expect(all).toMatch(/^HTTP\/1.1 400 /);
    expect(all).toContain('request.invalid_body');
    expect(all).toMatch(/HTTP\/1.1 200 OK[\s\S]*"data":\[/);
    expect(all).not.toContain('408');
  });
});

it('requestTimeoutMs must be a whole number of milliseconds', async () => {
  await expect(startSandbox({ port: 0, requestTimeoutMs: 0 })).rejects.toThrow('sandbox: requestTimeoutMs must be a whole number of milliseconds, 1 or more');
  await expect(startSandbox({ port: 0, requestTimeoutMs: 2.5 })).rejects.toThrow(RangeError);
});

it('by default a stalled request is answered within 30 s, Node checking often enough to be on time', () => {
  const t = serverTimeouts(DEFAULT_REQUEST_TIMEOUT_MS);
  expect(t.requestTimeout! + t.connectionsCheckingInterval!).toBeLessThanOrEqual(30_000);
  expect(t.headersTimeout).toBe(t.requestTimeout);
  expect(serverTimeouts(300).connectionsCheckingInterval).toBe(75);
});
