// The core of `fleetctl webhook listen`: a local HTTP receiver for webhook deliveries. It checks the shared
// key, limits the body, reads the CloudEvents envelope (refusing only what the spec rules out, unless strict;
// envelope-reading.ts), de-duplicates (spec Delivery rule 3) and can relay each delivery to the user's own app,
// answering with the app's status so the sender retries when the app fails.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLOUDEVENTS_CONTENT_TYPE } from './cloudevents.js';
import { readEnvelope, type ReceivedEnvelope } from './envelope-reading.js';
import { forwardDelivery } from './forward.js';
import { WebhookKeyRing } from './webhook-key.js';
import type { KeyMatch } from './webhook-key.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, serverTimeouts } from '../shared/server-timeouts.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface ReceivedDelivery {
  event: ReceivedEnvelope;
  /** How the delivery differs from the document (unknown type, payload properties ...), each in a few words; none: []. */
  differences: string[];
  /** The body exactly as received. */
  body: string;
  headers: IncomingHttpHeaders;
  idempotencyKey: string | null;
  attempt: number | null;
  keyUsed: KeyMatch;
  /** Status of the app the delivery was relayed to (forwardTo). */
  forwardStatus?: number;
}

export interface RejectedDelivery {
  status: number;
  reason: string;
  method: string;
  path: string;
  eventId?: string;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  key: string;
  previousKey?: string;
  previousKeyGraceMs?: number;
  maxBodyBytes?: number;
  /** Refuse (400, 415) whatever the document's schemas refuse, not only what the spec rules out. */
  strict?: boolean;
  /** URL of the user's app to relay each delivery to. */
  forwardTo?: string;
  forwardTimeoutMs?: number;
  /** Called once per accepted event (never for a duplicate). A throw answers 500, so the sender retries. */
  onEvent?: (delivery: ReceivedDelivery) => void | Promise<void>;
  /** Called for each refused request and each duplicate delivery (status 200). */
  onReject?: (rejection: RejectedDelivery) => void;
  /**
   * Accept at most this many events: a request after the last one is answered 503 (the sender retries later or
   * elsewhere), whatever the connection it comes on; onLimitReached runs once the last answer is sent.
   */
  maxEvents?: number;
  onLimitReached?: () => void;
  /** Envelope ids and Idempotency-Keys remembered for de-duplication (oldest forgotten first). */
  dedupCapacity?: number;
  /** A request whose headers and body have not all arrived by then is answered 408 and its connection closed. */
  requestTimeoutMs?: number;
  now?: () => number;
}

export interface RunningReceiver {
  url: string;
  host: string;
  port: number;
  /** Makes a new key current; the old one stays accepted for previousKeyGraceMs. */
  setKey(newKey: string): void;
  close(): Promise<void>;
}

/** Remembers the most recent `capacity` ids. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}
  has(id: string | null): boolean {
    return id !== null && this.ids.has(id);
  }
  add(id: string | null): void {
    if (id === null) return;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }
}

class HttpRefusal extends Error {
  constructor(readonly status: number, message: string, readonly extraHeaders: Record<string, string> = {}) {
    super(message);
  }
}

/** Counts accepted events, and those being accepted, against an optional maximum. */
class EventLimit {
  private accepted = 0;
  private pending = 0;
  constructor(private readonly max: number | undefined) {}
  full(): boolean {
    return this.max !== undefined && this.accepted >= this.max;
  }
  reserve(): boolean {
    if (this.max !== undefined && this.accepted + this.pending >= this.max) return false;
    this.pending++;
    return true;
  }
  settle(accepted: boolean): void {
    this.pending--;
    if (accepted) this.accepted++;
  }
}

