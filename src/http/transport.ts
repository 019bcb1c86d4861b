// The one undici Agent of the process, with timeouts, tracing, network errors turned into NetworkError, and
// redirects followed or refused (http/redirects.ts, by shared/redirect.ts's decision).
import type { Dispatcher } from 'undici';
import { toNetworkError } from './network-failure.js';
import { NO_PROXY, createDispatcher, describeProxies, hasProxy, type NetworkSettings } from './dispatcher.js';
import type { Tracer } from './trace.js';
import { noActivity, type Activity } from '../io/spinner.js';
import { followRedirects, type Hop } from './redirects.js';

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
  /**
   * Opens a streamed GET of a download (a signed URL: no credentials of ours); the caller consumes or discards the
   * body. Its redirects are followed to any origin, without credentials.
   */
  stream(url: string, opts: { headers?: Record<string, string>; signal?: AbortSignal; label?: string }): Promise<Dispatcher.ResponseData>;
}

export interface TransportOptions {
  timeoutMs: number;
  tracer: Tracer;
  /** Proxies and trusted roots; the defaults: no proxy, Node's roots. */
  network?: NetworkSettings;
  /** Tests pass undici's MockAgent. */
  dispatcher?: Dispatcher;
  /** Every request under way is a wait a person may see (a token fetch, a download's first bytes). */
  activity?: Activity;
}

export async function createTransport(opts: TransportOptions): Promise<Transport> {
  const undici = await import('../shared/undici.js');
  const network = opts.network ?? { proxy: NO_PROXY };
  const dispatcher = opts.dispatcher ?? (await createDispatcher(undici, network));
  const proxyNote = hasProxy(network.proxy) ? describeProxies(network.proxy) : undefined;
  if (proxyNote) opts.tracer.note(`proxy: ${proxyNote}`);
  const timeouts = { headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs };
  const activity = opts.activity ?? noActivity;
  const note = (message: string) => opts.tracer.note(message);
  return {
    send: (request) => activity.during(request.label ?? requestLabel(request.method, request.url), () => send(request), request.signal),
    stream: (url, streamOpts) => activity.during(streamOpts.label ?? requestLabel('GET', url), () => stream(url, streamOpts), streamOpts.signal),
  };

  function send(request: HttpRequest): Promise<HttpResponse> {
    return followRedirects({ method: request.method, url: request.url, headers: request.headers }, false, (hop) => sendOnce({ ...request, ...hop }), undefined, note);
  }

  async function stream(url: string, streamOpts: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<Dispatcher.ResponseData> {
    const first: Hop = { method: 'GET', url, headers: streamOpts.headers ?? {} };
    const open = async (hop: Hop) => {
      const data = await streamOnce(hop, streamOpts.signal);
      return { status: data.statusCode, headers: data.headers, data };
    };
    return (await followRedirects(first, true, open, (answer) => answer.data.body.dump(), note)).data;
  }

  async function sendOnce(request: HttpRequest): Promise<HttpResponse> {
    const started = Date.now();
    opts.tracer.request(request.method, request.url, request.headers, request.body, request.headers['content-type']);
    try {
      const answer = await undici.request(request.url, {
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        dispatcher,
        signal: request.signal,
        ...timeouts,
      });
      const text = await readText(answer.body);
      opts.tracer.response(request.method, request.url, answer.statusCode, Date.now() - started, answer.headers);
      return { status: answer.statusCode, headers: answer.headers, text };
    } catch (error) {
      opts.tracer.failure(request.method, request.url, Date.now() - started, error as Error);
      throw toNetworkError(error, request.url, opts.timeoutMs, request.signal, proxyNote);
    }
  }

  async function streamOnce(hop: Hop, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
    try {
      return await undici.request(hop.url, { method: 'GET', headers: hop.headers, signal, dispatcher, ...timeouts });
    } catch (error) {
      throw toNetworkError(error, hop.url, opts.timeoutMs, signal, proxyNote);
    }
  }
}

/**
 * The whole body as text. Not `body.text()`: the promise it returns stays reachable from the body stream until
 * undici destroys the stream on a later turn of the event loop, and holds the text that long. A page of 500
 * devices then outlives its parse, is moved to the old generation, and waits for a full collection: paging
 * every device peaked ~25 MB higher with it.
 */
async function readText(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `GET /v1/devices`: what --debug would show, without the query (it can be long) or the host. */
export function requestLabel(method: string, url: string): string {
  return URL.canParse(url) ? `${method} ${new URL(url).pathname}` : method;
}
