// The one undici Agent of the process, with timeouts, tracing and network errors turned into NetworkError.
import type { Dispatcher } from 'undici';
import { toNetworkError } from './network-failure.js';
import { NO_PROXY, createDispatcher, describeProxies, hasProxy, type NetworkSettings } from './dispatcher.js';
import type { Tracer } from './trace.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Opens a streamed GET (downloads); the caller consumes or discards the body. */
  stream(url: string, opts: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<Dispatcher.ResponseData>;
}

export interface TransportOptions {
  timeoutMs: number;
  tracer: Tracer;
  /** Proxies and trusted roots; the defaults: no proxy, Node's roots. */
  network?: NetworkSettings;
  /** Tests pass undici's MockAgent. */
  dispatcher?: Dispatcher;
}

export async function createTransport(opts: TransportOptions): Promise<Transport> {
  // undici is CommonJS: bundled, its dynamic import has only a default export; under Node both forms exist.
  const loaded = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
  const undici = loaded.default ?? loaded;
  const network = opts.network ?? { proxy: NO_PROXY };
  const dispatcher = opts.dispatcher ?? createDispatcher(undici, network);
  if (hasProxy(network.proxy)) opts.tracer.note(`proxy: ${describeProxies(network.proxy)}`);
  const proxyNote = hasProxy(network.proxy) ? describeProxies(network.proxy) : undefined;
  const timeouts = { headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs };
  return {
    async send(request) {
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
        throw toNetworkError(error, request.url, opts.timeoutMs, request.signal, proxyNote);
      }
    },
    async stream(url, streamOpts) {
      try {
        return await undici.request(url, { method: 'GET', headers: streamOpts.headers, signal: streamOpts.signal, dispatcher, ...timeouts });
      } catch (error) {
        throw toNetworkError(error, url, opts.timeoutMs, streamOpts.signal, proxyNote);
      }
    },
  };
}
