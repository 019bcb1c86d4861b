// POST /connect/token: OAuth 2.0 client credentials (RFC 6749 section 4.4). Client authentication by
// form fields (client_id, client_secret) or HTTP Basic (RFC 6749 2.3.1). Errors are RFC 6749 5.2 JSON.
import { constantTimeEqual } from '../../shared/constant-time.js';
import type { RequestContext } from '../common/context.js';
import type { Reply } from '../common/reply.js';
import { ProblemError } from '../common/problems.js';
import type { SandboxClient } from './clients.js';
import type { TokenStore } from './tokens.js';

type OAuthError = 'invalid_request' | 'invalid_client' | 'invalid_scope' | 'unsupported_grant_type';

const oauthError = (error: OAuthError, description: string, basic = false): Reply => ({
  status: error === 'invalid_client' ? 401 : 400,
  headers: {
    'cache-control': 'no-store',
    ...(error === 'invalid_client' ? { 'www-authenticate': basic ? 'Basic realm="fleet"' : 'Bearer realm="fleet"' } : {}),
  },
  json: { error, error_description: description },
});

export interface TokenEndpointDeps {
  clients: readonly SandboxClient[];
  tokens: TokenStore;
  ttlSeconds: number;
}

export async function handleTokenRequest(ctx: RequestContext, deps: TokenEndpointDeps): Promise<Reply> {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return oauthError('invalid_request', 'The token request must be application/x-www-form-urlencoded form fields.');
  }
  let raw: Buffer;
  try {
    raw = await ctx.rawBody();
  } catch (err) {
    // contract: the token endpoint answers RFC 6749 JSON, never problem+json (an oversized body, say)
    if (err instanceof ProblemError) return oauthError('invalid_request', err.detail);
    throw err;
  }
  const form = new URLSearchParams(raw.toString('utf8'));
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) return oauthError('invalid_request', `The parameter ${name} is repeated.`);
  }
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError('invalid_request', 'The grant_type parameter is missing.');
  if (grantType !== 'client_credentials') {
    return oauthError('unsupported_grant_type', `The grant type ${grantType} is not supported; use client_credentials.`);
  }
  const basic = parseBasic(ctx.req.headers.authorization);
  if (basic === 'malformed') return oauthError('invalid_request', 'The Authorization header is not valid Basic credentials.');
  if (basic && (form.has('client_id') || form.has('client_secret'))) {
    return oauthError('invalid_request', 'Use either HTTP Basic or form fields for client credentials, not both.');
  }
  const clientId = basic ? basic.id : form.get('client_id');
  const secret = basic ? basic.secret : form.get('client_secret');
  if (!clientId) return oauthError('invalid_request', 'The client_id parameter is missing.');
  if (secret === null) return oauthError('invalid_request', 'The client_secret parameter is missing.');
  const client = deps.clients.find((c) => c.client_id === clientId);
  if (!client || !constantTimeEqual(secret, client.client_secret)) {
    return oauthError('invalid_client', 'Client authentication failed.', basic !== null);
  }
  const requested = form.get('scope');
  let granted = client.scopes;
  if (requested !== null) {
    const asked = requested.split(' ').filter((s) => s !== '');
    if (asked.length === 0) return oauthError('invalid_scope', 'The scope parameter is empty.');
    const unknown = asked.filter((s) => !client.scopes.includes(s));
    if (unknown.length > 0) {
      return oauthError('invalid_scope', `The client is not allowed the scope(s): ${unknown.join(' ')}.`);
    }
    granted = [...new Set(asked)];
  }
  const { token } = deps.tokens.issue(
    { client_id: client.client_id, organization_id: client.organization_id, scopes: granted },
    deps.ttlSeconds,
  );
  return {
    status: 200,
    headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
    json: { access_token: token, token_type: 'Bearer', expires_in: deps.ttlSeconds, scope: granted.join(' ') },
  };
}

/** The client a token request names (HTTP Basic or the client_id field), whatever else is wrong with it. */
export function tokenRequestClientId(authorization: string | undefined, raw: Buffer): string | null {
  const basic = parseBasic(authorization);
  if (basic && basic !== 'malformed') return basic.id;
  return new URLSearchParams(raw.toString('utf8')).get('client_id');
}

function parseBasic(header: string | undefined): { id: string; secret: string } | 'malformed' | null {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  if (at < 0) return 'malformed';
  try {
    // RFC 6749 2.3.1: both parts are form-urlencoded before base64
    return { id: decodeURIComponent(decoded.slice(0, at)), secret: decodeURIComponent(decoded.slice(at + 1)) };
  } catch {
    return 'malformed';
  }
}
