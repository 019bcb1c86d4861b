// The API client: one scope per call, bearer tokens, retries for requests safe to repeat, problem+json errors.
import { ApiError, UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { checkRequestFits } from './request-limits.js';
import type { Clock } from '../io/clock.js';
import type { TokenSource } from '../auth/tokens.js';
import { toApiError, headerValue } from './problem.js';
import { isSafeToRepeat, isSafeToRepeatAfterTimeout, type RetryPolicy } from '../shared/retry.js';
import type { Tracer } from '../http/trace.js';
import { noActivity, type Activity, type ActivityTask } from '../io/spinner.js';
import type { HttpResponse, Transport } from '../http/transport.js';
import { sendWithRetries, type Exchange } from '../http/retry-loop.js';
import { paginate, type Page, type PageOptions, type Pager } from './paginate.js';
import { hasList, styledHeaderValue, styledPathValue, styledQuery, type HeaderValue, type ParameterStyles, type QueryValue } from './parameter-style.js';
import type { CallArguments, CallOptions, ListOperationId, OperationId } from '../openapi/operation-types.js';

export type { QueryValue } from './parameter-style.js';

/** What a call sends, before the document's types apply: the shape every CallOptions<Id> fits. */
interface UntypedOptions {
  pathParams?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, HeaderValue>;
  signal?: AbortSignal;
}

export interface RawRequest extends Omit<UntypedOptions, 'pathParams' | 'headers'> {
  headers?: Record<string, string>;
  method: string;
  /** A path below the base URL, such as /v1/devices/123 (already expanded). */
  path: string;
  scope: string;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface OperationInfo {
  method: string;
  path: string;
  scope: string;
}

export interface ApiClientDeps {
  baseUrl: string;
  transport: Transport;
  tokens: TokenSource;
  clock: Clock;
  tracer: Tracer;
  retry: RetryPolicy;
  operation: (operationId: OperationId) => OperationInfo;
  /** Told about each 429 and its wait, so bulk work can slow down. */
  onRateLimited?: (waitMs: number) => void;
  /** Awaited before every attempt (retries included), so bulk work can pace its requests. */
  throttle?: (signal?: AbortSignal) => Promise<void>;
  /** Aborts every call that passes no signal of its own (Ctrl-C, stdout closed). */
  signal?: AbortSignal;
  /** A call is one wait for a person, from its token to its last retry: one spinner for all of it. */
  activity?: Activity;
  /**
   * Whether the service's own API document has this operation: false only when it serves one that lacks it
   * (undefined when there is none to ask). Asked after a 404 only, to say why.
   */
  offers?: (method: string, pathTemplate: string) => Promise<boolean | undefined>;
  /**
   * How the document in use writes the parameters of an operation (style, explode): asked for a query holding a
   * list, and after a 404 without a problem code of a request with a path parameter (callOperation says why).
   */
  parameterStyles?: (method: string, pathTemplate: string) => Promise<ParameterStyles>;
  /**
   * True once the document in use is loaded in this process (a command that checked its request, read record
   * shapes or a report time): its path styles then cost nothing and apply from the first request.
   */
  documentAtHand?: () => boolean;
}

export class ApiClient {
  constructor(private readonly deps: ApiClientDeps) {}

  get baseUrl(): string {
    return this.deps.baseUrl;
  }

  get retryPolicy(): RetryPolicy {
    return this.deps.retry;
  }

  /** The same client (transport, tokens) with other retries or rate-limit hooks, for bulk work. */
  derive(overrides: Partial<Pick<ApiClientDeps, 'retry' | 'onRateLimited' | 'throttle'>>): ApiClient {
    return new ApiClient({ ...this.deps, ...overrides });
  }

  /** A token for one scope, for `auth token` and tools outside fleetctl. */
  accessToken(scope: string): Promise<string> {
    return this.deps.tokens.accessToken(scope);
  }

  /**
   * Calls an operation of the OpenAPI document by its operationId; its scope comes from the document. The request
   * is typed by the document; the answer is `unknown`, as a list's records are: the spec leaves every record's
   * fields unshown, and src/records/ reads what a caller needs of it.
   */
  async call<Id extends OperationId>(operationId: Id, ...[options]: CallArguments<Id>): Promise<ApiResponse> {
    return this.callOperation(operationId, options ?? {});
  }

  /**
   * A list operation as a pager over its items. The spec leaves every record's fields unshown: an item is
   * `unknown` until the record boundary (src/records/) reads it, never typed as the bundled document guesses.
   */
  list<Id extends ListOperationId>(operationId: Id, options: CallOptions<Id>, paging: PageOptions): Pager<unknown> {
    return paginate(async (cursor, limit) => (await this.callOperation(operationId, options, { cursor, limit })).body as Page<unknown>, paging);
  }

  /**
   * One request of an operation, its parameters written as the document in use says (parameter-style.ts). The
   * document is asked up front for a query holding a list, and for a path parameter when the document is already
   * at hand. Otherwise a path parameter is written simple (OpenAPI's default) until the service does not know the
   * path: loading the document for every call would cost a request to the service on each one (bench/latency.mjs),
   * and a path written in another style (label, matrix) is answered a 404 that names no problem code (no route took
   * it). Then, when the document does give a path parameter another style, the request is sent once more so written.
   */
  private async callOperation(operationId: OperationId, options: UntypedOptions, paging?: Record<string, QueryValue>): Promise<ApiResponse> {
    const op = this.deps.operation(operationId);
    const upFront = hasList(options.query) || (op.path.includes('{') && this.deps.documentAtHand?.() === true);
    const styles = this.deps.parameterStyles && upFront ? await this.deps.parameterStyles(op.method, op.path) : undefined;
    const first = this.toRequest(op, options, styles, paging);
    try {
      return await this.request(first);
    } catch (error) {
      const again = styles ? undefined : await this.restyledAfter(error, op, options, paging);
      if (!again) return this.explainNotFound(error, operationId);
      return this.request(again).catch((second: unknown) => this.explainNotFound(second, operationId));
    }
  }

  /** The request again with its path written in the document's styles, when a 404 may be for its form; else undefined. */
  private async restyledAfter(error: unknown, op: OperationInfo, options: UntypedOptions, paging?: Record<string, QueryValue>): Promise<RawRequest | undefined> {
    // a 404 the service's own handler answered (a problem naming its code) is about the resource, not the path's form
    if (!(error instanceof ApiError) || error.status !== 404 || error.code !== undefined || !op.path.includes('{') || !this.deps.parameterStyles) return undefined;
    const request = this.toRequest(op, options, undefined, paging);
    if (!isSafeToRepeat(request.method, request.headers ?? {})) return undefined;
    const styles = await this.deps.parameterStyles(op.method, op.path).catch(() => undefined);
    const restyled = styles && this.toRequest(op, options, styles, paging);
    return restyled && restyled.path !== request.path ? restyled : undefined;
  }

  /**
   * A 404 for a collection the service's own document does not have says so: the spec leaves the paths of
   * vehicles, journeys, organizations and more unshown, and fleetctl's come from its bundled document. Only a
   * path without parameters is asked about: elsewhere a 404 is, far more often, a resource that is not there.
   */
  private async explainNotFound(error: unknown, operationId: OperationId): Promise<never> {
    // one with a hint already (a base URL ending in /v1, say) has its explanation
    if (!(error instanceof ApiError) || error.status !== 404 || error.hint !== undefined || !this.deps.offers) throw error;
    const op = this.deps.operation(operationId);
    if (op.path.includes('{')) throw error;
    const offered = await this.deps.offers(op.method, op.path).catch(() => undefined);
    if (offered !== false) throw error;
    throw new ApiError({
      status: error.status,
      problem: error.problem,
      retryAfter: error.retryAfter,
      message: error.message,
      hint: `the service's API document lists no ${op.method} ${op.path}: fleetctl's path comes from its bundled document (the spec does not show every path); \`fleetctl api --list\` shows what this service offers`,
    });
  }

  /** Explicitly untyped: a request by method and path, for `fleetctl api` and tests of the transport. */
  request(raw: RawRequest): Promise<ApiResponse> {
    const request = { ...raw, signal: raw.signal ?? this.deps.signal };
    checkRequestFits({ path: request.path, query: queryEntries(request.query), headers: request.headers ?? {} });
    const label = `${request.method} ${request.path}`;
    return (this.deps.activity ?? noActivity).during(label, (task) => this.send(request, label, task), request.signal);
  }

  /** The request of an operation: its query and path in the styles given (none: lists repeated, paths simple), `paging` added. */
  private toRequest(op: OperationInfo, { pathParams, ...options }: UntypedOptions, styles: ParameterStyles | undefined, paging?: Record<string, QueryValue>): RawRequest {
    const styled = styles && options.query ? styledQuery(options.query, styles.query) : options.query;
    const query = paging ? { ...styled, ...paging } : styled;
    const headers = options.headers && Object.fromEntries(Object.entries(options.headers).map(([name, value]) => [name, styledHeaderValue(value)]));
    return { ...options, query, headers, method: op.method, path: expandPath(op.path, pathParams ?? {}, styles?.path), scope: op.scope };
  }

  private async send(request: RawRequest, label: string, task: ActivityTask): Promise<ApiResponse> {
    const url = this.deps.baseUrl + request.path + queryString(request.query);
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    // a request that is not safe to repeat gets no retry, but still the reason not to wait for a long Retry-After
    const policy = isSafeToRepeat(request.method, headers) ? this.deps.retry : { ...this.deps.retry, maxRetries: 0 };
    const { clock, tracer, onRateLimited } = this.deps;
    const exchange = this.exchangeWithFreshToken(request, url, headers, body);
    const retryTimeouts = isSafeToRepeatAfterTimeout(request.method, headers);
    const { response, retryAfterMs, gaveUp } = await sendWithRetries(exchange, { policy, retryTimeouts, clock, tracer, signal: request.signal, onRateLimited, activity: { task, label } });
    if (gaveUp?.reason === 'wait-too-long') throw this.tooLongToWait(response, url, retryAfterMs!, request.scope);
    // the transport has followed the redirects it may (same origin, 307/308, a request that may be repeated)
    if (response.status >= 300) throw toApiError(response, url, retryAfterMs, request.scope);
    return { status: response.status, headers: response.headers, body: parseBody(response) };
  }

  /** The request as the retry loop sends it: a token and the pacing before each attempt, then the request. */
  private exchangeWithFreshToken(request: RawRequest, url: string, headers: Record<string, string>, body: string | undefined): Exchange<string> {
    let refreshedToken = false;
    return {
      prepare: async () => {
        const token = await this.deps.tokens.accessToken(request.scope);
        await this.deps.throttle?.(request.signal);
        return token;
      },
      send: (token) => this.deps.transport.send({ method: request.method, url, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal: request.signal }),
      sendAgain: (response, token) => {
        if (response.status !== 401) return false;
        // spec: an expired or revoked token is a 401; fetch a fresh one once and try again once. A refused
        // token is never kept, so the next command does not start with it either.
        this.deps.tokens.invalidate(request.scope, token);
        if (refreshedToken) return false;
        refreshedToken = true;
        return true;
      },
    };
  }

  private tooLongToWait(response: HttpResponse, url: string, retryAfterMs: number, scope: string): ApiError {
    const base = toApiError(response, url, retryAfterMs, scope);
    const when = new Date(this.deps.clock.now().getTime() + retryAfterMs);
    return new ApiError({
      status: base.status,
      problem: base.problem,
      retryAfter: base.retryAfter,
      message: `${base.message}; the service asks to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than --max-retry-wait`,
      // main prints the problem's detail, so the reason for not waiting goes in the hint.
      hint: `the service asks to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than --max-retry-wait (${this.deps.retry.maxRetryWaitMs / 1000} s): try again after ${when.toISOString()}`,
    });
  }
}

/** The template with each `{name}` written as its style says (simple when the document names none). */
export function expandPath(template: string, params: Record<string, string>, styles?: ParameterStyles['path']): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    try {
      return styledPathValue(name, value, styles?.get(name));
    } catch {
      // a lone surrogate (half of an emoji, cut) has no UTF-8 form
      throw new UsageError(`${name} ${quoteInput(value)} is not valid text: it holds half of a character`);
    }
  });
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  const text = new URLSearchParams(queryEntries(query)).toString();
  return text ? `?${text}` : '';
}

/** The query as name-value pairs, a repeated parameter once per value. */
function queryEntries(query: Record<string, QueryValue> | undefined): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) entries.push([name, item]);
    else entries.push([name, String(value)]);
  }
  return entries;
}

function parseBody(response: HttpResponse): unknown {
  if (response.status === 204 || response.text.length === 0) return undefined;
  const type = headerValue(response.headers['content-type']) ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(response.text);
    } catch {
      return response.text;
    }
  }
  return response.text;
}
