// One POST of a CloudEvent with the spec's delivery headers (spec "Delivery headers"), shared by the
// delivery engine (retries, pinning) and `fleetctl webhook trigger` (one sample event to any receiver).
import { nodeCrypto } from '../shared/node-crypto.js';
import type { Dispatcher } from 'undici';
import { readAnswerBody } from './answer-body.js';
import { CLOUDEVENTS_CONTENT_TYPE, sampleEvent } from './cloudevents.js';
import type { EventType, WebhookEvent } from './cloudevents.js';

export const DELIVERY_USER_AGENT = 'fleet-webhooks/1.0';

/** spec: Idempotency-Key is "stable per (event, destination) delivery id"; a UUID-shaped digest of both. */
export function deliveryIdempotencyKey(eventId: string, url: string): string {
  const hex = nodeCrypto().createHash('sha256').update(url).update('\0').update(eventId).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function newTraceId(): string {
  return nodeCrypto().randomBytes(16).toString('hex');
}

/** W3C trace context: one trace per (event, destination), a new parent span id per attempt. */
export function traceparentFor(traceId: string): string {
  return `00-${traceId}-${nodeCrypto().randomBytes(8).toString('hex')}-01`;
}

export interface DeliveryHeaderValues {
  /** The organization's key, sent verbatim. */
  key: string;
  /** 1-based. */
  attempt: number;
  idempotencyKey: string;
  traceparent: string;
}

export function deliveryHeaders(v: DeliveryHeaderValues): Record<string, string> {
  return {
    'content-type': CLOUDEVENTS_CONTENT_TYPE,
    'user-agent': DELIVERY_USER_AGENT,
    'x-webhook-key': v.key,
    'x-delivery-attempt': String(v.attempt),
    'idempotency-key': v.idempotencyKey,
    traceparent: v.traceparent,
  };
}

export type PostOutcome =
  | { status: number; retryAfter?: string; body: string }
  | { error: string; timedOut: boolean };

/**
 * POSTs `body` once; never throws. Redirects are not followed (a 3xx is a failed delivery). Without a status
 * line within `timeoutMs` the attempt timed out; once it came, the status decides: the answer's body is read
 * until that same deadline, cut off there (or at `maxAnswerBytes`, or at an error) and never makes it fail.
 */
export async function postDelivery(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; dispatcher?: Dispatcher; maxAnswerBytes?: number },
): Promise<PostOutcome> {
  // undici on first use: the CLI reads topics and event types from this package at start-up
  const { request } = await import('../shared/undici.js');
  try {
    const res = await request(url, {
      method: 'POST', headers, body, dispatcher: opts.dispatcher, signal: AbortSignal.timeout(opts.timeoutMs),
    });
    const answer = await readAnswerBody(res.body, opts.maxAnswerBytes);
    const retryAfter = res.headers['retry-after'];
    return { status: res.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: answer.toString('utf8') };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return { error: `timed out after ${opts.timeoutMs} ms`, timedOut: true };
    return { error: e.code ?? e.cause?.code ?? e.message ?? String(err), timedOut: false };
  }
}

export interface TriggerOptions {
  /** The receiver's URL (any scheme/host: the user tests their own endpoint). */
  to: string;
  key: string;
  /** {base_url} for the sample's source and dataschema. */
  baseUrl: string;
  timeoutMs?: number;
  hardwareId?: string;
}

export interface TriggerResult {
  event: WebhookEvent;
  headers: Record<string, string>;
  outcome: PostOutcome;
}

/** `fleetctl webhook trigger TYPE --to URL`: one valid sample event, sent as the service would send it. */
export async function triggerSampleEvent(type: EventType, opts: TriggerOptions): Promise<TriggerResult> {
  const event = sampleEvent(type, { baseUrl: opts.baseUrl, hardwareId: opts.hardwareId });
  const headers = deliveryHeaders({
    key: opts.key,
    attempt: 1,
    idempotencyKey: deliveryIdempotencyKey(event.id, opts.to),
    traceparent: traceparentFor(newTraceId()),
  });
  const outcome = await postDelivery(opts.to, JSON.stringify(event), headers, { timeoutMs: opts.timeoutMs ?? 10_000 });
  return { event, headers, outcome };
}
