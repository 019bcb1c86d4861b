// Pure look-ups over an OpenAPI document fleetctl did not write (the one a service serves, or the bundled one):
// an operation found by METHOD + PATH TEMPLATE, never by operationId (the spec states paths; a real service names
// its operations its own way), and the schemas of its request, parameters and answer. Every look-up reads the
// document as composed-document.ts composed it when it was loaded ($refs followed, allOf merged, nullable written
// one way: the rules are in that module's header), so a look-up never walks a $ref or a composition itself.
import { composedForm } from './composed-document.js';
import { pathSegments } from './path-template.js';

export { composeDocument } from './composed-document.js';

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
  /** How its value is written (form, simple, spaceDelimited, pipeDelimited, deepObject ...), OpenAPI's default when unsaid. */
  style: string;
  /** Whether a list is sent as repeated parameters (true) or as one joined value (false). */
  explode: boolean;
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

/**
 * The composed form of a document (composeDocument, when it was loaded). A document that was not composed is a
 * mistake of the caller, not of the service: reading it raw would miss every allOf and nullable union.
 */
function composedDoc(doc: OpenApiDoc): OpenApiDoc {
  const found = composedForm(doc);
  if (!found) throw new Error('the OpenAPI document was read before it was composed: load it through composeDocument()');
  return found;
}

function locate(raw: OpenApiDoc, method: string, pathTemplate: string): { doc: OpenApiDoc; template: string; item: PathItem; operation: OperationObject } | undefined {
  const doc = composedDoc(raw);
  const wanted = templateKey(pathTemplate);
  const verb = method.toLowerCase();
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!item || templateKey(template) !== wanted) continue;
    const operation = item[verb];
    if (operation && typeof operation === 'object') return { doc, template, item, operation: operation as OperationObject };
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

/**
 * A schema as the composed document has it. Taken from the composed document, it already is; a bare `$ref` (the
 * one kind composition leaves: a recursive shape, or one a caller wrote) gives what it names there.
 */
export function resolveSchema(doc: OpenApiDoc, schema: unknown): unknown {
  const ref = (schema as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== 'string' || Object.keys(schema as object).length !== 1) return schema;
  return pointerTarget(composedDoc(doc), ref) ?? schema;
}

/** The JSON schema of a content map (`{ 'application/json': { schema } }`): JSON, or any `+json` type. */
function jsonSchemaOf(doc: OpenApiDoc, content: unknown): JsonSchema | undefined {
  if (content === null || typeof content !== 'object') return undefined;
  const entries = Object.entries(content as Record<string, { schema?: unknown } | undefined>);
  const json = entries.find(([type]) => /^application\/json\b/i.test(type)) ?? entries.find(([type]) => /\+json\b/i.test(type));
  return json?.[1]?.schema === undefined ? undefined : (resolveSchema(doc, json[1].schema) as JsonSchema);
}

/**
 * A request's view of a schema: a `readOnly` member is never required (the service sets it; a client cannot be
 * asked for it), throughout nested members, items and union branches.
 */
export function requestView(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(requestView);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    // the names of members are not schemas: a member called readOnly is left alone
    out[key] = key === 'properties' && value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([name, member]) => [name, requestView(member)])) : requestView(value);
  }
  const properties = out.properties as Record<string, JsonSchema | undefined> | undefined;
  if (Array.isArray(out.required) && properties && typeof properties === 'object') {
    out.required = out.required.filter((name) => typeof name !== 'string' || properties[name]?.readOnly !== true);
  }
  return out;
}

/** The schema of the request body the operation takes, as a request sees it; undefined when none is declared. */
export function requestBodySchema(doc: OpenApiDoc, method: string, pathTemplate: string): JsonSchema | undefined {
  const found = locate(doc, method, pathTemplate);
  const body = found?.operation.requestBody as { content?: unknown } | undefined;
  const schema = found && jsonSchemaOf(found.doc, body?.content);
  return schema === undefined ? undefined : (requestView(schema) as JsonSchema);
}

