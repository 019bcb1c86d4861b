// Small, dependency-free format and shape checks used to validate CloudEvents envelopes.
import { parseRfc3339 } from '../dates/rfc3339.js';

export type ScalarKind =
  | 'string' | 'nullableString' | 'stringArray' | 'boolean' | 'dateTime' | 'uri'
  | 'latitude' | 'longitude' | 'heading' | 'nonNegative' | 'nonNegativeInteger';
export type FieldKind = ScalarKind | { arrayOf: Readonly<Record<string, FieldKind>> };

// RFC 3986: unreserved / reserved characters and percent-encodings only
const URI_CHARS = /^([A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** An RFC 3339 date-time (CloudEvents "Timestamp"), read as the sandbox and the CLI read one. */
export function isRfc3339(value: string): boolean {
  return parseRfc3339(value) !== undefined;
}

/** An absolute URI (RFC 3986 "URI": a scheme, then anything made of URI characters). */
export function isUri(value: string): boolean {
  return value !== '' && SCHEME.test(value) && URI_CHARS.test(value);
}

/** A URI-reference: an absolute URI or a relative reference whose first segment has no colon. */
export function isUriReference(value: string): boolean {
  if (value === '' || !URI_CHARS.test(value)) return false;
  if (SCHEME.test(value)) return true;
  const firstSegment = value.split(/[/?#]/, 1)[0]!;
  return !firstSegment.includes(':');
}

function checkScalar(value: unknown, kind: ScalarKind): string | null {
  const isNumber = typeof value === 'number' && Number.isFinite(value);
  switch (kind) {
    case 'string': return typeof value === 'string' && value !== '' ? null : 'must be a non-empty string';
    case 'nullableString': return value === null || typeof value === 'string' ? null : 'must be a string or null';
    case 'stringArray':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : 'must be an array of strings';
    case 'boolean': return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'dateTime': return typeof value === 'string' && isRfc3339(value) ? null : 'must be an RFC 3339 date-time';
    case 'uri': return typeof value === 'string' && isUri(value) ? null : 'must be an absolute URI';
    case 'latitude': return isNumber && value >= -90 && value <= 90 ? null : 'must be a latitude (-90 to 90)';
    case 'longitude': return isNumber && value >= -180 && value <= 180 ? null : 'must be a longitude (-180 to 180)';
    case 'heading': return isNumber && value >= 0 && value <= 360 ? null : 'must be a heading (0 to 360)';
    case 'nonNegative': return isNumber && value >= 0 ? null : 'must be a number ≥ 0';
    case 'nonNegativeInteger':
      return isNumber && Number.isInteger(value) && value >= 0 ? null : 'must be an integer ≥ 0';
  }
}

/** Checks that `obj` has every field of `fields` with the right kind; the first problem, or null. */
export function checkDataShape(
  obj: Record<string, unknown>,
  fields: Readonly<Record<string, FieldKind>>,
  path: string,
): string | null {
  for (const [name, kind] of Object.entries(fields)) {
    const where = `${path}.${name}`;
    if (!(name in obj)) return `${where} is missing`;
    const value = obj[name];
    if (typeof kind === 'string') {
      const problem = checkScalar(value, kind);
      if (problem) return `${where} ${problem}`;
      continue;
    }
    if (!Array.isArray(value)) return `${where} must be an array`;
    for (const [i, item] of value.entries()) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return `${where}[${i}] must be an object`;
      const problem = checkDataShape(item as Record<string, unknown>, kind.arrayOf, `${where}[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}
