// Wire helpers of the second service double: bodies, problem documents with members of its own, and the
// collection envelope with standard-base64 cursors. Written from the spec alone (not from src/openapi/v1.json).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

export interface Problem {
  status: number;
  code: string;
  detail: string;
  /** spec: members beyond `code` are not shown; this service adds a list of what was wrong. */
  errors?: { pointer: string; reason: string }[];
  /** Members of its own kind, e.g. the scope a 403 wanted. */
  extra?: Record<string, unknown>;
}

/** Thrown by a route: the server answers it as application/problem+json. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem, readonly headers: Record<string, string> = {}) {
    super(problem.detail);
  }
}

export const problem = (status: number, code: string, detail: string, more: Omit<Problem, 'status' | 'code' | 'detail'> = {}): ProblemError =>
  new ProblemError({ status, code, detail, ...more });

const TITLES: Record<number, string> = {
  400: 'Request rejected', 401: 'Not authenticated', 403: 'Not permitted', 404: 'No such resource', 405: 'Method not supported',
  409: 'Conflict', 412: 'Precondition failed', 422: 'Not processable', 429: 'Slow down', 500: 'Server fault', 503: 'Dependency down',
};

export function sendProblem(res: ServerResponse, path: string, p: Problem, headers: Record<string, string> = {}): void {
  const body = {
    type: `https://errors.second-service.test/${p.code.replace(/\./g, '/')}`,
    title: TITLES[p.status] ?? 'Error',
    status: p.status,
    code: p.code,
    detail: p.detail,
    instance: path,
    trace_id: randomUUID().replace(/-/g, ''),
    errors: p.errors ?? [],
    ...p.extra,
  };
  send(res, p.status, body, { 'content-type': 'application/problem+json', ...headers });
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  const all: Record<string, string> = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
  res.writeHead(status, all);
  res.end(text);
}

const MAX_BODY = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw problem(413, 'request.too_large', 'request body above 1 MiB');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body, or 400 naming what is wrong. */
export function jsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw problem(400, 'request.malformed_json', 'the body is not JSON', { errors: [{ pointer: '', reason: 'not JSON' }] });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw problem(400, 'request.malformed_json', 'the body must be a JSON object', { errors: [{ pointer: '', reason: 'not an object' }] });
  }
  return value as Record<string, unknown>;
}

// A prefix of bytes 0xfb 0xff 0xbf always encodes as "+/+/": every cursor this service hands out carries "+" and "/".
const CURSOR_PREFIX = Buffer.from([0xfb, 0xff, 0xbf]);

/** An opaque cursor in standard base64 (RFC 4648 section 4) with "+", "/" and "=" padding. */
export function encodeCursor(scope: string, offset: number): string {
  let payload = Buffer.concat([CURSOR_PREFIX, Buffer.from(`${scope}@${offset}`)]);
  // one byte short of a multiple of three: the encoding ends with "="
  while (payload.length % 3 !== 2) payload = Buffer.concat([payload, Buffer.from('~')]);
  return payload.toString('base64');
}

export function decodeCursor(cursor: string, scope: string): number {
  const raw = Buffer.from(cursor, 'base64');
  const text = raw.subarray(CURSOR_PREFIX.length).toString('utf8').replace(/~+$/, '');
  const match = /^(.*)@(\d+)$/.exec(text);
  // a cursor mangled on the way ("+" read as a space, "=" dropped) no longer decodes to what was handed out
  if (!raw.subarray(0, 3).equals(CURSOR_PREFIX) || !match || match[1] !== scope || raw.toString('base64') !== cursor) {
    throw problem(400, 'paging.cursor_invalid', 'the cursor is not one this listing handed out', { errors: [{ pointer: '/query/cursor', reason: 'unknown cursor' }] });
  }
  return Number(match[2]);
}

/** spec: limit 1 to 500, default 50. */
export function pageLimit(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return 50;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 500) {
    throw problem(400, 'request.invalid_parameter', 'limit must be a whole number from 1 to 500', { errors: [{ pointer: '/query/limit', reason: `got ${raw}` }] });
  }
  return n;
}

/** The spec's envelope: data, next_cursor, has_more. The cursor is bound to the listing it came from. */
export function page<T>(items: T[], query: URLSearchParams, scope: string): { data: T[]; next_cursor: string | null; has_more: boolean } {
  const limit = pageLimit(query);
  const cursor = query.get('cursor');
  const start = cursor === null || cursor === '' ? 0 : decodeCursor(cursor, scope);
  const data = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  return { data, next_cursor: hasMore ? encodeCursor(scope, start + limit) : null, has_more: hasMore };
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);
}

export function requireUuid(value: string | null | undefined, pointer: string): string {
  if (typeof value !== 'string' || !isUuid(value)) {
    throw problem(400, 'request.invalid_parameter', `${pointer.split('/').pop()} must be a uuid`, { errors: [{ pointer, reason: 'not a uuid' }] });
  }
  return value.toLowerCase();
}

export function optionalDate(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d\d-\d\dT/.test(raw) || Number.isNaN(ms)) {
    throw problem(400, 'request.invalid_parameter', `${name} must be an RFC 3339 date-time`, { errors: [{ pointer: `/query/${name}`, reason: `got ${raw}` }] });
  }
  return ms;
}

export function optionalBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (raw !== 'true' && raw !== 'false') {
    throw problem(400, 'request.invalid_parameter', `${name} must be true or false`, { errors: [{ pointer: `/query/${name}`, reason: `got ${raw}` }] });
  }
  return raw === 'true';
}

/** An array query parameter, repeated or comma-separated (the spec does not say which). */
export function listParam(query: URLSearchParams, name: string): string[] {
  return query.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}
