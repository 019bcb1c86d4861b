// Webhooks end to end (issue 6, "Must show"): a sandbox with allowPrivateWebhooks delivers CloudEvents of all
// five types to a running `fleetctl webhook listen` (built CLI, piped → NDJSON), configured with the CLI, events
// emitted with `fleetctl sandbox emit`. Each arrives exactly once, validates as CloudEvents 1.0 (SDK + its JSON
// schema), carries the documented headers and the right key; nothing is lost while the listener is down; every
// delivery is accepted across a key rotation. Without allowPrivateWebhooks a host name resolving to 127.0.0.1
// gets nothing, and the delivery log says why.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudEvent } from 'cloudevents';
import validateCloudEventSchema from 'cloudevents/dist/schema/v1.js';
import { BIN, startHarness, type SandboxHarness } from './harness.js';
import { EVENT_TYPES, TOPIC_TYPES } from '../../src/webhooks/index.js';

const PROPAGATION_MS = 3_000;
const FAST_RETRY = { baseDelayMs: 100, maxDelayMs: 400, maxRetries: 199, timeoutMs: 3_000 };

interface Forwarded {
  headers: IncomingHttpHeaders;
  body: any;
}

/** The user's app behind `webhook listen --forward-to`: records every relayed delivery (headers included). */
class App {
  readonly received: Forwarded[] = [];
  private server!: Server;
  url = '';
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/app`;
  }
  close(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }
}

/** `fleetctl webhook listen` as a subprocess: stdout parsed as NDJSON envelopes. */
class Listener {
  readonly events: any[] = [];
  stderr = '';
  private child!: ChildProcessWithoutNullStreams;
  private exited!: Promise<number | null>;

  static async start(args: string[], env: Record<string, string>): Promise<Listener> {
    const l = new Listener();
    l.child = spawn(process.execPath, [BIN, 'webhook', 'listen', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), CI: 'true', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let pending = '';
    l.child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.trim()) l.events.push(JSON.parse(line));
    });
    l.child.stderr.on('data', (chunk: Buffer) => (l.stderr += chunk.toString('utf8')));
    l.exited = new Promise((ok) => l.child.on('close', (code) => ok(code)));
    await until('the listener to be ready', () => /^Listening on http:\/\/127\.0\.0\.1:\d+$/m.test(l.stderr) || l.child.exitCode !== null);
    if (l.child.exitCode !== null) throw new Error(`listen exited early: ${l.stderr}`);
    return l;
  }

  /** The exit code once it stops by itself (--max-events). */
  exit(): Promise<number | null> {
    return this.exited;
  }

  /** Ctrl-C, as a user would. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGINT');
    return this.exited;
  }
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

function expectCloudEvent(envelope: unknown): void {
  expect(validateCloudEventSchema(envelope), JSON.stringify((validateCloudEventSchema as { errors?: unknown }).errors)).toBe(true);
  const ce = new CloudEvent(envelope as never, true);
  expect(ce.specversion).toBe('1.0');
}

let h: SandboxHarness;

async function cli(args: string[], input?: string): Promise<string> {
  const res = await h.cli(args, { input });
  if (res.code !== 0) throw new Error(`fleetctl ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
  return res.stdout;
}

/** `fleetctl sandbox emit TYPE --count N -o json`: the emitted events. */
async function emit(type: string, count: number): Promise<{ id: string; type: string; destinations: number }[]> {
  return JSON.parse(await cli(['sandbox', 'emit', type, '--count', String(count), '-o', 'json']));
}

async function deliveries(): Promise<any[]> {
  return (await fetch(`${h.sandbox.baseUrl}/_sandbox/deliveries`)).json() as Promise<any[]>;
}

/**
 * The delivery log's entries for these events once each has one with outcome "delivered". The listener prints
 * an event before it answers, and the sandbox logs the delivery when the answer arrives: an event seen at the
 * listener may not be logged yet, so the log is waited for, not read at once. A delivered event is done: the
 * sandbox sends it no more.
 */
async function deliveredLog(ids: string[]): Promise<any[]> {
  let log: any[] = [];
  await until('a "delivered" entry in the log for every event', async () => {
    log = (await deliveries()).filter((d) => ids.includes(d.event_id));
    return ids.every((id) => log.some((d) => d.event_id === id && d.outcome === 'delivered'));
  });
  return log;
}

