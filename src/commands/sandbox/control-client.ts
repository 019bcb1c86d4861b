// Calls a running sandbox's control routes (/_sandbox/...) on the sandbox that --base-url or FLEETCTL_BASE_URL
// names: the one way the `sandbox` verbs talk to it (the sandbox imports nothing from here). A sandbox shared on the
// network requires its control token (`--control-token` or FLEETCTL_SANDBOX_CONTROL_TOKEN), sent as a bearer token.
import type { Deps } from '../../factory.js';
import { AuthError, UsageError } from '../../errors.js';

export type ControlDeps = Pick<Deps, 'settings' | 'transport'> & {
  /** The control token to present, if the user gave one. */
  controlToken?: () => string | undefined;
};

export const CONTROL_TOKEN_VARIABLE = 'FLEETCTL_SANDBOX_CONTROL_TOKEN';

export interface ControlAnswer {
  status: number;
  /** The parsed JSON body; undefined when there is none. */
  body: unknown;
  baseUrl: string;
}

/** Sends a control request; a non-2xx answer throws (the problem as an ApiError, or "no sandbox there"). */
export async function callSandbox(deps: ControlDeps, method: string, path: string, body?: unknown): Promise<ControlAnswer> {
  const settings = await deps.settings();
  const configured = settings.base_url.value;
  if (!configured) {
    throw new UsageError('no sandbox to talk to', 'start one with `fleetctl sandbox` and set FLEETCTL_BASE_URL to its URL, or pass --base-url (or use --sandbox)');
  }
  const baseUrl = configured.replace(/\/+$/, '');
  const url = `${baseUrl}${path}`;
  const transport = await deps.transport();
  const token = deps.controlToken?.();
  const answer = await transport.send({
    method,
    url,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = parseJson(answer.text);
  if (answer.status === 404 && !isOwnProblem(parsed)) {
    throw new UsageError(`${configured} is not a fleetctl sandbox (no ${path.split('?')[0]} there)`, 'point --base-url or FLEETCTL_BASE_URL at a running `fleetctl sandbox`');
  }
  if (answer.status === 401 && /^sandbox\.control_token/.test(String((parsed as { code?: unknown } | undefined)?.code))) {
    throw new AuthError(
      token ? `the control token is not the one of the sandbox at ${baseUrl}` : `the sandbox at ${baseUrl} requires its control token`,
      `pass the token it printed at start: --control-token TOKEN, or export ${CONTROL_TOKEN_VARIABLE}`,
    );
  }
  if (answer.status < 200 || answer.status >= 300) {
    const { toApiError } = await import('../../api/problem.js');
    throw toApiError(answer, url, undefined);
  }
  return { status: answer.status, body: parsed, baseUrl };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 404 the sandbox itself gave about a thing it lacks (fault.not_found), not about a route it lacks. */
function isOwnProblem(body: unknown): boolean {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code !== 'route.not_found';
}
