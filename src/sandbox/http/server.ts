// The request pipeline: latency → fault injection → routing → rate limit → token → scope → handler.
// Every failure leaves as application/problem+json with a stable code; an unexpected exception is a
// 500 internal.error whose stack goes to the log, never to the client.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { parseJsonBody, readBody, type AuthContext, type Reply, type RequestContext } from './context.js';
import { ProblemError, problem } from './problems.js';
import type { Router } from './router.js';
import type { ApiRoute, PublicRoute, SandboxApp } from '../app.js';
import { authenticate, requireScope } from '../auth/bearer.js';
import { delay, type FaultInjector, type RateLimiter } from '../resilience.js';

export type RouteEntry = { kind: 'api'; route: ApiRoute; scope: string } | { kind: 'public'; route: PublicRoute };

export interface PipelineOptions {
  latencyMs: number;
  faults: FaultInjector;
  rateLimiter: RateLimiter | null;
}

export function createRequestHandler(app: SandboxApp, router: Router<RouteEntry>, opts: PipelineOptions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    handle(req, res, app, router, opts)
      .then((reply) => {
        if (reply === null) {
          app.log(`${req.method} ${req.url} dropped (fault injection)`);
          return;
        }
        send(res, reply);
        app.log(`${req.method} ${req.url} ${reply.status} ${Math.round(performance.now() - started)}ms`);
      })
      .catch((err: unknown) => {
        app.log(`sandbox: failed to answer ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
        res.destroy();
      });
  };
}

/** The reply for a request, or null when the connection was dropped on purpose. */
async function handle(req: IncomingMessage, res: ServerResponse, app: SandboxApp, router: Router<RouteEntry>, opts: PipelineOptions): Promise<Reply | null> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  } catch {
    return problemReply(problem(400, 'request.invalid_parameter', 'The request target is not a valid URL.'));
  }
  const isControl = url.pathname.startsWith('/_sandbox/');
  if (!isControl && opts.latencyMs > 0) await delay(opts.latencyMs);
  if (url.pathname.startsWith('/v1/')) {
    // contract: injected faults happen before anything else, so retrying them is always safe
    const fault = opts.faults.next();
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
  try {
    const match = router.match(req.method ?? 'GET', url.pathname);
    const ctx = makeContext(req, url, match.params);
    const entry = match.route.handler;
    if (entry.kind === 'public') return await entry.route.handler(ctx, app);
    ctx.auth = authorize(req, app, entry.scope, opts.rateLimiter);
    return await entry.route.handler({ ...ctx, auth: ctx.auth }, app);
  } catch (err) {
    if (err instanceof ProblemError) return problemReply(err);
    app.log(`sandbox: internal error on ${req.method} ${url.pathname}: ${(err as Error)?.stack ?? String(err)}`);
    return problemReply(problem(500, 'internal.error', 'An unexpected error occurred in the sandbox.'));
  }
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
    jsonBody: async () => parseJsonBody(req, await rawBody()),
  };
}

/** A request Node's HTTP parser refused (bad request line, oversized headers): still problem+json. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (err.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(problem(tooLarge ? 431 : 400, 'request.malformed', tooLarge ? 'The request headers are too large.' : 'The request is not valid HTTP.').toBody());
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `content-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function problemReply(err: ProblemError): Reply {
  return {
    status: err.status,
    headers: { ...(err.extras.headers ?? {}), 'content-type': 'application/problem+json' },
    json: err.toBody(),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let body: Buffer | undefined;
  if (reply.json !== undefined) {
    body = Buffer.from(JSON.stringify(reply.json), 'utf8');
    headers['content-type'] ??= 'application/json';
  } else if (reply.body !== undefined) {
    body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body, 'utf8');
  }
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(reply.status, headers);
  res.end(body);
}
