// Path-template routing: "/v1/devices/{id}/assignment", matched by the one matcher (openapi/path-template.ts).
// A path that no template matches is 404 route.not_found; a path that matches with another method is 405
// method.not_allowed (+ Allow); HEAD is served wherever GET is (HTTP requires it; Node sends no body).
// Parameters are decoded after the match: bad percent-encoding is 400 naming the chosen template's parameter.
import { problem } from '../common/problems.js';
import { compileTemplate, decodeParams, fitsTemplate, mostSpecific, pathSegments, type PathTemplate } from '../../openapi/path-template.js';

export interface Route<H> {
  method: string;
  path: string;
  handler: H;
}

interface Compiled<H> {
  route: Route<H>;
  template: PathTemplate;
}

export interface RouteMatch<H> {
  route: Route<H>;
  params: Record<string, string>;
}

export class Router<H> {
  private readonly compiled: Compiled<H>[] = [];

  add(route: Route<H>): void {
    this.compiled.push({ route, template: compileTemplate(route.path) });
  }

  get routes(): Route<H>[] {
    return this.compiled.map((c) => c.route);
  }

  /** The route for a request; throws 404 route.not_found, 405 method.not_allowed or 400 for a bad encoding. */
  match(method: string, pathname: string): RouteMatch<H> {
    const segments = pathSegments(pathname);
    const candidates = this.compiled.filter((c) => fitsTemplate(c.template, segments));
    if (candidates.length === 0) throw problem(404, 'route.not_found', `No route matches ${pathname}.`);
    const methods = new Set(candidates.map((c) => c.route.method));
    const served = method === 'HEAD' && !methods.has('HEAD') ? 'GET' : method;
    const chosen = mostSpecific(candidates.filter((c) => c.route.method === served), (c) => c.template);
    if (!chosen) {
      if (methods.has('GET')) methods.add('HEAD');
      const allow = [...methods].join(', ');
      throw problem(405, 'method.not_allowed', `${method} is not allowed on ${pathname}; allowed: ${allow}.`, { headers: { allow } });
    }
    const decoded = decodeParams(chosen.template, segments);
    if ('badlyEncoded' in decoded) {
      const name = decoded.badlyEncoded;
      throw problem(400, 'request.invalid_parameter', `Invalid parameter ${name}: the path segment is not valid percent-encoding.`, {
        invalid_params: [{ name, reason: 'invalid percent-encoding' }],
      });
    }
    return { route: chosen.route, params: decoded.params };
  }
}
