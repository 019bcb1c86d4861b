// Calls a running sandbox's control routes (/_sandbox/...) on the sandbox that --base-url or FLEETCTL_BASE_URL
// names: the one way the `sandbox` verbs talk to it (the sandbox imports nothing from here). A sandbox shared on the
// network requires its control token (`--control-token` or FLEETCTL_SANDBOX_CONTROL_TOKEN), sent as a bearer token.
// Requests and answers are typed by the control document (control.gen.ts): an operation it lacks, a parameter or a
// body member it does not declare fails to compile.
import type { Deps } from '../../factory.js';
import { recordedChange, type Ledger } from '../../ledger/recorder.js';
import { AuthError, UsageError } from '../../errors.js';
import { CONTROL_OPERATIONS, type operations } from '../../openapi/control.gen.js';

export type ControlDeps = Pick<Deps, 'settings' | 'transport'> & {
  /** The control token to present, if the user gave one. */
  controlToken?: () => string | undefined;
  /** The audit ledger a change of the sandbox (a fault added or cleared, events emitted) is recorded in. */
  ledger?: () => Pick<Ledger, 'record'>;
};

export const CONTROL_TOKEN_VARIABLE = 'FLEETCTL_SANDBOX_CONTROL_TOKEN';

export type ControlOperationId = keyof operations;
type Parameters<Id extends ControlOperationId> = operations[Id]['parameters'];
type JsonOf<Part> = Part extends { content: { 'application/json': infer Body } } ? Body : never;

/** What a control operation takes: its path parameters, its query, its JSON body, as the document declares them. */
export interface ControlRequest<Id extends ControlOperationId> {
  path?: Parameters<Id>['path'];
  query?: Parameters<Id>['query'];
  body?: JsonOf<operations[Id]['requestBody']>;
}

type Responses<Id extends ControlOperationId> = operations[Id]['responses'];
/** The JSON body of the operation's success answer (undefined for one without). */
export type ControlResponseBody<Id extends ControlOperationId> = JsonOf<Responses<Id>[(200 | 201 | 202) & keyof Responses<Id>]> | undefined;

export interface ControlAnswer<Body> {
  status: number;
  /** The parsed JSON body; undefined when there is none. */
  body: Body;
  baseUrl: string;
}

/**
 * Sends a control request; a non-2xx answer throws (the problem as an ApiError, or "no sandbox there"). A request
 * that changes the sandbox goes to the audit ledger, named by its operation.
 */
export async function callSandbox<Id extends ControlOperationId>(
  deps: ControlDeps,
  operationId: Id,
  request: ControlRequest<Id> = {},
): Promise<ControlAnswer<ControlResponseBody<Id>>> {
  const { method } = CONTROL_OPERATIONS[operationId];
  const send = () => sendControl(deps, operationId, request);
  if (method === 'GET' || !deps.ledger) return send();
  const change = { command: `sandbox ${operationId}`, target: `${method} ${controlPath(operationId, request).split('?')[0]}`, outcome: 'answered' };
  return recordedChange(deps.ledger(), change, send);
}

async function sendControl<Id extends ControlOperationId>(deps: ControlDeps, operationId: Id, request: ControlRequest<Id>): Promise<ControlAnswer<ControlResponseBody<Id>>> {
  const { method } = CONTROL_OPERATIONS[operationId];
  const path = controlPath(operationId, request);
  const { body } = request;
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
  // the sandbox answers what its document declares (test/sandbox/document-conformance.test.ts checks it)
  return { status: answer.status, body: parsed as ControlResponseBody<Id>, baseUrl };
}

/** The operation's path with its parameters filled in and its query appended (members left undefined are not sent). */
function controlPath<Id extends ControlOperationId>(operationId: Id, request: ControlRequest<Id>): string {
  const params = (request.path ?? {}) as Record<string, string>;
  const path = CONTROL_OPERATIONS[operationId].path.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(params[name]!));
  const entries = Object.entries((request.query ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const query = new URLSearchParams(entries.map(([name, value]) => [name, String(value)]));
  return query.size > 0 ? `${path}?${query}` : path;
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
