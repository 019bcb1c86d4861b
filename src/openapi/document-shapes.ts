// Pure look-ups over an OpenAPI document fleetctl did not write (the one a service serves, or the bundled one):
// an operation found by METHOD + PATH TEMPLATE, never by operationId (the spec states paths; a real service names
// its operations its own way), and the schemas of its request, parameters and answer with their $refs resolved.
import { pathSegments } from './path-template.js';

/** As much of an OpenAPI 3.1 document as fleetctl reads; everything else is carried along untouched. */
export interface OpenApiDoc {
  openapi?: string;
  paths: Record<string, PathItem | undefined>;
  components?: { schemas?: Record<string, JsonSchema>; [kind: string]: Record<string, unknown> | undefined };
  [member: string]: unknown;
}

export type JsonSchema = Record<string, unknown>;
type PathItem = Record<string, unknown> & { parameters?: unknown[] };
export type OperationObject = Record<string, unknown> & { operationId?: string; parameters?: unknown[]; requestBody?: unknown; responses?: Record<string, unknown> };

export interface ParameterSchema {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** Whether a value looks like an OpenAPI document: an object with an object of paths. */
export function isOpenApiDoc(value: unknown): value is OpenApiDoc {
  const paths = (value as { paths?: unknown } | null)?.paths;
  return value !== null && typeof value === 'object' && paths !== null && typeof paths === 'object' && !Array.isArray(paths);
}

/** A template with its parameter names dropped and outer slashes trimmed: /v1/devices/{id} ≡ /v1/devices/{deviceId}. */
function templateKey(template: string): string {
  return pathSegments(`/${template.replace(/^\/+|\/+$/g, '')}`)
    .map((segment) => (/^\{[^{}]*\}$/.test(segment) || segment === '*' ? '{}' : segment))
    .join('/');
}

function locate(doc: OpenApiDoc, method: string, pathTemplate: string): { item: PathItem; operation: OperationObject } | undefined {
  const wanted = templateKey(pathTemplate);
  const verb = method.toLowerCase();
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!item || templateKey(template) !== wanted) continue;
    const operation = deref(doc, item[verb]);
    if (operation && typeof operation === 'object') return { item, operation: operation as OperationObject };
  }
  return undefined;
}

/** The operation the document describes for METHOD + path template (parameter names ignored), or undefined. */
export function findOperation(doc: OpenApiDoc, method: string, pathTemplate: string): OperationObject | undefined {
  return locate(doc, method, pathTemplate)?.operation;
}

/** What a local `$ref` (`#/components/schemas/Driver`) points at; undefined for a ref outside the document. */
function pointerTarget(doc: OpenApiDoc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A value with its own `$ref` followed (chains too), not its members'. */
function deref(doc: OpenApiDoc, value: unknown, seen = new Set<string>()): unknown {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== 'string' || seen.has(ref)) return value;
  seen.add(ref);
  return deref(doc, pointerTarget(doc, ref), seen);
}

/**
 * A schema with every local $ref replaced by what it names, throughout. A ref that leads back into a schema
 * being resolved (a recursive shape) is left as it is: the validator resolves it against the document.
 */
export function resolveSchema(doc: OpenApiDoc, schema: unknown, open: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((member) => resolveSchema(doc, member, open));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  if (typeof $ref === 'string' && !open.has($ref)) {
    const target = pointerTarget(doc, $ref);
    if (target !== undefined) {
      const resolved = resolveSchema(doc, target, new Set([...open, $ref])) as JsonSchema;
      // OpenAPI 3.1 lets a $ref have siblings (a description, say): they apply too
      return Object.keys(rest).length === 0 ? resolved : { ...resolved, ...(resolveSchema(doc, rest, open) as JsonSchema) };
    }
  }
  const out: JsonSchema = typeof $ref === 'string' ? { $ref } : {};
  for (const [key, value] of Object.entries(rest)) out[key] = resolveSchema(doc, value, open);
  return out;
}

/** The JSON schema of a content map (`{ 'application/json': { schema } }`): JSON, or any `+json` type. */
function jsonSchemaOf(doc: OpenApiDoc, content: unknown): JsonSchema | undefined {
  if (content === null || typeof content !== 'object') return undefined;
  const entries = Object.entries(content as Record<string, { schema?: unknown } | undefined>);
  const json = entries.find(([type]) => /^application\/json\b/i.test(type)) ?? entries.find(([type]) => /\+json\b/i.test(type));
  return json?.[1]?.schema === undefined ? undefined : (resolveSchema(doc, json[1].schema) as JsonSchema);
}

