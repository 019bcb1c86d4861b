// The API client: one scope per call, bearer tokens, retries for requests safe to repeat, problem+json errors.
import { ApiError } from '../errors.js';
import type { Clock } from '../io/clock.js';
import type { TokenSource } from '../auth/tokens.js';
import { toApiError, headerValue } from './problem.js';
import { backoffDelay, isSafeToRepeat, parseRetryAfter, type RetryPolicy } from './retry.js';
import type { Tracer } from './trace.js';
import type { HttpResponse, Transport } from './transport.js';
import { isRetryableNetworkError } from './network-failure.js';
import { paginate, type Page, type PageOptions, type Pager } from './paginate.js';

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface CallOptions {
  pathParams?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RawRequest extends CallOptions {
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
  operation: (operationId: string) => OperationInfo;
  /** Told about each 429 and its wait, so bulk work can slow down. */
  onRateLimited?: (waitMs: number) => void;
  /** Awaited before every attempt (retries included), so bulk work can pace its requests. */
  throttle?: (signal?: AbortSignal) => Promise<void>;
  /** Aborts every call that passes no signal of its own (Ctrl-C, stdout closed). */
  signal?: AbortSignal;
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

  /** Calls an operation of the OpenAPI document by its operationId; its scope comes from the document. */
  async call<T = unknown>(operationId: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const op = this.deps.operation(operationId);
    return this.request<T>({ ...options, method: op.method, path: expandPath(op.path, options.pathParams ?? {}), scope: op.scope });
  }

  /** A list operation as a pager over its items. */
  list<T = unknown>(operationId: string, options: CallOptions, paging: PageOptions): Pager<T> {
    return paginate<T>(async (cursor, limit) => {
      const query = { ...options.query, cursor, limit };
      const answer = await this.call<Page<T>>(operationId, { ...options, query });
      return answer.body;
    }, paging);
  }

  async request<T = unknown>(raw: RawRequest): Promise<ApiResponse<T>> {
    const request = { ...raw, signal: raw.signal ?? this.deps.signal };
    const url = this.deps.baseUrl + request.path + queryString(request.query);
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const repeatable = isSafeToRepeat(request.method, headers);
    let refreshedToken = false;
    for (let attempt = 0; ; ) {
      const token = await this.deps.tokens.accessToken(request.scope);
      await this.deps.throttle?.(request.signal);
      let response: HttpResponse;
      try {
        response = await this.deps.transport.send({
          method: request.method,
          url,
          headers: { ...headers, authorization: `Bearer ${token}` },
          body,
          signal: request.signal,
        });
      } catch (error) {
        if (repeatable && attempt < this.deps.retry.maxRetries && isRetryableNetworkError(error)) {
          await this.wait(backoffDelay(attempt++, this.deps.retry), request.signal, `connection failed: ${(error as Error).message}`);
          continue;
        }
        throw error;
      }
      if (response.status === 401) {
        // spec: an expired or revoked token is a 401; fetch a fresh one once and try again once. A refused
        // token is never kept, so the next command does not start with it either.
        this.deps.tokens.invalidate(request.scope, token);
        if (!refreshedToken) {
          refreshedToken = true;
          continue;
        }
      }
      if (response.status === 429 || response.status === 503) {
        const retryAfter = parseRetryAfter(response.headers['retry-after'], this.deps.clock.now());
        if (response.status === 429) this.deps.onRateLimited?.(retryAfter ?? 0);
        if (retryAfter !== undefined && retryAfter > this.deps.retry.maxRetryWaitMs) {
          throw this.tooLongToWait(response, url, retryAfter, request.scope);
        }
        if (repeatable && attempt < this.deps.retry.maxRetries) {
          await this.wait(retryAfter ?? backoffDelay(attempt, this.deps.retry), request.signal, `HTTP ${response.status}`);
          attempt++;
          continue;
        }
        throw toApiError(response, url, retryAfter, request.scope);
      }
      if (response.status >= 400) throw toApiError(response, url, parseRetryAfter(response.headers['retry-after'], this.deps.clock.now()), request.scope);
      return { status: response.status, headers: response.headers, body: parseBody(response) as T };
    }
  }

  private async wait(ms: number, signal: AbortSignal | undefined, reason: string): Promise<void> {
    this.deps.tracer.note(`retrying in ${ms} ms after ${reason}`);
    await this.deps.clock.sleep(ms, signal);
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

export function expandPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, item);
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
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