describe('webhooks end to end, --allow-private-webhooks', () => {
  const app = new App();
  let port: number;
  let key: string;
  let listener: Listener;

  beforeAll(async () => {
    h = await startHarness({ allowPrivateWebhooks: true, propagationMs: PROPAGATION_MS, webhookRetry: FAST_RETRY });
    await app.start();
    port = await freePort();
    // every topic at the listener; created disabled as the spec requires, then the key, then enabled
    const url = `http://127.0.0.1:${port}/hooks`;
    await cli(['webhook-config', 'create', '--url', url, '--topics', TOPIC_TYPES.join(','), '--allow-private-url']);
    key = (await cli(['webhook-config', 'regenerate-key', '--yes'])).trim();
    listener = await Listener.start(['--port', String(port), '--key-env', 'WEBHOOK_KEY', '--forward-to', app.url], { WEBHOOK_KEY: key });
    await cli(['webhook-config', 'enable']);
    const config = JSON.parse(await cli(['webhook-config', 'get', '-o', 'json']));
    expect(config).toMatchObject({ is_enabled: true, auth_key_hint: `…${key.slice(-4)}` });
    expect(config.topics.map((t: { type: string }) => t.type).sort()).toEqual([...TOPIC_TYPES].sort());
    await sleep(PROPAGATION_MS + 200);
  }, 60_000);

  afterAll(async () => {
    await listener?.stop();
    await app.close();
    await h?.close();
  });

  it('events of every type arrive exactly once, as valid CloudEvents 1.0, with the documented headers and the key', async () => {
    const emitted = (await Promise.all(EVENT_TYPES.map((type) => emit(type, 3)))).flat();
    expect(emitted).toHaveLength(15);
    for (const e of emitted) expect(e.destinations).toBe(1);
    const ids = emitted.map((e) => e.id);
    await until('every event at the listener', () => ids.every((id) => listener.events.some((e) => e.id === id)));
    const log = await deliveredLog(ids);
    const printed = listener.events.filter((e) => ids.includes(e.id));
    expect(printed.map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(new Set(printed.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    for (const envelope of printed) {
      expectCloudEvent(envelope);
      expect(envelope).toMatchObject({ specversion: '1.0', datacontenttype: 'application/json', subject: envelope.data.hardwareId });
    }
    // what the app behind the listener got: the same envelopes with the delivery headers
    const relayed = app.received.filter((r) => ids.includes(r.body.id));
    expect(relayed).toHaveLength(ids.length);
    for (const r of relayed) {
      expect(r.headers['content-type']).toBe('application/cloudevents+json');
      expect(r.headers['x-webhook-key']).toBe(key);
      expect(r.headers['x-delivery-attempt']).toBe('1');
      expect(r.headers['idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(r.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    }
    expect(new Set(relayed.map((r) => r.headers['idempotency-key'])).size).toBe(ids.length);
    // the sandbox's log: exactly one delivered attempt per event
    expect(log.filter((d) => d.outcome === 'delivered')).toHaveLength(ids.length);
    expect(log.every((d) => d.outcome === 'delivered' && d.status === 204)).toBe(true);
  }, 60_000);

  it('with the listener stopped for a while and started again on the same port, nothing is lost', async () => {
    expect(await listener.stop()).toBe(0);
    const emitted = (await Promise.all(EVENT_TYPES.map((type) => emit(type, 2)))).flat();
    const ids = emitted.map((e) => e.id);
    // one FIFO queue per destination: the head is retried, the others wait behind it
    await until('failed attempts while it is down', async () => (await deliveries()).filter((d) => ids.includes(d.event_id) && d.outcome === 'retrying').length >= 3);
    listener = await Listener.start(['--port', String(port), '--key-env', 'WEBHOOK_KEY', '--forward-to', app.url], { WEBHOOK_KEY: key });
    await until('every event after the restart', () => ids.every((id) => listener.events.some((e) => e.id === id)));
    const log = await deliveredLog(ids);
    expect(log.filter((d) => d.outcome === 'delivered').map((d) => d.event_id).sort()).toEqual([...ids].sort());
    expect(log.some((d) => d.outcome === 'failed' || d.outcome === 'dropped_overflow' || d.outcome === 'blocked')).toBe(false);
    expect(log.filter((d) => d.outcome === 'retrying').every((d) => d.status === null && /ECONNREFUSED/.test(d.reason))).toBe(true);
    const retried = app.received.filter((r) => ids.includes(r.body.id));
    expect(retried).toHaveLength(ids.length);
    // the head of the queue was retried (X-Delivery-Attempt > 1); the events behind it waited their turn
    expect(retried.some((r) => Number(r.headers['x-delivery-attempt']) > 1)).toBe(true);
    for (const e of listener.events) expectCloudEvent(e);
  }, 60_000);

  it('across a key rotation every delivery is accepted: the previous key within the window, then the new one', async () => {
    const previous = key;
    key = (await cli(['webhook-config', 'regenerate-key', '--yes'])).trim();
    const rotatedAt = Date.now();
    expect(key).not.toBe(previous);
    await listener.stop();
    listener = await Listener.start(
      ['--port', String(port), '--key-env', 'WEBHOOK_KEY', '--previous-key', previous, '--forward-to', app.url],
      { WEBHOOK_KEY: key },
    );
    await until('the previous-key notice', () => listener.stderr.includes('The previous key is accepted for 60 s.'));
    const during = (await Promise.all(EVENT_TYPES.map((type) => emit(type, 1)))).flat().map((e) => e.id);
    await sleep(PROPAGATION_MS + 300);
    const after = (await Promise.all(EVENT_TYPES.map((type) => emit(type, 1)))).flat().map((e) => e.id);
    const ids = [...during, ...after];
    await until('every event across the rotation', () => ids.every((id) => listener.events.some((e) => e.id === id)));
    const log = await deliveredLog(ids);
    expect(log.every((d) => d.outcome === 'delivered')).toBe(true);
    const keyOf = (id: string) => app.received.find((r) => r.body.id === id)!.headers['x-webhook-key'];
    expect(after.map(keyOf)).toEqual(after.map(() => key));
    // the spec allows the previous key until the change has propagated; the listener accepted it
    expect(during.map(keyOf).every((k) => k === previous || k === key)).toBe(true);
    // the sandbox sends the previous key until the rotation has propagated: deliveries made well inside the
    // window carry it (when the machine is slow, every delivery may fall after the window)
    const insideWindow = log.filter((d) => during.includes(d.event_id) && Date.parse(d.at) < rotatedAt + PROPAGATION_MS - 500);
    for (const d of insideWindow) expect(keyOf(d.event_id)).toBe(previous);
    expect(listener.stderr).not.toMatch(/HTTP 401/);
  }, 60_000);
});

describe('SSRF: without --allow-private-webhooks', () => {
  let ssrf: SandboxHarness;
  let target: Server;
  const hits: string[] = [];

  beforeAll(async () => {
    ssrf = await startHarness({ propagationMs: 0 });
    target = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((ok) => target.listen(0, '127.0.0.1', ok));
  }, 60_000);

  afterAll(async () => {
    await new Promise((ok) => target.close(ok));
    await ssrf?.close();
  });

  it('a host name that resolves to 127.0.0.1 gets nothing, and the delivery log says why', async () => {
    const url = `https://localhost:${(target.address() as AddressInfo).port}/hooks`;
    const run = async (args: string[]) => {
      const res = await ssrf.cli(args);
      expect(res.code, res.stderr).toBe(0);
      return res.stdout;
    };
    // host names are not resolved at write time (spec), so the configuration is accepted
    await run(['webhook-config', 'create', '--url', url, '--topics', TOPIC_TYPES.join(',')]);
    await run(['webhook-config', 'enable']);
    const emitted = JSON.parse(await run(['sandbox', 'emit', 'alarm.triggered', '--count', '2', '-o', 'json'])) as { id: string; destinations: number }[];
    expect(emitted.map((e) => e.destinations)).toEqual([1, 1]);
    const ids = emitted.map((e) => e.id);
    let log: any[] = [];
    await until('blocked entries', async () => {
      log = ((await (await fetch(`${ssrf.sandbox.baseUrl}/_sandbox/deliveries`)).json()) as any[]).filter((d) => ids.includes(d.event_id));
      return log.length === 2;
    });
    for (const entry of log) {
      expect(entry).toMatchObject({ type: 'alarm.triggered', url, attempt: 1, status: null, outcome: 'blocked' });
      expect(entry.reason).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), in a blocked range \(loopback\); nothing was sent$/);
    }
    await sleep(300);
    expect((await (await fetch(`${ssrf.sandbox.baseUrl}/_sandbox/deliveries`)).json() as any[]).filter((d) => ids.includes(d.event_id))).toHaveLength(2);
    expect(hits).toEqual([]);
  }, 60_000);
});

describe('webhook listen: a delivery named otherwise than our document', () => {
  // a journey.closed as a service that names its coordinates its own way sends it (the spec leaves them unnamed)
  const journey = {
    id: 'J-1', source: 'https://api.example.com/v1/devices/HW-1', type: 'journey.closed', specversion: '1.0', subject: 'HW-1',
    data: { journeyId: 'J-1', hardwareId: 'HW-1', startUtc: '2026-01-01T08:00:00Z', endUtc: '2026-01-01T09:00:00Z',
      startLat: 52.1, startLon: 4.3, endLat: 52.4, endLon: 4.9, distanceMeters: 41000, durationSeconds: 3600 },
  };
  const post = (port: number) =>
    fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST', headers: { 'content-type': 'application/cloudevents+json', 'x-webhook-key': 'k-e2e' }, body: JSON.stringify(journey),
    });

  it('is acknowledged, printed as sent and named in one warning; --strict refuses it', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const lenient = await Listener.start(['--port', String(port), '--key-env', 'WEBHOOK_KEY', '--max-events', '1'], { WEBHOOK_KEY: 'k-e2e' });
    expect((await post(port)).status).toBe(200);
    expect(await lenient.exit()).toBe(0);
    expect(lenient.events).toEqual([journey]);
    expect(lenient.stderr.split('\n').filter((line) => line.startsWith('Warning:'))).toEqual([
      "Warning: journey.closed J-1 accepted, but it differs from fleetctl's document: data lacks startLatitude, startLongitude, " +
        'endLatitude, endLongitude; data has startLat, startLon, endLat, endLon, which the document does not name',
    ]);
    expect(lenient.stderr).not.toContain('k-e2e');
    const strict = await Listener.start(['--port', String(port), '--key-env', 'WEBHOOK_KEY', '--strict'], { WEBHOOK_KEY: 'k-e2e' });
    expect((await post(port)).status).toBe(400);
    expect(await strict.stop()).toBe(0);
    expect(strict.events).toEqual([]);
    expect(strict.stderr).toContain('Refused POST /hooks: HTTP 400, invalid CloudEvents envelope: data.startLatitude: is required');
  });
});
