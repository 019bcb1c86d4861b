// OAuth 2.0 client credentials: one token per scope (least privilege), cached until shortly before expiry.
import { ApiError, AuthError, NetworkError } from '../errors.js';
import type { Clock } from '../io/clock.js';
import type { ConfigStore, CachedToken } from '../config/store.js';
import type { Tracer } from '../http/trace.js';
import type { HttpResponse, Transport } from '../http/transport.js';
import { ConnectionFailure } from '../http/network-failure.js';
import { sendWithRetries, type RetryLoop } from '../http/retry-loop.js';
import type { RetryPolicy } from '../shared/retry.js';
import { isCurrentTokenKey, tokenCacheKey, tokenOwner, type TokenOwner } from './token-key.js';
import { cutText, quoteInput } from '../shared/terminal-text.js';

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
  /** Stands for the auth URL in the cache key when that URL changes from run to run (the embedded sandbox). */
  cacheAs?: string;
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
  /** The token request is safe to repeat: connection failures, 429 and 503 are retried like an API GET. */
  retry: RetryLoop,
): Promise<TokenAnswer> {
  const url = tokenEndpoint(credentials.authUrl);
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  if (scopes && scopes.length > 0) form.set('scope', scopes.join(' '));
  const scopeText = scopes && scopes.length > 0 ? scopes.join(' ') : '(all granted)';
  const context = `client ${quoteInput(credentials.clientId)}, scope ${cutText(scopeText, 300)}, at ${url}`;
  const answer = await postTokenRequest(transport, url, form.toString(), context, retry);
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  if (answer.status >= 200 && answer.status < 300 && body && typeof body.access_token === 'string' && body.access_token) {
    return body as unknown as TokenAnswer;
  }
  const status = answer.status;
  const rfcError = body && typeof body.error === 'string' ? body.error : undefined;
  const description = body && typeof body.error_description === 'string' ? body.error_description : undefined;
  const said = `${rfcError ? `: ${cutText(rfcError, 100)}` : ''}${description ? ` (${cutText(description, 300)})` : ''}`;
  // Only a refusal by the issuer is an authentication failure (exit 3): an issuer that is down, overloaded or
  // answering something else than a token is the service failing (exit 8 or 9), whatever the credentials.
  if (status === 429 || status >= 500) {
    const hint = status === 429 ? 'the issuer is rate limiting: wait, or raise --max-retries / --max-retry-wait' : 'the token issuer is failing: try again later';
    const message = `token request failed for ${context}: HTTP ${status}${said || (body ? '' : ' with a non-JSON answer')}`;
    if (status === 429) throw new ApiError({ status, message, hint });
    throw new TokenEndpointUnavailable(message, hint);
  }
  if (status >= 200 && status < 300) {
    const what = body ? 'a JSON answer without an access_token' : 'a non-JSON answer';
    throw new TokenEndpointUnavailable(`token request failed for ${context}: HTTP ${status} with ${what}`, 'check the auth URL: it should be the token issuer (a proxy or sign-in page may be answering instead)');
  }
  if (!body || typeof body !== 'object') {
    throw new AuthError(`token request failed for ${context}: HTTP ${status} with a non-JSON answer`, 'check the auth URL: it should be the token issuer');
  }
  const error = rfcError ?? `HTTP ${status}`;
  // the issuer's words may quote the request back (every scope asked for): the message stays one readable line
  const cutSaid = description ? ` (${cutText(description, 300)})` : '';
  throw new TokenEndpointError(`token request failed for ${context}: ${cutText(error, 100)}${cutSaid}`, tokenHint(error), error, description);
}

/** No token came, for want of an answer from the issuer (refused connection, DNS, TLS, timeout) or of a usable one (5xx). */
export class TokenEndpointUnavailable extends NetworkError {}

/** The issuer refused the request with an RFC 6749 error (invalid_client, invalid_scope, ...). */
export class TokenEndpointError extends AuthError {
  constructor(
    message: string,
    hint: string,
    /** The OAuth error code, or HTTP <status> when the answer had none. */
    readonly error: string,
    readonly description: string | undefined,
  ) {
    super(message, hint);
  }
}

/** The token POST through the retry loop; no answer at all (refused, DNS, TLS, timeout) says nothing about the credentials. */
async function postTokenRequest(transport: Transport, url: string, body: string, context: string, retry: RetryLoop): Promise<HttpResponse> {
  const send = () =>
    transport.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: retry.signal,
      label: 'Requesting an access token',
    });
  try {
    // a 429 or 503 that was not retried comes back as an answer: requestToken says what it means
    return (await sendWithRetries({ send }, retry)).response;
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    const why = error instanceof ConnectionFailure && !error.lost ? error.reason : error.message;
    throw new TokenEndpointUnavailable(`token request failed for ${context}: ${why}`, error.hint ?? 'check the auth URL and your network');
  }
}

