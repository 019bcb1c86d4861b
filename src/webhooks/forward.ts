// Relaying a received delivery to the user's own app (`webhook listen --forward-to`), with the same headers
// and body, and bringing back the app's answer.
import type { IncomingHttpHeaders } from 'node:http';
import { readAnswerBody } from './answer-body.js';

export interface RelayedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Why the relay is not a success, for the receiver's log. */
  reason: string;
}

// RFC 9110 §7.6.1 hop-by-hop fields, and the ones the HTTP client sets itself for the new connection
const NOT_RELAYED = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect',
]);
const ANSWER_HEADERS = ['content-type', 'retry-after'];

/**
 * POSTs the delivery to `url`; an unreachable app is a 502, one whose status line does not come in time a 504.
 * Once the status came it is the answer: the app's body is relayed as far as it came by the deadline.
 */
export async function forwardDelivery(
  url: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
  timeoutMs: number,
): Promise<RelayedAnswer> {
  // undici on first use: the CLI reads topics and event types from this package at start-up
  const { request } = await import('../shared/undici.js');
  try {
    const res = await request(url, {
      method: 'POST',
      headers: Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !NOT_RELAYED.has(name))),
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = await readAnswerBody(res.body);
    const kept: Record<string, string> = {};
    for (const name of ANSWER_HEADERS) {
      const v = res.headers[name];
      if (typeof v === 'string') kept[name] = v;
    }
    return { status: res.statusCode, headers: kept, body: answer, reason: `the app at ${url} answered ${res.statusCode}` };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    const reason = timedOut
      ? `the app at ${url} did not answer within ${timeoutMs} ms`
      : `the app at ${url} is unreachable (${e.code ?? e.message ?? String(err)})`;
    const status = timedOut ? 504 : 502;
    return {
      status,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ error: reason })),
      reason,
    };
  }
}
