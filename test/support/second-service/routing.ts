// Routes of the second service: a method, a path template, the one scope it needs (spec: every endpoint
// requires exactly one scope), and a handler that returns its answer or throws a ProblemError.
import type { IncomingHttpHeaders } from 'node:http';
import type { ServiceState } from './records.js';

export const SCOPE_PREFIX = 'thirdparty.api.';

export interface Caller {
  clientId: string;
  /** The organization the client belongs to; its tenant is it and its descendants. */
  organizationId: string;
}

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body text ('' when none). */
  body: string;
  caller: Caller;
  state: ServiceState;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: string;
  /** As in the spec, with {name} for a path parameter. */
  template: string;
  /** Short scope name (devices_read); tokens carry it with the thirdparty.api. prefix. */
  scope: string;
  handle(ctx: RouteContext): Answer | Promise<Answer>;
}

export interface MatchedRoute {
  route: Route;
  params: Record<string, string>;
}

/** The routes whose template matches the path, with the decoded path parameters. */
export function matchRoutes(routes: Route[], path: string): MatchedRoute[] {
  const segments = path.split('/');
  const found: MatchedRoute[] = [];
  for (const route of routes) {
    const parts = route.template.split('/');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (const [i, part] of parts.entries()) {
      const segment = segments[i]!;
      if (part.startsWith('{')) {
        if (segment === '') ok = false;
        else params[part.slice(1, -1)] = decodeURIComponent(segment);
      } else if (part !== segment) ok = false;
      if (!ok) break;
    }
    if (ok) found.push({ route, params });
  }
  return found;
}

/** The tenant of a caller: its organization and the descendants (one level in this double). */
export function inTenant(state: ServiceState, caller: Caller, organizationId: string): boolean {
  if (organizationId === caller.organizationId) return true;
  return caller.organizationId === state.rootOrg && organizationId === state.childOrg;
}
