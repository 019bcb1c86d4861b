// Data shapes of the control routes come from their OpenAPI document (control/openapi.json) and are checked
// with ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1): request bodies, scenario files and fault files
// alike. A failure names the member (devices[2].capabilities[0]) and says what it must be. ajv is loaded on
// first use, so a sandbox that is never sent a body does not pay for it.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { controlDocument } from './document.js';
import { invalidBody, problem } from '../http/problems.js';

export interface SchemaIssue {
  /** Where, as a path into the value: `devices[2].capabilities[0]`; empty for the value itself. */
  member: string;
  reason: string;
}

export type SchemaName = 'Scenario' | 'FaultRuleInput' | 'FaultFile' | 'EmitRequest';

let compiled: Promise<(name: string) => ValidateFunction> | undefined;

async function compile(): Promise<(name: string) => ValidateFunction> {
  const [ajvModule, formatsModule] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  // CommonJS modules: the class and the plugin are the default export, or its own `default`
  const Ajv = commonJsDefault<typeof ajvModule.Ajv2020>(ajvModule);
  const addFormats = commonJsDefault<typeof formatsModule.default.default>(formatsModule);
  const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false, verbose: true });
  addFormats(ajv);
  // annotations of the document that ajv need not act on
  ajv.addKeyword({ keyword: 'x-must', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-sandbox-choice' });
  ajv.addSchema(schemasForAjv(controlDocument()), 'control');
  const cache = new Map<string, ValidateFunction>();
  return (name) => {
    let validate = cache.get(name);
    if (!validate) {
      validate = ajv.getSchema(`control#/$defs/${name}`);
      if (!validate) throw new Error(`the control document has no schema ${name}`);
      cache.set(name, validate);
    }
    return validate;
  };
}

function commonJsDefault<T>(mod: unknown): T {
  let value = mod as { default?: unknown };
  while (typeof value !== 'function' && value?.default !== undefined) value = value.default as { default?: unknown };
  return value as T;
}

/** The first problem of `value` against a schema of the control document, or null when it conforms. */
export async function checkShape(name: SchemaName, value: unknown): Promise<SchemaIssue | null> {
  const validate = (await (compiled ??= compile()))(name);
  if (validate(value)) return null;
  return issueOf(validate.errors ?? []);
}

/** A request body that does not conform: 400 request.invalid_body naming the member. */
export async function requireShape(name: SchemaName, body: unknown): Promise<void> {
  if (body === undefined) throw problem(400, 'request.invalid_body', 'A JSON request body is required.');
  const issue = await checkShape(name, body);
  if (issue) throw invalidBody(issue.member || 'body', issue.reason);
}

/** One line for people: `devices[2].capabilities[0]: must be one of reboot, wake_up`. */
export function describeIssue(issue: SchemaIssue): string {
  return issue.member ? `${issue.member}: ${issue.reason}` : issue.reason;
}

function issueOf(errors: ErrorObject[]): SchemaIssue {
  const last = errors.at(-1)!;
  if (last.keyword !== 'anyOf') return fromError(errors[0]!);
  // no alternative fits: report inside the one that got furthest (a rule of a fault list, say), else the
  // alternatives as the document sums them up
  const deeper = errors.filter((e) => e !== last && e.instancePath.length > last.instancePath.length);
  if (deeper.length > 0) return fromError(deeper.sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!);
  const must = (last.parentSchema as { 'x-must'?: string } | undefined)?.['x-must'];
  return { member: memberPath(last.instancePath), reason: must ? `must ${must}` : 'is not any of the allowed forms' };
}

function fromError(e: ErrorObject): SchemaIssue {
  const at = memberPath(e.instancePath);
  const must = (e.parentSchema as { 'x-must'?: string } | undefined)?.['x-must'];
  // the document's own wording for the value's own rules (not for members it lacks or has too many of)
  if (must && e.keyword !== 'required' && e.keyword !== 'additionalProperties') return { member: at, reason: `must ${must}` };
  const child = (name: string) => (at ? `${at}.${name}` : name);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { member: child(String(params.missingProperty)), reason: 'is required' };
    case 'additionalProperties':
      return { member: child(String(params.additionalProperty)), reason: 'is not a known member' };
    case 'enum':
      return { member: at, reason: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}` };
    case 'const':
      return { member: at, reason: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'type':
      return { member: at, reason: `must be ${article(String(params.type))}` };
    default:
      return { member: at, reason: e.message ?? `fails ${e.keyword}` };
  }
}

/** "/devices/2/capabilities/0" → "devices[2].capabilities[0]" */
export function memberPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function article(types: string): string {
  return types.split(',').map((t) => (t === 'integer' || t === 'object' || t === 'array' ? `an ${t}` : t === 'null' ? 'null' : `a ${t}`)).join(' or ');
}

/**
 * The document's schemas as one JSON Schema (its $defs), refs rewritten to match: ajv checks every keyword in
 * strict mode, and the rest of an OpenAPI document is no schema.
 */
function schemasForAjv(doc: unknown): Record<string, unknown> {
  const schemas = (doc as { components: { schemas: unknown } }).components.schemas;
  return { $defs: JSON.parse(JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) };
}
