// undici MockAgent helpers: every stub must be used (checked when the test finishes), nothing reaches the network.
import { MockAgent } from 'undici';
import { fullScope } from '../../src/auth/scopes.js';
import { checkReason, registerFake } from './fakes.js';

export const BASE_URL = 'https://api.fleet.test';
export const AUTH_URL = 'https://auth.fleet.test';
export const CLIENT_ID = 'ci-client';
export const CLIENT_SECRET = 'cs-9f8e7d6c5b4a-very-secret';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const mayStayPending = new WeakSet<MockAgent>();

/**
 * A MockAgent with net connect off. When the test ends, any unused stub fails it (unless allowPending says why),
 * and so does any request no stub matched, even when the code under test caught the error it got.
 */
export function newMockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const unmatched: string[] = [];
  const dispatch = agent.dispatch.bind(agent);
  agent.dispatch = (opts, handler) =>
    dispatch(
      opts,
      errorsSeen(handler, (error) => {
        if ((error as { code?: unknown })?.code === 'UND_MOCK_ERR_MOCK_NOT_MATCHED') unmatched.push((error as Error).message);
      }),
    );
  registerFake({
    async verify() {
      try {
        if (unmatched.length > 0) throw new Error(`requests no stub matched:\n${unmatched.join('\n')}`);
        if (!mayStayPending.has(agent)) agent.assertNoPendingInterceptors();
      } finally {
        await agent.close();
      }
    },
  });
  return agent;
}

/** The handler as is, except that the errors it is given are seen first (its methods keep their own `this`). */
function errorsSeen<H extends object>(handler: H, seen: (error: unknown) => void): H {
  return new Proxy(handler, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name === 'onError' || name === 'onResponseError') {
        return (...args: unknown[]) => {
          seen(args.at(-1));
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/** The agent's stubs may stay unused: for a test that means it, saying why. */
export function allowPending(agent: MockAgent, why: string): void {
  checkReason(why);
  mayStayPending.add(agent);
}

export function headersOf(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else if (headers instanceof Headers) {
    headers.forEach((value, name) => (out[name.toLowerCase()] = value));
  } else {
    for (const [name, value] of Object.entries(headers as Record<string, string>)) out[name.toLowerCase()] = String(value);
  }
  return out;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return String(body);
}

export interface TokenStub {
  /** The scope the request must ask for; null: a request without a scope field. */
  scope: string | null;
  token?: string;
  /** Seconds; null leaves expires_in out of the answer. */
  expiresIn?: number | null;
  times?: number;
  authUrl?: string;
  status?: number;
  /** Replaces the success answer (a string is sent as is). */
  body?: unknown;
  contentType?: string;
}

/** Stubs POST {auth_url}/connect/token for one scope; returns the form fields of each request it answered. */
export function stubToken(agent: MockAgent, stub: TokenStub): Record<string, string>[] {
  const scope = stub.scope === null ? null : fullScope(stub.scope);
  const seen: Record<string, string>[] = [];
  const status = stub.status ?? 200;
  const answer =
    stub.body ??
    (stub.expiresIn === null
      ? { access_token: stub.token ?? `tok-${scope}`, token_type: 'Bearer', scope: scope ?? 'all' }
      : { access_token: stub.token ?? `tok-${scope}`, token_type: 'Bearer', expires_in: stub.expiresIn ?? 3600, scope: scope ?? 'all' });
  agent
    .get(stub.authUrl ?? AUTH_URL)
    .intercept({ path: '/connect/token', method: 'POST', body: (body) => new URLSearchParams(body).get('scope') === scope })
    .reply((opts) => {
      seen.push({ ...Object.fromEntries(new URLSearchParams(bodyText(opts.body))), 'content-type': headersOf(opts.headers)['content-type'] ?? '' });
      return {
        statusCode: status,
        data: typeof answer === 'string' ? answer : JSON.stringify(answer),
        responseOptions: { headers: { 'content-type': stub.contentType ?? 'application/json' } },
      };
    })
    .times(stub.times ?? 1);
  return seen;
}

export interface ApiStub {
  method?: string;
  /** Path without query, such as /v1/devices; the query is recorded for the test to check. */
  path: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  times?: number;
  baseUrl?: string;
}

/** Stubs one API route; returns the requests it answered (path with query, headers, body). */
export function stubApi(agent: MockAgent, stub: ApiStub): RecordedRequest[] {
  const seen: RecordedRequest[] = [];
  const status = stub.status ?? 200;
  const isText = typeof stub.body === 'string';
  const contentType = isText ? 'text/plain' : status >= 400 ? 'application/problem+json' : 'application/json';
  agent
    .get(stub.baseUrl ?? BASE_URL)
    .intercept({ path: (p) => p.split('?')[0] === stub.path, method: stub.method ?? 'GET' })
    .reply((opts) => {
      seen.push({ method: opts.method, path: opts.path, headers: headersOf(opts.headers), body: bodyText(opts.body) });
      const data = stub.body === undefined ? '' : isText ? (stub.body as string) : JSON.stringify(stub.body);
      return { statusCode: status, data, responseOptions: { headers: { 'content-type': contentType, ...stub.headers } } };
    })
    .times(stub.times ?? 1);
  return seen;
}

/** A connection failure on the route (no HTTP answer). */
export function stubConnectionFailure(agent: MockAgent, path: string, times = 1, baseUrl = BASE_URL): void {
  agent
    .get(baseUrl)
    .intercept({ path: (p) => p.split('?')[0] === path, method: () => true })
    .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
    .times(times);
}

export function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}) {
  return { type: `https://errors.fleet.test/${code}`, title: code, status, detail, code, ...extra };
}

/** One page of the list envelope. */
export function page<T>(data: T[], nextCursor?: string) {
  return { data, next_cursor: nextCursor ?? null, has_more: nextCursor !== undefined };
}

export function queryOf(request: RecordedRequest): URLSearchParams {
  return new URL(request.path, 'http://x').searchParams;
}
