// Error answers, problem+json or not, become one ApiError with a message a person can act on.
import { ApiError, type ProblemDocument } from '../errors.js';
import type { HttpResponse } from '../http/transport.js';
import { redirectRefused } from '../http/redirects.js';

/** `scope` is the one the request needed: a 403 names it when the problem does not. */
export function toApiError(response: HttpResponse, url: string, retryAfterMs: number | undefined, scope?: string): ApiError {
  const json = parseJson(response.text);
  const problem = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as ProblemDocument) : undefined;
  const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  // the transport follows or refuses every 3xx (shared/redirect.ts): one that reaches here was passed on unread
  if (response.status >= 300 && response.status < 400) return redirectRefused(response.status, url, headerValue(response.headers.location), 'it was not followed');
  if (problem) {
    return new ApiError({ status: response.status, problem, retryAfter, hint: routeHint(response.status, problem, url) ?? hintFor(response.status, problem, scope) });
  }
  const type = headerValue(response.headers['content-type']) ?? 'no content type';
  const what = response.text.trim().length === 0 ? 'an empty answer' : json !== undefined ? `a JSON answer that is not a problem document (${type.split(';')[0]})` : `a non-JSON answer (${type.split(';')[0]})`;
  return new ApiError({
    status: response.status,
    message: `HTTP ${response.status} from ${originOf(url)} with ${what}`,
    retryAfter,
    hint: response.status >= 500 ? 'the service or a proxy in front of it failed: try again later' : (routeHint(response.status, undefined, url) ?? hintFor(response.status, undefined, scope)),
  });
}

/** The answer's JSON value; undefined when it is not JSON (the caller then describes the answer instead). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A 404 for the path itself (not for a resource) usually means a wrong base URL, often one ending in /v1. */
function routeHint(status: number, problem: ProblemDocument | undefined, url: string): string | undefined {
  if (status !== 404) return undefined;
  // a path that reads /v1/v1/ says it whatever code the service gives its 404
  const path = URL.canParse(url) ? new URL(url).pathname : '';
  if (path.includes('/v1/v1/')) return 'the base URL must not end in /v1 (paths start with /v1): drop it from --base-url / FLEETCTL_BASE_URL';
  if (problem && problem.code !== 'route.not_found') return undefined;
  return 'check the base URL: it should be the address of the Fleet API, without /v1';
}

function hintFor(status: number, problem: ProblemDocument | undefined, requestScope: string | undefined): string | undefined {
  const code = problem?.code;
  if (status === 401) return 'check the credentials with `fleetctl auth status`, or log in again with `fleetctl auth login`';
  if (status === 403 && (code === 'auth.scope_missing' || typeof problem?.required_scope === 'string')) {
    const scope = typeof problem?.required_scope === 'string' ? problem.required_scope : (requestScope ?? 'the scope this command needs');
    return `this command needs the scope ${scope}: ask an administrator to grant it to your client`;
  }
  // spec: a 403 is a missing scope or an organization outside the caller's tenant; a code fleetctl does not know
  // tells neither, so both are named
  if (status === 403) {
    const scope = requestScope ? `the scope ${requestScope}` : 'the scope this call needs';
    return `either your credentials lack ${scope} (ask an administrator to grant it), or the organization is outside their tenant`;
  }
  if (status === 412) return 'the configuration changed in between: read it again and retry';
  if (status === 429) return 'rate limited: wait and try again';
  return undefined;
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}
