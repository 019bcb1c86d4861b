// Path and query parameter parsing (contract: query parameter conventions). Any invalid value is
// 400 request.invalid_parameter naming the parameter.
import { invalidParameter } from './problems.js';
import { parseRfc3339 } from '../../shared/rfc3339.js';
import { canonicalUuid } from '../../shared/uuid.js';

export function uuidParam(name: string, value: string): string {
  const uuid = canonicalUuid(value);
  if (uuid === undefined) throw invalidParameter(name, 'must be a uuid');
  return uuid;
}

export function optionalUuid(query: URLSearchParams, name: string): string | undefined {
  const value = single(query, name);
  return value === undefined ? undefined : uuidParam(name, value);
}

export function optionalString(query: URLSearchParams, name: string): string | undefined {
  const value = single(query, name);
  if (value === '') throw invalidParameter(name, 'must not be empty');
  return value;
}

export function optionalBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalidParameter(name, 'must be true or false');
  return value === 'true';
}

/** Epoch milliseconds of an RFC 3339 date-time parameter. */
export function optionalDateTime(query: URLSearchParams, name: string): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const ms = parseRfc3339(value);
  if (ms === undefined) {
    throw invalidParameter(name, 'must be an RFC 3339 date-time with an offset, e.g. 2025-01-31T00:00:00Z');
  }
  return ms;
}

/** date_from and date_to (either may be absent); date_from must be before date_to. */
export function dateWindow(query: URLSearchParams): { from?: number; to?: number } {
  const from = optionalDateTime(query, 'date_from');
  const to = optionalDateTime(query, 'date_to');
  if (from !== undefined && to !== undefined && from >= to) throw invalidParameter('date_to', 'must be after date_from');
  return { from, to };
}

/** An array parameter: repeated and/or comma-separated values. */
export function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const raw = query.getAll(name);
  if (raw.length === 0) return undefined;
  const values = raw.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (values.some((v) => v === '')) throw invalidParameter(name, 'must not contain empty values');
  return values;
}

export function uuidList(query: URLSearchParams, name: string): string[] | undefined {
  return listParam(query, name)?.map((v) => uuidParam(name, v));
}

/** A single-valued parameter (undefined when absent): given more than once is 400, whatever the values. */
export function single(query: URLSearchParams, name: string): string | undefined {
  const all = query.getAll(name);
  if (all.length > 1) throw invalidParameter(name, 'must be given once');
  return all[0];
}