/** The schema of the request body the operation takes, resolved; undefined when it takes none or none is declared. */
export function requestBodySchema(doc: OpenApiDoc, method: string, pathTemplate: string): JsonSchema | undefined {
  const operation = findOperation(doc, method, pathTemplate);
  const body = deref(doc, operation?.requestBody) as { content?: unknown } | undefined;
  return jsonSchemaOf(doc, body?.content);
}

/**
 * The schema of one record of the answer, resolved: the items of `data` for a collection envelope (spec: lists
 * answer `{data, next_cursor, has_more}`), else the body. Undefined when the document declares no JSON answer.
 */
export function responseRecordSchema(doc: OpenApiDoc, method: string, pathTemplate: string): JsonSchema | undefined {
  const responses = findOperation(doc, method, pathTemplate)?.responses ?? {};
  const success = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort()
    .map((status) => deref(doc, responses[status]) as { content?: unknown } | undefined)
    .map((response) => jsonSchemaOf(doc, response?.content))
    .find((schema) => schema !== undefined);
  if (!success) return undefined;
  const data = (success.properties as Record<string, JsonSchema> | undefined)?.data;
  const items = data?.items as JsonSchema | undefined;
  return items && typeof items === 'object' && !Array.isArray(items) ? items : success;
}

/** The parameters of the operation (those of its path item too; the operation's win), each with its schema resolved. */
export function parameterSchemas(doc: OpenApiDoc, method: string, pathTemplate: string): ParameterSchema[] {
  const found = locate(doc, method, pathTemplate);
  if (!found) return [];
  const byKey = new Map<string, ParameterSchema>();
  for (const raw of [...(found.item.parameters ?? []), ...(found.operation.parameters ?? [])]) {
    const p = deref(doc, raw) as { name?: unknown; in?: unknown; required?: unknown; schema?: unknown } | undefined;
    if (typeof p?.name !== 'string' || typeof p.in !== 'string') continue;
    const schema = (resolveSchema(doc, p.schema) as JsonSchema | undefined) ?? {};
    byKey.set(`${p.in}:${p.name}`, { name: p.name, in: p.in as ParameterSchema['in'], required: p.required === true || p.in === 'path', schema });
  }
  return [...byKey.values()];
}

/** The members a schema declares, its allOf/anyOf/oneOf branches included (a union: any branch may carry them). */
function declaredMembers(schema: unknown): [string, JsonSchema][] {
  if (schema === null || typeof schema !== 'object') return [];
  const s = schema as { properties?: Record<string, JsonSchema>; allOf?: unknown[]; anyOf?: unknown[]; oneOf?: unknown[] };
  const own = Object.entries(s.properties ?? {});
  const branches = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(declaredMembers);
  return [...own, ...branches];
}

/** The kind of a member, as SCHEMA_FIELDS writes it: its format, else its first JSON type other than null. */
function memberKind(member: JsonSchema): string {
  if (typeof member.format === 'string') return member.format;
  const types = [member.type ?? (member.properties ? 'object' : 'string')].flat().filter((t) => t !== 'null');
  return typeof types[0] === 'string' ? types[0] : 'string';
}

/**
 * Every field a record schema declares, as a dotted path to its kind (uuid, date-time, string, object ...):
 * a nested object gives its own path and its members' (`firmware`, `firmware.version`). The rule of the
 * generated SCHEMA_FIELDS, for a document read at run time.
 */
export function recordFields(schema: unknown, prefix = '', fields: Record<string, string> = {}): Record<string, string> {
  for (const [name, member] of declaredMembers(schema)) {
    const path = `${prefix}${name}`;
    if (path in fields) continue;
    fields[path] = memberKind(member);
    if (fields[path] === 'object') recordFields(member, `${path}.`, fields);
  }
  return fields;
}

/** The field names a record schema declares (dotted for nested objects: firmware.version). */
export function recordFieldNames(schema: unknown): string[] {
  return Object.keys(recordFields(schema));
}
