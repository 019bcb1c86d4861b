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
