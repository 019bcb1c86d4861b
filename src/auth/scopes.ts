export const SCOPE_PREFIX = 'thirdparty.api.';

/** Accepts `devices_read` or `thirdparty.api.devices_read`. */
export function fullScope(scope: string): string {
  return scope.startsWith(SCOPE_PREFIX) ? scope : `${SCOPE_PREFIX}${scope}`;
}

/** `devices_read` for `thirdparty.api.devices_read`: how people type a scope. */
export function shortScope(scope: string): string {
  return scope.startsWith(SCOPE_PREFIX) ? scope.slice(SCOPE_PREFIX.length) : scope;
}

export function parseScopeList(text: string | undefined): string[] | undefined {
  if (!text) return undefined;
  const scopes = text.split(/[\s,]+/).filter(Boolean).map(fullScope);
  return scopes.length > 0 ? scopes : undefined;
}

/**
 * The scopes among `candidates` that an issuer's text names (`The client is not allowed the scope(s):
 * thirdparty.api.devices_write.`), short, in the candidates' order: what a refusal is about, in fleetctl's words
 * rather than the issuer's. Empty when it names none.
 */
export function scopesNamedIn(text: string | undefined, candidates: readonly string[]): string[] {
  if (!text) return [];
  const words = new Set(text.split(/[^A-Za-z0-9_.:-]+/).map((word) => word.replace(/[.:]+$/, '')));
  return candidates.filter((scope) => words.has(fullScope(scope)) || words.has(shortScope(scope))).map(shortScope);
}
