// Small validators for JSON request bodies. A failure is 400 request.invalid_body naming the field.
import { invalidBody, problem } from './problems.js';
import { isUuid } from '../../shared/uuid.js';

export type JsonObject = Record<string, unknown>;

export function requireObject(body: unknown): JsonObject {
  if (body === undefined) throw problem(400, 'request.invalid_body', 'A JSON request body is required.');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidBody('body', 'must be a JSON object');
  return body as JsonObject;
}

export function rejectUnknownFields(obj: JsonObject, allowed: readonly string[], where = ''): void {
  const unknown = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw problem(400, 'request.invalid_body', `Unknown field(s) in the request body: ${unknown.map((k) => where + k).join(', ')}.`, {
      invalid_params: unknown.map((k) => ({ name: where + k, reason: 'unknown field' })),
    });
  }
}

interface StringRule {
  required?: boolean;
  nullable?: boolean;
  min?: number;
  max?: number;
}

/** A string field: undefined when absent (and not required), null when explicitly null (if nullable). */
export function stringField(obj: JsonObject, name: string, rule: StringRule = {}): string | null | undefined {
  const value = obj[name];
  if (value === undefined) {
    if (rule.required) throw invalidBody(name, 'is required');
    return undefined;
  }
  if (value === null) {
    if (rule.nullable) return null;
    throw invalidBody(name, 'must not be null');
  }
  if (typeof value !== 'string') throw invalidBody(name, 'must be a string');
  const trimmed = value.trim();
  if (rule.min !== undefined && trimmed.length < rule.min) throw invalidBody(name, `must have at least ${rule.min} character(s)`);
  if (rule.max !== undefined && value.length > rule.max) throw invalidBody(name, `must have at most ${rule.max} characters`);
  return value;
}

export function uuidField(obj: JsonObject, name: string, required: boolean): string | undefined {
  const value = obj[name];
  if (value === undefined) {
    if (required) throw invalidBody(name, 'is required');
    return undefined;
  }
  if (typeof value !== 'string' || !isUuid(value)) throw invalidBody(name, 'must be a uuid');
  return value.toLowerCase();
}

export function booleanField(obj: JsonObject, name: string, required: boolean): boolean | undefined {
  const value = obj[name];
  if (value === undefined) {
    if (required) throw invalidBody(name, 'is required');
    return undefined;
  }
  if (typeof value !== 'boolean') throw invalidBody(name, 'must be true or false');
  return value;
}

export function enumField<T extends string>(obj: JsonObject, name: string, values: readonly T[]): T | undefined {
  const value = obj[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalidBody(name, `must be one of ${values.join(', ')}`);
  }
  return value as T;
}
