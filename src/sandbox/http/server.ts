// The request pipeline: latency → routing → random faults (--fault-rate) → targeted faults → rate limit →
// token → scope → handler. Every failure leaves as application/problem+json with a stable code; an unexpected
// exception is a 500 internal.error whose stack goes to the log, never to the client. API and token requests
// are journalled (GET /_sandbox/requests) once answered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { IncompleteRequestError, parseJsonBody, readBody, type AuthContext, type RequestContext } from '../common/context.js';
import type { Reply } from '../common/reply.js';
import { ProblemError, problem, problemReply } from '../common/problems.js';
import { Exchange } from './exchange.js';
import type { Router } from './router.js';
import type { ApiRoute, PublicRoute, RouteEntry, SandboxApp } from '../app.js';
import { authenticate, requireScope } from '../auth/bearer.js';
import { delay, type FaultInjector, type RateLimiter } from '../resilience.js';
import { describeAnswer, faultErrorReply, malformedBody } from '../faults/answer.js';
import { TOKEN_OPERATION_ID } from '../faults/rules.js';
import { StateNotSavedError } from '../store/state-errors.js';

export interface PipelineOptions {
  latencyMs: number;
  faults: FaultInjector;
  rateLimiter: RateLimiter | null;
  /** Runs a request's work on the state when the state is shared with other processes (store/state-turns.ts). */
  turn?: <T>(work: () => Promise<T>) => Promise<T>;
}

