// The one schema validator. Data shapes come from OpenAPI documents - the API's (v1.json), the sandbox's control
// document, and local-files.json beside v1.json for the files fleetctl keeps or reads - and are checked with ajv
// (JSON Schema 2020-12, the dialect of OpenAPI 3.1). A failure names the member (devices[2].capabilities[0]) and
// says what it must be; the sandbox answers it as problem+json, the CLI as a usage error naming the file. ajv and
// the documents are loaded on first use, so a command that checks nothing does not pay for them.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { UsageError } from '../errors.js';

export interface SchemaIssue {
  /** Where, as a path into the value: `devices[2].capabilities[0]`; empty for the value itself. */
  member: string;
  reason: string;
  /** The JSON Schema keyword that failed (format, maxItems ...), for callers that answer some of them their own way. */
  keyword?: string;
}

/** A document whose components.schemas (or $defs) can be checked against; `uses` are documents its $refs name. */
export interface SchemaDocument {
  /** Its name in $refs from other documents: `v1.json#/components/schemas/WebhookTopicInput`. */
  id: string;
  load: () => Promise<unknown>;
  uses?: SchemaDocument[];
}

export const API_DOCUMENT: SchemaDocument = { id: 'v1.json', load: async () => (await import('./v1.json', { with: { type: 'json' } })).default };
export const LOCAL_FILES_DOCUMENT: SchemaDocument = {
  id: 'local-files.json',
  load: async () => (await import('./local-files.json', { with: { type: 'json' } })).default,
  uses: [API_DOCUMENT],
};

let ajvLoaded: Promise<Ajv2020> | undefined;
const documentsAdded = new Map<string, Promise<void>>();

