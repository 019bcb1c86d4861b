// RFC 7807 problem documents. Handlers throw a ProblemError; the server turns it into
// application/problem+json. Every problem carries a stable `code` (contract: Errors table).
import { STATUS_CODES } from 'node:http';
import type { Reply } from './reply.js';
import { cutText } from '../../shared/terminal-text.js';

export interface InvalidParam {
  name: string;
  reason: string;
}

export interface ProblemExtras {
  required_scope?: string;
  capability?: string;
  invalid_params?: InvalidParam[];
  /** Response headers that go with the problem (Retry-After, WWW-Authenticate, Allow). */
  headers?: Record<string, string>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

// A problem document stays a few KB whatever the request held (a 1 MB body of unknown keys, a 16 KB path):
// at most this many invalid_params, and every text cut.
const MAX_LISTED = 10;
const MAX_DETAIL = 1000;
const MAX_PARAM_TEXT = 200;

export const PROBLEM_TYPE_BASE = 'https://fleetctl.dev/problems/';

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(`${status} ${code}: ${detail}`);
    this.name = 'ProblemError';
  }

  toBody(): Record<string, unknown> {
    const { headers: _headers, invalid_params: params, ...members } = this.extras;
    return {
      type: `${PROBLEM_TYPE_BASE}${this.code}`,
      title: TITLES[this.status] ?? STATUS_CODES[this.status] ?? 'Error',
      status: this.status,
      detail: cutText(this.detail, MAX_DETAIL),
      code: this.code,
      ...members,
      ...(params === undefined ? {} : {
        invalid_params: params.slice(0, MAX_LISTED).map((p) => ({ name: cutText(p.name, MAX_PARAM_TEXT), reason: cutText(p.reason, MAX_PARAM_TEXT) })),
      }),
    };
  }
}

export const problem = (status: number, code: string, detail: string, extras?: ProblemExtras): ProblemError =>
  new ProblemError(status, code, detail, extras);

export const notFound = (what: string): ProblemError => problem(404, 'resource.not_found', `${what} was not found.`);

export const invalidParameter = (name: string, reason: string): ProblemError =>
  problem(400, 'request.invalid_parameter', `Invalid parameter ${name}: ${reason}.`, {
    invalid_params: [{ name, reason }],
  });

export const invalidBody = (name: string, reason: string): ProblemError =>
  problem(400, 'request.invalid_body', `Invalid request body: ${name} ${reason}.`, {
    invalid_params: [{ name, reason }],
  });

export function problemReply(err: ProblemError): Reply {
  return {
    status: err.status,
    headers: { ...(err.extras.headers ?? {}), 'content-type': 'application/problem+json' },
    json: err.toBody(),
  };
}
