// Checks of a request body or parameter before it is sent, from the request schemas of the document in use: the
// one the profile's service serves, the bundled one only when none is served. The document's rules and messages,
// never hand-written ones: a value the service's document allows is never refused here.
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { checkDocumentValue, describeIssue, type SchemaIssue } from '../../openapi/schema-check.js';
import { parameterSchemas, requestBodySchema, type JsonSchema, type OpenApiDoc } from '../../openapi/document-shapes.js';
import { quoteInput } from '../../shared/terminal-text.js';

/** The request body schema of an operation in the document in use; no schema when that document declares none. */
export interface BodyRules {
  doc: OpenApiDoc;
  schema?: JsonSchema;
}

export async function bodyRules(deps: Pick<Deps, 'servedDocument'>, method: string, pathTemplate: string): Promise<BodyRules> {
  const { document } = await deps.servedDocument();
  return { doc: document, schema: requestBodySchema(document, method, pathTemplate) };
}

/** The members the body schema declares (its own properties), for messages and for typing flag values. */
export function declaredMembers(rules: BodyRules): Record<string, JsonSchema> {
  return (rules.schema?.properties as Record<string, JsonSchema> | undefined) ?? {};
}

/** The members the body schema requires. */
export function requiredMembers(rules: BodyRules): string[] {
  const required = rules.schema?.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * Text typed for a member (a flag, or the value of --field name=value) as the value to send: JSON when it parses
 * (a number, true, null, [..], {..}), except that a member the document makes a string keeps the text as typed;
 * an empty text clears (null) a member the document lets be null.
 */
export function typedMemberValue(text: string, member: JsonSchema | undefined): unknown {
  const types = new Set([member?.type ?? []].flat());
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

/** The option that adds any member the service's document names (repeatable), for commands that send a body. */
export const FIELD_OPTION = ['--field <name=value>', 'any member the service\'s document names, e.g. --field name=value (repeatable; JSON values such as 42 or null where the document takes them)'] as const;

/** The members of --field name=value, in order, the text of each still to be typed by typedMemberValue. */
export function fieldTexts(pairs: readonly string[] | undefined): [name: string, text: string][] {
  return (pairs ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--field takes name=value, got ${quoteInput(pair)}`, 'for example: --field given_name=Ada');
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

/**
 * Refuses a body the document's schema does not allow, naming where the faulty member came from (`origins`: the
 * flag, `--field name`, or `"name" in file.json`) and what the document says it must be. Exit 2 (usage).
 */
export async function checkBody(rules: BodyRules, body: Record<string, unknown>, origins: Record<string, string>): Promise<void> {
  if (!rules.schema) return;
  const issue = await checkDocumentValue(rules.doc, rules.schema, body);
  if (!issue) return;
  const known = Object.keys(declaredMembers(rules));
  const hint = issue.keyword === 'additionalProperties' && known.length > 0 ? `the service's document names: ${known.join(', ')}` : undefined;
  throw new UsageError(describeAt(issue, origins), hint);
}

/** `--email: must be ...`, or `--field address (address.city): must ...` for a member inside one. */
function describeAt(issue: SchemaIssue, origins: Record<string, string>): string {
  const top = /^[^.[]+/.exec(issue.member)?.[0];
  const origin = top === undefined ? undefined : origins[top];
  if (!origin) return describeIssue(issue);
  return issue.member === top ? `${origin}: ${issue.reason}` : `${origin} (${issue.member}): ${issue.reason}`;
}

/** A parameter value and the flag it came from. */
export interface ParameterValue {
  value: unknown;
  flag: string;
}

/**
 * Refuses a parameter value the document's schema for it does not allow (a list is checked as the array it is
 * sent as). Parameters the document does not declare are not checked: the service is the judge of them.
 */
export async function checkParameters(deps: Pick<Deps, 'servedDocument'>, method: string, pathTemplate: string, values: Record<string, ParameterValue | undefined>): Promise<void> {
  const { document } = await deps.servedDocument();
  const declared = new Map(parameterSchemas(document, method, pathTemplate).map((p) => [p.name, p]));
  for (const [name, given] of Object.entries(values)) {
    const parameter = declared.get(name);
    if (!given || given.value === undefined || !parameter) continue;
    const issue = await checkDocumentValue(document, parameter.schema, given.value);
    if (!issue) continue;
    // a list is sent as repeated parameters: the item at fault is the value to show
    const item = /^\[(\d+)\]$/.exec(issue.member)?.[1];
    const shown = item !== undefined && Array.isArray(given.value) ? given.value[Number(item)] : given.value;
    const where = issue.member && item === undefined ? ` (${name}.${issue.member})` : '';
    throw new UsageError(`${given.flag}${where}: ${issue.reason}, got ${quoteInput(typeof shown === 'string' ? shown : JSON.stringify(shown))}`);
  }
}
