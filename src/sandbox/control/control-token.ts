// The control routes (/_sandbox/*) reset the world, inject faults, emit events and show the delivery log: on a
// loopback address only the machine's own users reach them, elsewhere anyone on the network would. A sandbox bound
// to a non-loopback address therefore requires a control token (`--control-token`, or one made at start) as
// `Authorization: Bearer <token>` on every control route; on loopback the token is required only when one is given.
import { randomBytes } from 'node:crypto';
import { constantTimeEqual } from '../../shared/constant-time.js';
import { isLoopbackHost } from '../../shared/loopback.js';
import { ProblemError } from '../common/problems.js';
import type { ControlRoute } from '../app.js';

const REALM = 'fleetctl-sandbox-control';

/** The token to require: the one given, else a new one when the address is reachable from other machines. */
export function controlTokenFor(given: string | undefined, boundAddress: string): string | undefined {
  if (given !== undefined) return given;
  return isLoopbackHost(boundAddress) ? undefined : randomBytes(24).toString('base64url');
}

/** Every control route, refusing a request without the token while one is required (`token()` is read per request). */
export function guardControlRoutes(routes: readonly ControlRoute[], token: () => string | undefined): ControlRoute[] {
  return routes.map((route) => ({
    ...route,
    handler: (ctx, app) => {
      const required = token();
      if (required !== undefined) requireControlToken(ctx.req.headers.authorization, required);
      return route.handler(ctx, app);
    },
  }));
}

function requireControlToken(authorization: string | undefined, required: string): void {
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (presented === undefined) {
    throw new ProblemError(401, 'sandbox.control_token_required', 'This sandbox requires its control token on /_sandbox/ routes: send Authorization: Bearer <control token>.', {
      headers: { 'www-authenticate': `Bearer realm="${REALM}"` },
    });
  }
  if (!constantTimeEqual(presented, required)) {
    throw new ProblemError(401, 'sandbox.control_token_invalid', 'The control token is not this sandbox\'s.', {
      headers: { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"` },
    });
  }
}
