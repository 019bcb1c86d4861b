// An OpenAPI document as fleetctl reads it: composed once, when it is loaded, so that every reader (record fields,
// the report time, the assign body, request checks, value typing, parameter serialization) sees one and the same
// schema for a thing, whatever form the service's generator wrote it in. Loaded on first use: a command that reads
// no document does not pay for the libraries.
//
// What the libraries do:
// - @apidevtools/json-schema-ref-parser follows every `$ref` wherever OpenAPI 3.1 allows one (path items,
//   parameters, request bodies, responses, schemas), chains included; a `$ref` with siblings (3.1 allows a
//   description or a summary beside it) is the target with the siblings added. Only refs inside the document are
//   followed (resolve.external is off: nothing is fetched or read from disk). A ref that leads back into itself (a
//   recursive shape) is left as a `$ref`: the validator (ajv) resolves it against the document.
// - allof-merge merges each `allOf` into one schema: properties, `required` lists, types (their intersection),
//   formats, enums and bounds.
// What fleetctl does on top (the rules are ours, written here once):
// - Nullable. Three spellings mean "T, or null", and all become `type: [T..., "null"]` (null added to an `enum`
//   too): 3.1's `type: [T, "null"]` (already the form), 3.0's `nullable: true` beside a type, and an `anyOf` or a
//   `oneOf` whose branches are one schema plus `{type: "null"}` (or `{const: null}`, `{enum: [null]}`); the one
//   branch is lifted into the schema that held the union, its siblings kept. A union of two real shapes stays a
//   union (readers take the members any branch declares).
// - Conflicts. Branches of an allOf that cannot both hold (a member `string` in one, `integer` in another; enums
//   with nothing in common) describe values no service could accept, and the library drops or empties the schema
//   where they meet. fleetctl instead lets that schema accept anything (`{}`), kept under its name: the service is
//   the judge of a value its own document contradicts itself on, and a member stays declared. Where two formats
//   differ, the library keeps the last one written.
// - Requests. A `readOnly` member is never required in a request body (requestBodySchema in document-shapes.ts).
import { commonJsDefault } from './schema-check.js';

type Json = Record<string, unknown>;
/** An OpenAPI document (document-shapes.ts names its members; here it is any JSON object). */
type OpenApiDoc = object & { openapi?: unknown };

const composed = new WeakMap<object, Promise<OpenApiDoc>>();
const results = new WeakMap<object, OpenApiDoc>();
const composedDocuments = new WeakSet<object>();

/**
 * The document composed (see above); the same promise for the same document object. Rejects, naming the first
 * problem, when a `$ref` inside the document leads nowhere.
 */
export function composeDocument<D extends OpenApiDoc>(doc: D): Promise<D> {
  if (composedDocuments.has(doc)) return Promise.resolve(doc);
  let pending = composed.get(doc);
  if (!pending) {
    pending = compose(doc).then((result) => {
      composedDocuments.add(result);
      results.set(doc, result);
      return result;
    });
    composed.set(doc, pending);
  }
  // the composed document describes the same API in the same members
  return pending as Promise<D>;
}

/** Raised whenever the rules above change: a composed copy kept on disk by an earlier fleetctl is not used. */
export const COMPOSITION_RULES_VERSION = 1;

/** A composed document read back from a copy composeDocument made earlier (a cache), taken as composed. */
export function adoptComposed<D extends OpenApiDoc>(doc: D): D {
  composedDocuments.add(doc);
  return doc;
}

/** The composed form of a document already passed through composeDocument; undefined when it was not. */
export function composedForm<D extends OpenApiDoc>(doc: D): D | undefined {
  return composedDocuments.has(doc) ? doc : (results.get(doc) as D | undefined);
}

async function compose(doc: OpenApiDoc): Promise<OpenApiDoc> {
  const [refParser, { merge, openApiMergeRules }] = await Promise.all([import('@apidevtools/json-schema-ref-parser'), import('allof-merge')]);
  // a CommonJS module: its class (with a static dereference) is the default export, as bundled or not
  const { dereference } = commonJsDefault<typeof refParser.$RefParser>(refParser);
  const copy = structuredClone(doc) as Json;
  await dereference(copy, { resolve: { external: false }, dereference: { circular: 'ignore' } });
  // the dereferenced document shares one object wherever a ref pointed at it; merging writes a new document (the
  // same merged object for each shared one), so it is composed once however often it is used
  const tree = copy;
  const conflicts: (string | number)[][] = [];
  // the rules of OpenAPI's schema dialect, also for a document that omits its version (3.1 unless it says 3.0)
  const rules = openApiMergeRules(typeof doc.openapi === 'string' && doc.openapi.startsWith('3.0') ? '3.0.x' : '3.1.x');
  const merged = merge(tree, { source: tree, rules, mergeRefSibling: true, onMergeError: (_message: string, at: (string | number)[]) => void conflicts.push([...at]) }) as Json;
  for (const at of conflicts) acceptAnything(merged, at);
  return liftNullable(merged, new Map()) as OpenApiDoc;
}

/** The schema at `at` (where allOf branches conflicted) made `{}`: it accepts anything, the service decides. */
function acceptAnything(root: Json, at: (string | number)[]): void {
  if (at.length === 0) return;
  let node: unknown = root;
  for (const key of at.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return;
    node = (node as Json)[key];
  }
  if (node !== null && typeof node === 'object') (node as Json)[at.at(-1)!] = {};
}

/** `{type: "null"}`, `{const: null}` or `{enum: [null]}`: the null branch of a nullable union. */
function isNullSchema(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const s = schema as Json;
  const keys = Object.keys(s).filter((key) => key !== 'description' && key !== 'title');
  if (keys.length !== 1) return false;
  return s.type === 'null' || (keys[0] === 'const' && s.const === null) || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);
}

/** A schema that also accepts null: null added to its type (when it has one) and to its enum (when it has one). */
function withNull(schema: Json): Json {
  const out: Json = { ...schema };
  if (out.type !== undefined) out.type = [...new Set([out.type].flat().concat('null'))];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

/** Every nullable spelling, throughout the document, as `type: [T..., "null"]` (the rule above); `done` keeps a shared object shared. */
function liftNullable(node: unknown, done: Map<object, unknown>): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (done.has(node)) return done.get(node);
  // the dereferenced document has no cycles (a recursive shape keeps its $ref), so a node is finished before reuse
  if (Array.isArray(node)) {
    const items = node.map((item) => liftNullable(item, done));
    done.set(node, items);
    return items;
  }
  let schema: Json = {};
  for (const [key, value] of Object.entries(node as Json)) schema[key] = liftNullable(value, done);
  if (typeof schema.nullable === 'boolean') {
    const { nullable, ...rest } = schema;
    schema = nullable && (rest.type !== undefined || rest.enum !== undefined) ? withNull(rest) : rest;
  }
  for (const union of ['anyOf', 'oneOf'] as const) {
    const branches = schema[union];
    if (!Array.isArray(branches) || !branches.some(isNullSchema)) continue;
    const real = branches.filter((branch) => !isNullSchema(branch));
    if (real.length !== 1 || real[0] === null || typeof real[0] !== 'object' || typeof (real[0] as Json).$ref === 'string') continue;
    const { [union]: _union, ...siblings } = schema;
    const branch = real[0] as Json;
    // a branch without a type or enum accepts null already
    schema = { ...siblings, ...(branch.type !== undefined || branch.enum !== undefined ? withNull(branch) : branch) };
  }
  done.set(node, schema);
  return schema;
}
