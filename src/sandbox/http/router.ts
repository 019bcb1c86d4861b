// Path-template routing: "/v1/devices/{id}/assignment". A path that no template matches is
// 404 route.not_found; a path that matches with another method is 405 method.not_allowed (+ Allow).
import { problem } from './problems.js';

export interface Route<H> {
  method: string;
  path: string;
  handler: H;
}

export type TemplateSegment = { literal?: string; param?: string };

interface Compiled<H> {
  route: Route<H>;
  segments: TemplateSegment[];
}

/** The segments of a path template: `{name}` (and `*`, unnamed) match any one segment. */
export function templateSegments(path: string): TemplateSegment[] {
  return path.split('/').slice(1).map((s) => {
    if (s === '*') return { param: '*' };
    const m = /^\{(\w+)\}$/.exec(s);
    return m ? { param: m[1]! } : { literal: s };
  });
}

export interface RouteMatch<H> {
  route: Route<H>;
  params: Record<string, string>;
}

export class Router<H> {
  private readonly compiled: Compiled<H>[] = [];

  add(route: Route<H>): void {
    this.compiled.push({ route, segments: templateSegments(route.path) });
  }

  get routes(): Route<H>[] {
    return this.compiled.map((c) => c.route);
  }

  /** The route for a request; throws 404 route.not_found or 405 method.not_allowed. */
  match(method: string, pathname: string): RouteMatch<H> {
    const parts = pathname.split('/').slice(1);
    const candidates: RouteMatch<H>[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (params) candidates.push({ route: c.route, params });
    }
    if (candidates.length === 0) throw problem(404, 'route.not_found', `No route matches ${pathname}.`);
    // a literal segment beats a parameter: prefer the template with the most literal segments
    const literalCount = (r: Route<H>) => r.path.split('/').filter((s) => s && !s.startsWith('{')).length;
    const forMethod = candidates.filter((m) => m.route.method === method).sort((a, b) => literalCount(b.route) - literalCount(a.route));
    if (forMethod.length > 0) return forMethod[0]!;
    const allow = [...new Set(candidates.map((m) => m.route.method))].join(', ');
    throw problem(405, 'method.not_allowed', `${method} is not allowed on ${pathname}; allowed: ${allow}.`, {
      headers: { allow },
    });
  }
}

/** The parameters of a path split in segments, or null when the template does not match; 400 on bad encoding. */
export function matchSegments(segments: readonly TemplateSegment[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== part) return null;
      continue;
    }
    if (part === '') return null;
    try {
      params[seg.param!] = decodeURIComponent(part);
    } catch {
      throw problem(400, 'request.invalid_parameter', `The path segment ${part} is not valid percent-encoding.`, {
        invalid_params: [{ name: seg.param!, reason: 'invalid percent-encoding' }],
      });
    }
  }
  return params;
}