/**
 * The schema of one record of the answer: the items of `data` for a collection envelope (spec: lists answer
 * `{data, next_cursor, has_more}`), else the body. Undefined when the document declares no JSON answer.
 */
export function responseRecordSchema(doc: OpenApiDoc, method: string, pathTemplate: string): JsonSchema | undefined {
  const found = locate(doc, method, pathTemplate);
  if (!found) return undefined;
  const responses = found.operation.responses ?? {};
  const success = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort()
    .map((status) => responses[status] as { content?: unknown } | undefined)
    .map((response) => jsonSchemaOf(found.doc, response?.content))
    .find((schema) => schema !== undefined);
  if (!success) return undefined;
  const data = (success.properties as Record<string, JsonSchema> | undefined)?.data;
  const items = resolveSchema(found.doc, data?.items) as JsonSchema | undefined;
  return items && typeof items === 'object' && !Array.isArray(items) ? items : success;
}

/** How a parameter goes on the wire (OpenAPI's defaults: form and exploded in a query, simple in a path or header). */
function serialization(p: { in: string; style?: unknown; explode?: unknown }): { style: string; explode: boolean } {
  const style = typeof p.style === 'string' ? p.style : p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple';
  return { style, explode: typeof p.explode === 'boolean' ? p.explode : style === 'form' };
}

/** The parameters of the operation (those of its path item too; the operation's win), with their schemas. */
export function parameterSchemas(doc: OpenApiDoc, method: string, pathTemplate: string): ParameterSchema[] {
  const found = locate(doc, method, pathTemplate);
  if (!found) return [];
  const byKey = new Map<string, ParameterSchema>();
  for (const raw of [...(found.item.parameters ?? []), ...(found.operation.parameters ?? [])]) {
    const p = raw as { name?: unknown; in?: unknown; required?: unknown; schema?: unknown; style?: unknown; explode?: unknown } | undefined;
    if (typeof p?.name !== 'string' || typeof p.in !== 'string') continue;
    const schema = (resolveSchema(found.doc, p.schema) as JsonSchema | undefined) ?? {};
    const where = { in: p.in, style: p.style, explode: p.explode };
    byKey.set(`${p.in}:${p.name}`, { name: p.name, in: p.in as ParameterSchema['in'], required: p.required === true || p.in === 'path', schema, ...serialization(where) });
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

type Styles = Map<string, { style: string; explode: boolean }>;

/** How each query parameter of an operation is written on the wire (its style and explode), by name. */
export function queryParameterStyles(doc: OpenApiDoc, method: string, pathTemplate: string): Styles {
  return new Map(parameterSchemas(doc, method, pathTemplate).filter((p) => p.in === 'query').map((p) => [p.name, { style: p.style, explode: p.explode }]));
}

/**
 * How each path parameter of an operation is written on the wire, by its name in `pathTemplate`: the document may
 * name the parameter of the same segment otherwise ({id} here, {deviceId} there), so it is matched by its place.
 */
export function pathParameterStyles(doc: OpenApiDoc, method: string, pathTemplate: string): Styles {
  const found = locate(doc, method, pathTemplate);
  if (!found) return new Map();
  const declared = new Map(parameterSchemas(doc, method, pathTemplate).filter((p) => p.in === 'path').map((p) => [p.name, { style: p.style, explode: p.explode }]));
  const theirs = pathSegments(`/${found.template.replace(/^\/+|\/+$/g, '')}`);
  const styles: Styles = new Map();
  pathSegments(`/${pathTemplate.replace(/^\/+|\/+$/g, '')}`).forEach((segment, i) => {
    const ours = /^\{([^{}]+)\}$/.exec(segment)?.[1];
    const their = /^\{([^{}]+)\}$/.exec(theirs[i] ?? '')?.[1];
    const style = their === undefined ? undefined : declared.get(their);
    if (ours !== undefined && style) styles.set(ours, style);
  });
  return styles;
}
