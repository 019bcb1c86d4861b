// The one undici Agent of the process, with timeouts, tracing and network errors turned into NetworkError.
import type { Dispatcher } from 'undici';
import { NetworkError, UsageError } from '../errors.js';
import type { Tracer } from './trace.js';
import { noActivity, type Activity } from '../io/spinner.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** What the spinner says while waiting for the answer (default: the method and path). */
  label?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Opens a streamed GET (downloads); the caller consumes or discards the body. */
  stream(url: string, opts: { headers?: Record<string, string>; signal?: AbortSignal; label?: string }): Promise<Dispatcher.ResponseData>;
}

export interface TransportOptions {
  timeoutMs: number;
  tracer: Tracer;
  /** Tests pass undici's MockAgent. */
  dispatcher?: Dispatcher;
  /** Every request under way is a wait a person may see (a token fetch, a download's first bytes). */
  activity?: Activity;
}

export async function createTransport(opts: TransportOptions): Promise<Transport> {
  // undici is CommonJS: bundled, its dynamic import has only a default export; under Node both forms exist.
  const loaded = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
  const undici = loaded.default ?? loaded;
  const dispatcher = opts.dispatcher ?? new undici.Agent({ keepAliveTimeout: 10_000, connections: 64 });
  const timeouts = { headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs };
  const activity = opts.activity ?? noActivity;
  return {
    send: (request) => activity.during(request.label ?? requestLabel(request.method, request.url), () => send(request), request.signal),
    stream: (url, streamOpts) => activity.during(streamOpts.label ?? requestLabel('GET', url), () => stream(url, streamOpts), streamOpts.signal),
  };

  async function send(request: HttpRequest): Promise<HttpResponse> {
    const started = Date.now();
    const contentType = request.headers['content-type'];
    opts.tracer.request(request.method, request.url, request.headers, request.body, contentType);
    try {
      const answer = await undici.request(request.url, {
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        dispatcher,
        signal: request.signal,
        ...timeouts,
      });
      const text = await answer.body.text();
      opts.tracer.response(request.method, request.url, answer.statusCode, Date.now() - started, answer.headers);
      return { status: answer.statusCode, headers: answer.headers, text };
    } catch (error) {
      opts.tracer.failure(request.method, request.url, Date.now() - started, error as Error);
      throw toNetworkError(error, request.url, opts.timeoutMs, request.signal);
    }
  }

  async function stream(url: string, streamOpts: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<Dispatcher.ResponseData> {
    try {
      return await undici.request(url, { method: 'GET', headers: streamOpts.headers, signal: streamOpts.signal, dispatcher, ...timeouts });
    } catch (error) {
      throw toNetworkError(error, url, opts.timeoutMs, streamOpts.signal);
    }
  }
}

/** `GET /v1/devices`: what --debug would show, without the query (it can be long) or the host. */
export function requestLabel(method: string, url: string): string {
  try {
    return `${method} ${new URL(url).pathname}`;
  } catch {
    return method;
  }
}

const LOST_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export function toNetworkError(error: unknown, url: string, timeoutMs: number, signal?: AbortSignal): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : (error as Error);
  const code = networkErrorCode(error);
  const origin = safeOrigin(url);
  // the client refused to send what it was given: nothing went out, and a retry would refuse it again
  if (code === 'UND_ERR_INVALID_ARG') return new UsageError(`the request to ${origin} cannot be sent: ${(error as Error).message}`);
  if (code && TIMEOUT_CODES.has(code)) {
    const failure = new NetworkError(`request to ${origin} timed out after ${timeoutMs / 1000} s`, 'raise --timeout, or check the service status');
    (failure as NetworkError & { code?: string }).code = code;
    return failure;
  }
  const reason = code ?? (error as Error)?.message ?? 'unknown error';
  // A connection lost after the request went out may or may not have been acted on: say so.
  const failure = LOST_CONNECTION_CODES.has(code ?? '')
    ? new NetworkError(`the connection to ${origin} was lost before an answer came (${reason})`, 'the request may or may not have been processed; retry it (idempotent requests are safe to repeat)')
    : new NetworkError(`could not reach ${origin} (${reason})`, 'check the base URL and your network connection');
  (failure as NetworkError & { code?: string }).code = code;
  return failure;
}

export function networkErrorCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

/** Connection-level failures are safe to retry for idempotent requests; timeouts are not retried. */
export function isRetryableNetworkError(error: unknown): boolean {
  if (!(error instanceof NetworkError)) return false;
  const code = (error as NetworkError & { code?: string }).code;
  return code === undefined || !TIMEOUT_CODES.has(code);
}

function safeOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
