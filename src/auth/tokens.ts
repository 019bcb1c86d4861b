// OAuth 2.0 client credentials: one token per scope (least privilege), cached until shortly before expiry.
import { AuthError, NetworkError } from '../errors.js';
import type { Clock } from '../io/clock.js';
import type { ConfigStore, CachedToken } from '../config/store.js';
import type { Tracer } from '../api/trace.js';
import type { Transport } from '../api/transport.js';

export interface TokenAnswer {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
}

export interface Credentials {
  profile: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TokenSource {
  accessToken(scope: string): Promise<string>;
  /** Forget a token the API refused, so the next call fetches a fresh one. */
  invalidate(scope: string, token: string): void;
}

export function tokenEndpoint(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, '')}/connect/token`;
}

/** spec: POST {auth_url}/connect/token, form fields grant_type, client_id, client_secret, scope. */
export async function requestToken(
  transport: Transport,
  credentials: Omit<Credentials, 'profile'>,
  scopes: string[] | undefined,
): Promise<TokenAnswer> {
  const url = tokenEndpoint(credentials.authUrl);
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  if (scopes && scopes.length > 0) form.set('scope', scopes.join(' '));
  const scopeText = scopes && scopes.length > 0 ? scopes.join(' ') : '(all granted)';
  const context = `client "${credentials.clientId}", scope ${scopeText}, at ${url}`;
  let answer;
  try {
    answer = await transport.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
  } catch (error) {
    if (error instanceof NetworkError) throw new AuthError(`token request failed for ${context}: ${error.message}`, 'check the auth URL and your network');
    throw error;
  }
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  if (answer.status >= 200 && answer.status < 300 && body && typeof body.access_token === 'string' && body.access_token) {
    return body as unknown as TokenAnswer;
  }
  if (!body || typeof body !== 'object') {
    throw new AuthError(`token request failed for ${context}: HTTP ${answer.status} with a non-JSON answer`, 'check the auth URL: it should be the token issuer');
  }
  const error = typeof body.error === 'string' ? body.error : `HTTP ${answer.status}`;
  const description = typeof body.error_description === 'string' ? ` (${body.error_description})` : '';
  throw new AuthError(`token request failed for ${context}: ${error}${description}`, tokenHint(error));
}

function tokenHint(error: string): string {
  if (error === 'invalid_client') return 'check the client id and secret (`fleetctl auth login`, or FLEETCTL_CLIENT_ID / FLEETCTL_CLIENT_SECRET)';
  if (error === 'invalid_scope') return 'this client is not granted that scope: ask an administrator of your organization';
  return 'check the auth URL and credentials with `fleetctl auth status`';
}

export function tokenCacheKey(credentials: Credentials, scope: string): string {
  return [credentials.profile, credentials.authUrl, credentials.clientId, scope].join('|');
}

/** Tokens cached in memory and in the config store, shared by every call of the process. */
export class CachingTokenSource implements TokenSource {
  private readonly memory = new Map<string, CachedToken>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly deps: { transport: Transport; store: ConfigStore; clock: Clock; tracer: Tracer },
    private readonly credentials: Credentials,
  ) {}

  async accessToken(scope: string): Promise<string> {
    const key = tokenCacheKey(this.credentials, scope);
    const cached = this.memory.get(key) ?? this.readStored(key);
    if (cached && this.isFresh(cached)) {
      this.memory.set(key, cached);
      return cached.access_token;
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const fetching = this.fetchAndCache(key, scope).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, fetching);
    return fetching;
  }

  invalidate(scope: string, token: string): void {
    const key = tokenCacheKey(this.credentials, scope);
    if (this.memory.get(key)?.access_token === token) this.memory.delete(key);
    this.safeUpdate((data) => {
      if (data.tokens[key]?.access_token === token) delete data.tokens[key];
    });
  }

  private async fetchAndCache(key: string, scope: string): Promise<string> {
    this.deps.tracer.note(`fetching a token for scope ${scope}`);
    const answer = await requestToken(this.deps.transport, this.credentials, [scope]);
    const now = this.deps.clock.now();
    const entry: CachedToken = { access_token: answer.access_token, scope, obtained_at: now.toISOString() };
    if (typeof answer.expires_in === 'number' && answer.expires_in > 0) {
      // Stop using it a little before it expires, so a call never races the expiry.
      const margin = Math.min(60, answer.expires_in * 0.1);
      entry.expires_at = new Date(now.getTime() + (answer.expires_in - margin) * 1000).toISOString();
    }
    this.memory.set(key, entry);
    this.safeUpdate((data) => {
      data.tokens[key] = entry;
    });
    return entry.access_token;
  }

  private isFresh(token: CachedToken): boolean {
    if (!token.expires_at) return true;
    return Date.parse(token.expires_at) > this.deps.clock.now().getTime();
  }

  private readStored(key: string): CachedToken | undefined {
    try {
      return this.deps.store.read().tokens[key];
    } catch {
      return undefined;
    }
  }

  /** The cache is an optimisation: a store that cannot be written must not fail the command. */
  private safeUpdate(change: Parameters<ConfigStore['update']>[0]): void {
    try {
      this.deps.store.update(change);
    } catch (error) {
      this.deps.tracer.note(`token cache not saved: ${(error as Error).message}`);
    }
  }
}
