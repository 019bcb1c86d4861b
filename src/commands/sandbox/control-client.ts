// Calls a running sandbox's control routes (/_sandbox/..., no token) on the sandbox that --base-url or
// FLEETCTL_BASE_URL names: the one way the `sandbox` verbs talk to it (the sandbox imports nothing from here).
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';

export type ControlDeps = Pick<Deps, 'settings' | 'transport'>;

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
  const answer = await transport.send({
    method,
    url,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = parseJson(answer.text);
  if (answer.status === 404 && !isOwnProblem(parsed)) {
    throw new UsageError(`${configured} is not a fleetctl sandbox (no ${path.split('?')[0]} there)`, 'point --base-url or FLEETCTL_BASE_URL at a running `fleetctl sandbox`');
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
