// Bearer token check for API routes. spec (Authentication 5): missing, malformed or expired token → 401;
// missing required scope → 403. The 401s carry WWW-Authenticate (RFC 6750 section 3).
import { problem } from '../common/problems.js';
import type { TokenRecord, TokenStore } from './tokens.js';

const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

const unauthorized = (code: string, detail: string, error?: string) =>
  problem(401, code, detail, {
    headers: { 'www-authenticate': error ? `Bearer realm="fleet", error="${error}"` : 'Bearer realm="fleet"' },
  });

/** The token in an Authorization header, or null when there is no header. */
export function bearerToken(header: string | undefined): string | null | 'malformed' {
  if (header === undefined || header.trim() === '') return null;
  const m = /^Bearer +(\S+)$/i.exec(header.trim());
  return m && TOKEN68.test(m[1]!) ? m[1]! : 'malformed';
}

/** The token's record, or a 401 problem. */
export function authenticate(header: string | undefined, tokens: TokenStore): TokenRecord {
  const token = bearerToken(header);
  if (token === null) throw unauthorized('auth.token_missing', 'A bearer token is required (Authorization: Bearer <token>).');
  if (token === 'malformed') {
    throw unauthorized('auth.token_invalid', 'The Authorization header is not a well-formed bearer token.', 'invalid_request');
  }
  const found = tokens.lookup(token);
  if (found.kind === 'expired') throw unauthorized('auth.token_expired', 'The access token has expired; request a new one.', 'invalid_token');
  if (found.kind === 'unknown') throw unauthorized('auth.token_invalid', 'The access token is not valid.', 'invalid_token');
  return found.record;
}

/** spec: every endpoint requires exactly one scope. */
export function requireScope(record: TokenRecord, scope: string): void {
  if (!record.scopes.includes(scope)) {
    throw problem(403, 'auth.scope_missing', `This operation requires the scope ${scope}, which the token does not carry.`, {
      required_scope: scope,
      headers: { 'www-authenticate': `Bearer realm="fleet", error="insufficient_scope", scope="${scope}"` },
    });
  }
}