function limitRefusal(max: number): HttpRefusal {
  return new HttpRefusal(503, `this receiver stops after ${max} event(s) and has accepted them all`, { connection: 'close', 'retry-after': '60' });
}

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? null) : null;
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra }).end(JSON.stringify(body));
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function clientLeft(req: IncomingMessage, res: ServerResponse): boolean {
  return (req.destroyed && !req.complete) || res.destroyed;
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpRefusal(413, `the body exceeds ${maxBytes} bytes`, { connection: 'close' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpRefusal(413, `the body exceeds ${maxBytes} bytes`, { connection: 'close' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function startReceiver(opts: ReceiverOptions): Promise<RunningReceiver> {
  const keys = new WebhookKeyRing(opts.key, opts.previousKey, opts.previousKeyGraceMs, opts.now);
  const seen = new RecentIds(opts.dedupCapacity ?? 100_000);
  const inFlight = new Set<string>();
  const limit = new EventLimit(opts.maxEvents);
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (opts.forwardTo !== undefined && !/^https?:$/.test(new URL(opts.forwardTo).protocol)) {
    throw new TypeError('forwardTo must be an http:// or https:// URL');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (limit.full()) throw limitRefusal(opts.maxEvents!);
    if (req.method !== 'POST') throw new HttpRefusal(405, 'only POST is accepted', { allow: 'POST' });
    const keyUsed = keys.check(header(req.headers, 'x-webhook-key') ?? undefined);
    if (!keyUsed) throw new HttpRefusal(401, 'missing or wrong X-Webhook-Key', { connection: 'close' });
    const contentType = (header(req.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (opts.strict && contentType !== CLOUDEVENTS_CONTENT_TYPE) {
      throw new HttpRefusal(415, `expected ${CLOUDEVENTS_CONTENT_TYPE} (CloudEvents structured mode), got "${contentType}"`);
    }
    const raw = await readBody(req, maxBodyBytes);
    let text: string;
    try {
      // JSON is UTF-8 (RFC 8259 8.1): decoded leniently, two ids differing only in invalid bytes would read as one
      text = UTF8.decode(raw);
    } catch {
      throw new HttpRefusal(400, 'the body is not valid UTF-8');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new HttpRefusal(400, 'the body is not valid JSON');
    }
    const reading = await readEnvelope(parsed, { contentType, strict: opts.strict });
    if (!reading.ok) throw new HttpRefusal(400, reading.reason);
    const { event, differences } = reading;
    const idempotencyKey = header(req.headers, 'idempotency-key');
    if (seen.has(event.id) || seen.has(idempotencyKey)) {
      opts.onReject?.({ status: 200, reason: 'duplicate delivery, already accepted', method: 'POST', path: req.url ?? '', eventId: event.id });
      sendJson(res, 200, { status: 'duplicate', id: event.id });
      return;
    }
    if (inFlight.has(event.id)) {
      throw new HttpRefusal(409, 'a delivery of this event is being processed', { 'retry-after': '1' });
    }
    // Events being accepted count against the limit too: concurrent deliveries never overshoot it.
    if (!limit.reserve()) throw limitRefusal(opts.maxEvents!);
    inFlight.add(event.id);
    let accepted = false;
    try {
      accepted = await accept(req, res, { event, differences, raw, keyUsed, idempotencyKey });
    } finally {
      inFlight.delete(event.id);
      limit.settle(accepted);
    }
    if (accepted && limit.full()) res.once('finish', () => opts.onLimitReached?.());
  }

  async function accept(
    req: IncomingMessage,
    res: ServerResponse,
    d: { event: ReceivedEnvelope; differences: string[]; raw: Buffer; keyUsed: KeyMatch; idempotencyKey: string | null },
  ): Promise<boolean> {
    const attemptHeader = header(req.headers, 'x-delivery-attempt');
    const delivery: ReceivedDelivery = {
      event: d.event, differences: d.differences, body: d.raw.toString('utf8'), headers: req.headers, idempotencyKey: d.idempotencyKey,
      attempt: attemptHeader !== null && /^\d+$/.test(attemptHeader) ? Number(attemptHeader) : null, keyUsed: d.keyUsed,
    };
    const relayed = opts.forwardTo === undefined ? undefined : await forwardDelivery(opts.forwardTo, req.headers, d.raw, opts.forwardTimeoutMs ?? 10_000);
    if (relayed && (relayed.status < 200 || relayed.status >= 300)) {
      opts.onReject?.({ status: relayed.status, reason: relayed.reason, method: 'POST', path: req.url ?? '', eventId: d.event.id });
      res.writeHead(relayed.status, relayed.headers).end(relayed.body);
      return false;
    }
    if (relayed) delivery.forwardStatus = relayed.status;
    await opts.onEvent?.(delivery);
    seen.add(d.event.id);
    seen.add(d.idempotencyKey);
    if (relayed) res.writeHead(relayed.status, relayed.headers).end(relayed.body);
    else sendJson(res, 200, { status: 'accepted', id: d.event.id });
    return true;
  }

  const server: Server = createServer(serverTimeouts(opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS), (req, res) => {
    handle(req, res).catch((err: unknown) => {
      // the sender went away mid-request: nobody to answer, and nothing was delivered (it retries), not a failure here
      if (!(err instanceof HttpRefusal) && clientLeft(req, res)) return;
      const refusal = err instanceof HttpRefusal ? err : new HttpRefusal(500, `the receiver failed: ${(err as Error).message}`);
      opts.onReject?.({ status: refusal.status, reason: refusal.message, method: req.method ?? '', path: req.url ?? '' });
      if (!res.headersSent) sendJson(res, refusal.status, { error: refusal.message }, refusal.extraHeaders);
      if (refusal.extraHeaders.connection === 'close') req.resume();
    });
  });
  const host = opts.host ?? '127.0.0.1';
  server.listen(opts.port ?? 0, host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    setKey: (newKey) => keys.rotate(newKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
