// What the document in use says of a request fleetctl builds, asked as questions: which members its body declares
// and requires, what a typed text becomes for a member, whether a body or a parameter value passes. The schemas are
// the composed ones (composed-document.ts), so a value the document allows however it is written is never refused
// or re-typed; the callers (the command layer's request checks) word the messages and never read a schema.
import { parameterSchemas, requestBodySchema, type JsonSchema, type OpenApiDoc } from './document-shapes.js';
import { checkDocumentValue, documentValueCheck, type SchemaIssue } from './schema-check.js';

/** The request body schema of an operation in a document; no schema when the document declares none. */
export interface BodyRules {
  doc: OpenApiDoc;
  schema?: JsonSchema;
}

/** The rules of METHOD + path template's body in a (composed) document. */
export function bodyRulesOf(doc: OpenApiDoc, method: string, pathTemplate: string): BodyRules {
  return { doc, schema: requestBodySchema(doc, method, pathTemplate) };
}

function membersOf(rules: BodyRules): Record<string, JsonSchema> {
  const properties = rules.schema?.properties;
  return properties !== null && typeof properties === 'object' ? (properties as Record<string, JsonSchema>) : {};
}

/** The members the body schema declares (its own properties, allOf branches merged into them), for messages. */
export function bodyMemberNames(rules: BodyRules): string[] {
  return Object.keys(membersOf(rules));
}

/** Whether the body may carry `name`: it is declared, or the document describes no body (then the service decides). */
export function bodyMayCarry(rules: BodyRules, name: string): boolean {
  return !rules.schema || Object.hasOwn(membersOf(rules), name);
}

/** The members the body schema requires (a readOnly member never: requestBodySchema). */
export function requiredBodyMembers(rules: BodyRules): string[] {
  const required = rules.schema?.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * Text typed for a member (a flag, or the value of --field name=value) as the value to send: JSON when it parses
 * (a number, true, null, [..], {..}), except that a member the document makes a string keeps the text as typed;
 * an empty text clears (null) a member the document lets be null.
 */
export function typedMemberValue(text: string, rules: BodyRules, member: string): unknown {
  const schema = Object.hasOwn(membersOf(rules), member) ? membersOf(rules)[member] : undefined;
  const types = new Set([schema?.type ?? []].flat());
  if (text === '' && types.has('null')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (types.has('string') && typeof parsed !== 'string' && !(parsed === null && types.has('null'))) return text;
  return parsed;
}

/** The first problem of a whole body against the schema; null when it passes or the document declares no body. */
export async function bodyIssue(rules: BodyRules, body: unknown): Promise<SchemaIssue | null> {
  return rules.schema ? checkDocumentValue(rules.doc, rules.schema, body) : null;
}

/** The check of one member's value, compiled once (a prompt validates each keystroke's text with it); an undeclared member passes. */
export async function memberValueCheck(rules: BodyRules, member: string): Promise<(value: unknown) => SchemaIssue | null> {
  return documentValueCheck(rules.doc, Object.hasOwn(membersOf(rules), member) ? membersOf(rules)[member] : {});
}

/**
 * The first problem of a parameter value against the schema the document gives that parameter (a list checked as
 * the array it is sent as); null when it passes, undefined when the document does not declare the parameter (the
 * service is the judge of it).
 */
export async function parameterIssue(doc: OpenApiDoc, method: string, pathTemplate: string, name: string, value: unknown): Promise<SchemaIssue | null | undefined> {
  const parameter = parameterSchemas(doc, method, pathTemplate).filter((p) => p.name === name).at(-1);
  return parameter ? checkDocumentValue(doc, parameter.schema, value) : undefined;
}