interface Wire {
  status: number;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

// The response in flight on each connection, and the connections answered 408 because their request stalled.
const inFlight = new WeakMap<Duplex, ServerResponse>();
const timedOut = new WeakSet<Duplex>();

export function createRequestHandler(app: SandboxApp, router: Router<RouteEntry>, opts: PipelineOptions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    inFlight.set(req.socket, res);
    const exchange = new Exchange(req, app.now());
    answer(req, res, app, router, opts, exchange).catch((err: unknown) => {
      app.log(`sandbox: failed to answer ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
      res.destroy();
    });
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, app: SandboxApp, router: Router<RouteEntry>, opts: PipelineOptions, exchange: Exchange): Promise<void> {
  let reply: Reply | null | undefined;
  try {
    reply = await handle(req, app, router, opts, exchange);
  } catch (err) {
    if (!(err instanceof IncompleteRequestError)) throw err;
  }
  if (reply === undefined || (req.destroyed && !req.complete)) return recordIncomplete(req, app, exchange);
  if (reply === null) {
    app.log(`${req.method} ${req.url} dropped (fault injection)`);
    if (exchange.journaled) app.journal.record(await exchange.entry(null, 'dropped'));
    return;
  }
  const wire = serialize(reply);
  // a HEAD answer has no body to damage, and none goes out (Node drops it) nor into the journal
  const sentBody = req.method === 'HEAD' ? undefined : wire.body;
  const damage = sentBody?.length ? exchange.damage : null;
  if (damage === 'truncated') sendTruncated(res, wire);
  else send(res, damage === 'malformed' ? { ...wire, body: malformedBody(wire.body!) } : wire);
  app.log(`${req.method} ${req.url} ${reply.status} ${exchange.elapsedMs()}ms${damage ? ` (${damage} body)` : ''}`);
  if (exchange.journaled) {
    app.journal.record(await exchange.entry(wire.status, damage ?? 'answered', { body: sentBody, type: wire.headers['content-type'] }));
  }
}

/** A request whose client left mid-request (aborted), or that stalled and was answered 408 (timed_out): not a 500. */
async function recordIncomplete(req: IncomingMessage, app: SandboxApp, exchange: Exchange): Promise<void> {
  const stalled = timedOut.has(req.socket);
  app.log(`${req.method} ${req.url} ${stalled ? 'timed out (408): the request was not complete in time' : 'aborted: the client left before its request was complete'}`);
  if (exchange.journaled) app.journal.record(await exchange.entry(stalled ? 408 : null, stalled ? 'timed_out' : 'aborted'));
}

/** The reply for a request, or null when the connection was dropped on purpose. */
async function handle(req: IncomingMessage, app: SandboxApp, router: Router<RouteEntry>, opts: PipelineOptions, exchange: Exchange): Promise<Reply | null> {
  let url: URL;
  try {
    url = requestUrl(req.url ?? '/');
  } catch {
    return problemReply(problem(400, 'request.invalid_parameter', 'The request target is not a valid URL.'));
  }
  if (!url.pathname.startsWith('/_sandbox/') && opts.latencyMs > 0) await delay(opts.latencyMs);
  let match: ReturnType<Router<RouteEntry>['match']> | null = null;
  let routeError: unknown;
  try {
    match = router.match(req.method ?? 'GET', url.pathname);
  } catch (err) {
    routeError = err;
  }
  const ctx = makeContext(req, url, match?.params ?? {});
  await exchange.identify(ctx, match?.route.handler ?? null, app);
  const faulted = await injectFault(req, url, app, opts, exchange);
  if (faulted !== undefined) return faulted;
  try {
    if (!match) throw routeError;
    const entry = match.route.handler;
    const work = async () => {
      // devices whose downtime after a command is over have reported again by now (telemetry/device-returns.ts)
      app.returns.settle(app.world, app.now().getTime());
      if (entry.kind === 'public') return await kept(req, app, await entry.route.handler(ctx, app));
      ctx.auth = authorize(req, app, entry.scope, opts.rateLimiter);
      return await kept(req, app, await entry.route.handler({ ...ctx, auth: ctx.auth }, app));
    };
    return await (opts.turn ? opts.turn(work) : work());
  } catch (err) {
    if (err instanceof ProblemError) return problemReply(err);
    if (err instanceof IncompleteRequestError) throw err;
    app.log(`sandbox: internal error on ${req.method} ${url.pathname}: ${(err as Error)?.stack ?? String(err)}`);
    return problemReply(problem(500, 'internal.error', 'An unexpected error occurred in the sandbox.'));
  }
}

/**
 * Acknowledged means kept: a request that may have changed the state is answered once every change is on the disk
 * (a replay too: what it replays must be kept); when that fails, 503 instead of what the handler answered, so the
 * client retries (with its Idempotency-Key, a replay) rather than trusting what a restart would forget.
 */
async function kept(req: IncomingMessage, app: SandboxApp, reply: Reply): Promise<Reply> {
  if (req.method === 'GET' || req.method === 'HEAD') return reply;
  try {
    await app.durable();
    return reply;
  } catch (err) {
    if (!(err instanceof StateNotSavedError)) throw err;
    return problemReply(problem(503, 'service.unavailable', `The sandbox could not save its state (${err.reason.message}); nothing was acknowledged. Retry shortly.`, {
      headers: { 'retry-after': '1' },
    }));
  }
}

/**
 * The request target as a URL. An origin-form target is appended to the origin, not resolved against it: resolved,
 * '//x/v1/fleets' would name host x and path /v1/fleets, and be served as /v1/fleets.
 */
function requestUrl(target: string): URL {
  return target.startsWith('/') ? new URL(`http://sandbox.invalid${target}`) : new URL(target, 'http://sandbox.invalid');
}

/**
 * contract: injected faults happen before anything is carried out, so retrying them is always safe (except a
 * damaged body, which by design arrives after the work is done). A reply, null for a dropped connection, or
 * undefined to go on.
 */
async function injectFault(req: IncomingMessage, url: URL, app: SandboxApp, opts: PipelineOptions, exchange: Exchange): Promise<Reply | null | undefined> {
  if (url.pathname.startsWith('/v1/')) {
    const fault = opts.faults.next();
    if (fault !== 'none') exchange.fault = 'fault-rate';
    if (fault === 'drop') {
      req.socket.destroy();
      return null;
    }
    if (fault === 'unavailable') {
      return problemReply(problem(503, 'service.unavailable', 'The service is temporarily unavailable (injected fault); retry shortly.', {
        headers: { 'retry-after': '1' },
      }));
    }
  }
  if (!exchange.journaled) return undefined;
  const rule = app.faults.take(exchange.facts);
  if (!rule) return undefined;
  exchange.fault = rule.id;
  const answer = rule.respond;
  app.log(`fault ${rule.id}: ${req.method} ${url.pathname} ${describeAnswer(answer)} (hit ${rule.hits}${rule.times === null ? '' : ` of ${rule.times}`})`);
  if (answer.delay_ms) await delay(answer.delay_ms);
  if (answer.drop) {
    req.socket.destroy();
    return null;
  }
  if (answer.status !== undefined) {
    // nothing is carried out, but the journal still shows what the client sent
    await exchange.readBody().catch(() => undefined);
    return faultErrorReply(rule, exchange.facts.operationId, exchange.facts.operationId === TOKEN_OPERATION_ID);
  }
  exchange.damage = answer.body ?? null;
  return undefined;
}

function authorize(req: IncomingMessage, app: SandboxApp, scope: string, limiter: RateLimiter | null): AuthContext {
  let record: ReturnType<typeof authenticate> | undefined;
  let authError: unknown;
  try {
    record = authenticate(req.headers.authorization, app.tokens);
  } catch (err) {
    authError = err;
  }
  if (limiter) {
    // the bucket is per client; requests without a valid token share one per remote address
    const decision = limiter.take(record ? `client:${record.client_id}` : `addr:${req.socket.remoteAddress}`);
    if (!decision.allowed) {
      throw problem(429, 'rate_limit.exceeded', `Rate limit exceeded; retry after ${decision.retryAfterSeconds} s.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    }
  }
  if (!record) throw authError;
  requireScope(record, scope);
  return {
    clientId: record.client_id,
    organizationId: record.organization_id,
    scopes: new Set(record.scopes),
    tenant: app.tenants.forOrganization(record.organization_id),
  };
}

function makeContext(req: IncomingMessage, url: URL, params: Record<string, string>): RequestContext {
  let raw: Promise<Buffer> | undefined;
  const rawBody = () => (raw ??= readBody(req));
  return {
    req,
    method: req.method ?? 'GET',
    url,
    params,
    query: url.searchParams,
    auth: null,
    rawBody,
    readBodyIfRead: async () => (raw ? raw.catch(() => undefined) : undefined),
    jsonBody: async () => parseJsonBody(req, await rawBody()),
  };
}

/**
 * A request Node's HTTP server refused (bad request line, oversized headers) or timed out (SandboxOptions
 * requestTimeoutMs): still problem+json. A client that left, or a connection whose answer has begun, gets nothing.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const res = inFlight.get(socket);
  const answering = res !== undefined && res.headersSent && !res.writableFinished;
  if (!socket.writable || answering || err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE') {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = CLIENT_ERRORS[err.code ?? ''] ?? CLIENT_ERRORS.default!;
  if (status === 408) timedOut.add(socket);
  const body = JSON.stringify(problem(status, status === 408 ? 'request.timeout' : 'request.malformed', detail).toBody());
  // ended, then closed: a stalled client may never close its side, and the request in flight must learn it is over
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not complete in time; send it whole, without pausing.'],
  default: [400, 'Bad Request', 'The request is not valid HTTP.'],
};

function serialize(reply: Reply): Wire {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let body: Buffer | undefined;
  if (reply.json !== undefined) {
    body = Buffer.from(JSON.stringify(reply.json), 'utf8');
    headers['content-type'] ??= 'application/json';
  } else if (reply.body !== undefined) {
    body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body, 'utf8');
  }
  if (body) headers['content-length'] = String(body.length);
  return { status: reply.status, headers, body };
}

function send(res: ServerResponse, wire: Wire): void {
  if (res.headersSent) return;
  if (wire.body) wire.headers['content-length'] = String(wire.body.length);
  res.writeHead(wire.status, wire.headers);
  res.end(wire.body);
}

/** The status line, the headers (announcing the whole length) and half the body, then the connection closes. */
function sendTruncated(res: ServerResponse, wire: Wire): void {
  res.writeHead(wire.status, wire.headers);
  res.write(wire.body!.subarray(0, Math.floor(wire.body!.length / 2)), () => res.destroy());
}
