// `fleetctl api` arguments as a checked request: method, path and query, fields, headers, body source.
import { UsageError } from '../../errors.js';
import { checkIdempotencyKey } from '../../api/device-commands.js';
import { PageParameterError, parseLimit } from '../../api/paginate.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { MAX_LIMIT, MIN_LIMIT } from '../../shared/page-limits.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../../io/read-input.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

export interface RawApiFlags {
  rawField?: string[];
  field?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  idempotencyKey?: string;
  list?: boolean;
  refresh?: boolean;
}

export interface ApiRequestOptions {
  method: ApiMethod;
  /** The path without its query string, e.g. /v1/drivers/123 */
  path: string;
  query: Record<string, string[]>;
  /** JSON body members from -f/-F (methods with a body, without --input). */
  fields?: Record<string, unknown>;
  /** --input: a file, or - for stdin. */
  input?: string;
  headers: Record<string, string>;
  paginate: boolean;
}

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers fleetctl sets itself. */
const RESERVED_HEADERS = new Set(['authorization', 'host', 'content-length', 'content-type']);

export function apiRequestOptions(method: string | undefined, rawPath: string | undefined, flags: RawApiFlags): ApiRequestOptions {
  if (method === undefined || rawPath === undefined) {
    throw new UsageError(`give a METHOD and a PATH, e.g. fleetctl api GET /v1/fleets`, 'run `fleetctl api --list` for the operations of the API');
  }
  const verb = method.toUpperCase();
  if (!(API_METHODS as readonly string[]).includes(verb)) throw new UsageError(`METHOD must be one of ${API_METHODS.join(', ')}, got ${quoteInput(method)}`);
  const { path, query } = splitPath(rawPath);
  const sendsBody = verb !== 'GET' && verb !== 'DELETE';
  if (flags.input !== undefined && !sendsBody) throw new UsageError(`--input: a ${verb} request has no body`);
  if (flags.paginate && verb !== 'GET') throw new UsageError('--paginate works with GET only');
  const fields = [...parseFields(flags.rawField, '-f', false), ...parseFields(flags.field, '-F', true)];
  const headers = parseHeaders(flags.header);
  if (flags.idempotencyKey !== undefined) {
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')) {
      throw new UsageError('give the Idempotency-Key once: --idempotency-key or -H, not both');
    }
    headers['Idempotency-Key'] = checkIdempotencyKey(flags.idempotencyKey);
  }
  // like `gh api`: fields are the query of a GET or DELETE, or when the body comes from --input
  let body: Record<string, unknown> | undefined;
  // Object.fromEntries defines own members: a field named __proto__ is a member like any other
  if (sendsBody && flags.input === undefined && fields.length > 0) body = Object.fromEntries(fields);
  else for (const [name, value] of fields) (query[name] ??= []).push(typeof value === 'string' ? value : JSON.stringify(value));
  if (query.limit) query.limit = query.limit.map(checkedLimit);
  return { method: verb as ApiMethod, path, query, fields: body, input: flags.input, headers, paginate: Boolean(flags.paginate) };
}

/** The limit query parameter (from -f or the PATH), checked as --limit is, in the words the user typed. */
function checkedLimit(value: string): string {
  try {
    return String(parseLimit(value));
  } catch (error) {
    throw error instanceof PageParameterError ? error.as('the limit parameter', `page sizes are ${MIN_LIMIT} to ${MAX_LIMIT}`) : error;
  }
}

function splitPath(rawPath: string): { path: string; query: Record<string, string[]> } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rawPath)) {
    throw new UsageError(`PATH is a path below the base URL, such as /v1/fleets, not a URL: ${quoteInput(rawPath)}`);
  }
  if (/\s/.test(rawPath) || rawPath.includes('#')) throw new UsageError(`PATH must not contain spaces or #, got ${quoteInput(rawPath)}`);
  const withSlash = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  const at = withSlash.indexOf('?');
  const path = at < 0 ? withSlash : withSlash.slice(0, at);
  const query = userKeyed<string[]>();
  if (at >= 0) for (const [name, value] of new URLSearchParams(withSlash.slice(at + 1))) (query[name] ??= []).push(value);
  return { path, query };
}

function parseFields(values: string[] | undefined, flag: string, typed: boolean): [string, unknown][] {
  return (values ?? []).map((text) => {
    const at = text.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} takes key=value, got ${quoteInput(text)}`);
    const value = text.slice(at + 1);
    return [text.slice(0, at), typed ? typedValue(value) : value];
  });
}

/** -F: true, false, null, numbers and JSON arrays/objects become JSON values; anything else stays a string. */
function typedValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (/^[[{]/.test(value)) {
    if (exceedsDepth(value, MAX_JSON_DEPTH)) throw new UsageError(`-F value ${quoteInput(value)} is nested more than ${MAX_JSON_DEPTH} levels deep`);
    try {
      return JSON.parse(value) as unknown;
    } catch (error) {
      throw new UsageError(`-F value ${quoteInput(value)} looks like JSON but is not: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return value;
}

function parseHeaders(values: string[] | undefined): Record<string, string> {
  const headers = userKeyed<string>();
  for (const text of values ?? []) {
    const at = text.indexOf(':');
    const name = at < 0 ? '' : text.slice(0, at).trim();
    if (!HEADER_NAME.test(name)) throw new UsageError(`-H takes 'Name: value', got ${quoteInput(text)}`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new UsageError(`-H ${name}: fleetctl sets this header itself`);
    const value = text.slice(at + 1).trim();
    headers[name] = name.toLowerCase() === 'idempotency-key' ? checkIdempotencyKey(value, '-H Idempotency-Key') : value;
  }
  return headers;
}

/** A record keyed by names the user chose (`-f __proto__=x`, `-H constructor: y`): no prototype to collide with. */
function userKeyed<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
