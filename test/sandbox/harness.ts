// Conformance-test harness: a real sandbox on an ephemeral port, driven over HTTP with fetch.
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const S = (name: string) => `thirdparty.api.${name}`;

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class Harness {
  private readonly tokens = new Map<string, string>();

  constructor(readonly sb: RunningSandbox) {}

  client(id: string) {
    const c = this.sb.clients.find((x) => x.client_id === id);
    if (!c) throw new Error(`no client ${id}`);
    return c;
  }

  org(name: string) {
    const o = this.sb.organizations.find((x) => x.name === name);
    if (!o) throw new Error(`no organization ${name}`);
    return o;
  }

  async tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Promise<CallResult> {
    const res = await fetch(`${this.sb.authUrl}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
    return toResult(res);
  }

  /** A token for a seeded client (all its scopes unless `scope` is given), cached. */
  async token(clientId = 'sandbox-admin', scope?: string): Promise<string> {
    const cacheKey = `${clientId} ${scope ?? ''}`;
    const cached = this.tokens.get(cacheKey);
    if (cached) return cached;
    const c = this.client(clientId);
    const form: Record<string, string> = { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret };
    if (scope) form.scope = scope;
    const res = await this.tokenRequest(form);
    if (res.status !== 200) throw new Error(`token request failed: ${res.text}`);
    this.tokens.set(cacheKey, res.body.access_token);
    return res.body.access_token;
  }

  /** An API call as sandbox-admin unless `token` says otherwise (null: no Authorization header). */
  async call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
    const token = opts.token === undefined ? await this.token() : opts.token;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.sb.baseUrl}${path}`, { method, headers, body });
    return toResult<T>(res);
  }

  as(clientId: string) {
    return async <T = any>(method: string, path: string, opts: CallOptions = {}) =>
      this.call<T>(method, path, { ...opts, token: opts.token === undefined ? await this.token(clientId) : opts.token });
  }

  /** Every item of a list, following next_cursor. */
  async all<T = any>(path: string, token?: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10_000; guard++) {
      const sep = path.includes('?') ? '&' : '?';
      const url: string = cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path;
      const res: CallResult = await this.call('GET', url, { token });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
      items.push(...res.body.data);
      if (!res.body.has_more) return items;
      cursor = res.body.next_cursor;
    }
    throw new Error('too many pages');
  }

  close() {
    return this.sb.close();
  }
}

async function toResult<T>(res: Response): Promise<CallResult<T>> {
  const text = await res.text();
  let body: any = undefined;
  if (text && /json/.test(res.headers.get('content-type') ?? '')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

export async function startHarness(opts: SandboxOptions = {}): Promise<Harness> {
  return new Harness(await startSandbox({ port: 0, seed: 7, ...opts }));
}

/** Asserts the standard problem+json shape and returns the body. */
export function expectProblem(res: CallResult, status: number, code: string): any {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  if (res.headers.get('content-type') !== 'application/problem+json') {
    throw new Error(`expected application/problem+json, got ${res.headers.get('content-type')}`);
  }
  for (const member of ['type', 'title', 'status', 'detail', 'code']) {
    if (!(member in res.body)) throw new Error(`problem lacks ${member}: ${res.text}`);
  }
  return res.body;
}