async function loadAjv(): Promise<Ajv2020> {
  const [ajvModule, formatsModule] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  // CommonJS modules: the class and the plugin are the default export, or its own `default`
  const Ajv = commonJsDefault<typeof ajvModule.Ajv2020>(ajvModule);
  const addFormats = commonJsDefault<typeof formatsModule.default.default>(formatsModule);
  const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false, verbose: true });
  addFormats(ajv);
  // annotations of the documents that ajv need not act on
  ajv.addKeyword({ keyword: 'x-must', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-sandbox-choice' });
  return ajv;
}

async function addDocument(ajv: Ajv2020, doc: SchemaDocument): Promise<void> {
  let added = documentsAdded.get(doc.id);
  if (!added) {
    added = (async () => {
      await Promise.all((doc.uses ?? []).map((used) => addDocument(ajv, used)));
      ajv.addSchema(schemasForAjv(await doc.load()), doc.id);
    })();
    documentsAdded.set(doc.id, added);
  }
  await added;
}

async function validatorOf(doc: SchemaDocument, name: string): Promise<ValidateFunction> {
  const ajv = await (ajvLoaded ??= loadAjv());
  await addDocument(ajv, doc);
  const validate = ajv.getSchema(`${doc.id}#/$defs/${name}`);
  if (!validate) throw new Error(`${doc.id} has no schema ${name}`);
  return validate;
}

/** What a CommonJS module exports, however the bundle or Node wraps it (its default, or its default's default). */
export function commonJsDefault<T>(mod: unknown): T {
  let value = mod as { default?: unknown };
  while (typeof value !== 'function' && value?.default !== undefined) value = value.default as { default?: unknown };
  return value as T;
}

let lenientAjv: Promise<Ajv2020> | undefined;
/** The ids under which documents read at run time were added to the lenient instance. */
const runtimeDocuments = new WeakMap<object, string>();
const runtimeValidators = new Map<string, ValidateFunction | null>();
let runtimeCount = 0;

/**
 * ajv for documents fleetctl did not write (a service's own): keywords and formats it does not know are let be
 * rather than refused, and nothing is logged about them. Checks must never refuse what such a document allows.
 */
async function loadLenientAjv(): Promise<Ajv2020> {
  const [ajvModule, formatsModule] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const Ajv = commonJsDefault<typeof ajvModule.Ajv2020>(ajvModule);
  const addFormats = commonJsDefault<typeof formatsModule.default.default>(formatsModule);
  const ajv = new Ajv({ allErrors: false, strict: false, validateSchema: false, verbose: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * The first problem of `value` against `schema`, a schema taken from a loaded OpenAPI document (the one a service
 * serves: see document-shapes.ts), or null when it conforms. Its `$ref`s into the document's components resolve
 * against `doc`. A schema ajv cannot compile checks nothing: the service is the judge of what it declared.
 */
export async function checkDocumentValue(doc: object, schema: unknown, value: unknown): Promise<SchemaIssue | null> {
  return (await documentValueCheck(doc, schema))(value);
}

/** checkDocumentValue compiled once, for checks that must answer at once (a prompt validating what is typed). */
export async function documentValueCheck(doc: object, schema: unknown): Promise<(value: unknown) => SchemaIssue | null> {
  const ajv = await (lenientAjv ??= loadLenientAjv());
  const own = JSON.stringify(schema ?? {});
  // a schema of a composed document names its components only where a shape recurs: the whole document (some
  // hundreds of kilobytes once composed) is handed to ajv only then
  let id = runtimeDocuments.get(doc);
  if (id === undefined && own.includes('"#/components/schemas/')) {
    id = `runtime-${++runtimeCount}.json`;
    runtimeDocuments.set(doc, id);
    try {
      ajv.addSchema(schemasForAjv(doc), id);
    } catch {
      // components that do not compile: the schemas that use them check nothing (below)
    }
  }
  const text = id === undefined ? own : own.replaceAll('"#/components/schemas/', `"${id}#/$defs/`);
  const key = `${id ?? ''} ${text}`;
  if (!runtimeValidators.has(key)) {
    let compiled: ValidateFunction | null;
    try {
      compiled = ajv.compile(JSON.parse(text) as object);
    } catch {
      compiled = null;
    }
    runtimeValidators.set(key, compiled);
  }
  const validate = runtimeValidators.get(key);
  return (value) => (validate ? issueOf(validate, value) : null);
}

/** The first problem of `value` against the schema `name` of a document, or null when it conforms. */
export async function checkShape(doc: SchemaDocument, name: string, value: unknown): Promise<SchemaIssue | null> {
  return issueOf(await validatorOf(doc, name), value);
}

/** A validation function, compiled now or at build time (validators.gen.ts): the first problem of `value`, or null. */
export function issueOf(validate: (value: unknown) => boolean, value: unknown): SchemaIssue | null {
  if (validate(value)) return null;
  return firstIssue((validate as { errors?: ErrorObject[] | null }).errors ?? []);
}

/** A file (or stdin) whose content does not conform: one usage error naming the file and the member. */
export function fileShapeError(source: string, what: string, hint?: string): UsageError {
  return new UsageError(`${source}: ${what}`, hint);
}

/** One line for people: `devices[2].capabilities[0]: must be one of reboot, wake_up`. */
export function describeIssue(issue: SchemaIssue): string {
  return issue.member ? `${issue.member}: ${issue.reason}` : issue.reason;
}

function firstIssue(errors: ErrorObject[]): SchemaIssue {
  const last = errors.at(-1)!;
  if (last.keyword !== 'anyOf') return fromError(errors[0]!);
  // no alternative fits: report inside the one that got furthest (a rule of a fault list, say), else the
  // alternatives as the document sums them up
  const deeper = errors.filter((e) => e !== last && e.instancePath.length > last.instancePath.length);
  if (deeper.length > 0) return fromError(deeper.sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!);
  const must = (last.parentSchema as { 'x-must'?: string } | undefined)?.['x-must'];
  return { member: memberPath(last.instancePath), reason: must ? `must ${must}` : 'is not any of the allowed forms', keyword: last.keyword };
}

function fromError(e: ErrorObject): SchemaIssue {
  const at = memberPath(e.instancePath);
  const issue = (reason: string, member = at): SchemaIssue => ({ member, reason, keyword: e.keyword });
  const must = (e.parentSchema as { 'x-must'?: string } | undefined)?.['x-must'];
  // the document's own wording for the value's own rules (not for members it lacks or has too many of)
  if (must && e.keyword !== 'required' && e.keyword !== 'additionalProperties') return issue(`must ${must}`);
  const child = (name: string) => (at ? `${at}.${name}` : name);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return issue('is required', child(String(params.missingProperty)));
    case 'additionalProperties':
      return issue('is not a known member', child(String(params.additionalProperty)));
    case 'enum':
      return issue(`must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`);
    case 'const':
      return issue(`must be ${JSON.stringify(params.allowedValue)}`);
    case 'type':
      return issue(`must be ${article(String(params.type))}`);
    case 'minItems':
      return issue(`must list at least ${String(params.limit)} item(s)`);
    case 'maxItems':
      return issue(`must list at most ${String(params.limit)} items`);
    case 'minLength':
      return issue(`must have at least ${String(params.limit)} character(s)`);
    case 'maxLength':
      return issue(`must have at most ${String(params.limit)} characters`);
    case 'format':
      return issue(`must be a valid ${String(params.format)}`);
    default:
      return issue(e.message ?? `fails ${e.keyword}`);
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
 * The document's schemas as one JSON Schema (its $defs), refs rewritten to match (those into other documents
 * too): ajv checks every keyword in strict mode, and the rest of an OpenAPI document is no schema.
 */
function schemasForAjv(doc: unknown): Record<string, unknown> {
  const { components, $defs } = doc as { components?: { schemas: unknown }; $defs?: unknown };
  return { $defs: JSON.parse(JSON.stringify(components?.schemas ?? $defs ?? {}).replaceAll('#/components/schemas/', '#/$defs/')) };
}