function tokenHint(error: string): string {
  if (error === 'invalid_client') return 'check the client id and secret (`fleetctl auth login`, or FLEETCTL_CLIENT_ID / FLEETCTL_CLIENT_SECRET)';
  if (error === 'invalid_scope') return 'this client is not granted that scope: ask an administrator of your organization';
  return 'check the auth URL and credentials with `fleetctl auth status`';
}

/** A token as the cache keeps it; `asked` is when it was requested (expires_in counts from the issuer's answer). */
export function cachedTokenFrom(answer: TokenAnswer, scope: string, asked: Date, now: Date): CachedToken {
  const entry: CachedToken = { access_token: answer.access_token, scope, obtained_at: now.toISOString() };
  if (typeof answer.expires_in === 'number' && answer.expires_in > 0) {
    // Stop using it a little before it expires, so a call never races the expiry.
    const margin = Math.min(60, answer.expires_in * 0.1);
    entry.expires_at = new Date(asked.getTime() + (answer.expires_in - margin) * 1000).toISOString();
  }
  return entry;
}

/** Tokens cached in memory and in the config store, shared by every call of the process. */
export class CachingTokenSource implements TokenSource {
  private readonly memory = new Map<string, CachedToken>();
  private readonly inFlight = new Map<string, Promise<string>>();
  /** Tokens the API refused: never used again by this process, even before the store has forgotten them. */
  private readonly refused = new Set<string>();
  private readonly owner: TokenOwner;

  constructor(
    private readonly deps: { transport: Transport; store: ConfigStore; clock: Clock; tracer: Tracer; retry: RetryPolicy; signal?: AbortSignal },
    private readonly credentials: Credentials,
  ) {
    this.owner = tokenOwner({ ...credentials, issuer: credentials.cacheAs ?? credentials.authUrl });
  }

  async accessToken(scope: string): Promise<string> {
    const key = tokenCacheKey({ ...this.owner, scope });
    const cached = this.memory.get(key) ?? this.readStored(key);
    if (cached && this.isFresh(cached) && !this.refused.has(cached.access_token)) {
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
    const key = tokenCacheKey({ ...this.owner, scope });
    this.refused.add(token);
    if (this.memory.get(key)?.access_token === token) this.memory.delete(key);
    // not awaited: the retry that follows fetches a new token meanwhile; the store applies updates in order
    void this.safeUpdate((data) => {
      if (data.tokens[key]?.access_token === token) delete data.tokens[key];
    });
  }

  private async fetchAndCache(key: string, scope: string): Promise<string> {
    this.deps.tracer.note(`fetching a token for scope ${scope}`);
    const { retry: policy, clock, tracer, signal } = this.deps;
    // expires_in counts from when the issuer answered: from the request on, to be safe however slow the answer.
    const asked = clock.now();
    const answer = await requestToken(this.deps.transport, this.credentials, [scope], { policy, clock, tracer, signal });
    const entry = cachedTokenFrom(answer, scope, asked, clock.now());
    this.memory.set(key, entry);
    await this.safeUpdate((data) => {
      this.dropUnusable(data.tokens);
      data.tokens[key] = entry;
    });
    return entry.access_token;
  }

  /** Expired tokens (of any profile, issuer or client), and keys of an older format, would otherwise pile up for ever. */
  private dropUnusable(tokens: Record<string, CachedToken>): void {
    const now = this.deps.clock.now().getTime();
    for (const [key, token] of Object.entries(tokens)) {
      const unusable = !isCurrentTokenKey(key) || token === null || typeof token !== 'object' || typeof token.access_token !== 'string';
      if (unusable || (token.expires_at !== undefined && !(Date.parse(token.expires_at) > now))) delete tokens[key];
    }
  }

  private isFresh(token: CachedToken): boolean {
    if (!token.expires_at) return true;
    return Date.parse(token.expires_at) > this.deps.clock.now().getTime();
  }

  private readStored(key: string): CachedToken | undefined {
    try {
      const token = this.deps.store.read().tokens[key];
      return token && typeof token === 'object' && typeof token.access_token === 'string' ? token : undefined;
    } catch {
      return undefined;
    }
  }

  /** The cache is an optimisation: a store that cannot be written must not fail the command. */
  private async safeUpdate(change: Parameters<ConfigStore['update']>[0]): Promise<void> {
    try {
      await this.deps.store.update(change);
    } catch (error) {
      this.deps.tracer.note(`token cache not saved: ${(error as Error).message}`);
    }
  }
}
