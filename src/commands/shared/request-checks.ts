// Checks of a request body or parameter before it is sent, from the request schemas of the document in use: the
// one the profile's service serves, the bundled one only when none is served. The document's rules and messages,
// never hand-written ones: a value the service's document allows is never refused here.
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { describeIssue, type SchemaIssue } from '../../openapi/schema-check.js';
import { bodyIssue, bodyMemberNames, bodyRulesOf, parameterIssue, type BodyRules } from '../../openapi/request-rules.js';
import { quoteInput } from '../../shared/terminal-text.js';

export { bodyMayCarry, bodyMemberNames, memberValueCheck, requiredBodyMembers, typedMemberValue, type BodyRules } from '../../openapi/request-rules.js';

/** The body rules of an operation in the document in use (served, else bundled). */
export async function bodyRules(deps: Pick<Deps, 'servedDocument'>, method: string, pathTemplate: string): Promise<BodyRules> {
  const { document } = await deps.servedDocument();
  return bodyRulesOf(document, method, pathTemplate);
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
  const issue = await bodyIssue(rules, body);
  if (!issue) return;
  const known = bodyMemberNames(rules);
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
  for (const [name, given] of Object.entries(values)) {
    if (!given || given.value === undefined) continue;
    const issue = await parameterIssue(document, method, pathTemplate, name, given.value);
    if (!issue) continue;
    // a list is sent as repeated parameters: the item at fault is the value to show
    const item = /^\[(\d+)\]$/.exec(issue.member)?.[1];
    const shown = item !== undefined && Array.isArray(given.value) ? given.value[Number(item)] : given.value;
    const where = issue.member && item === undefined ? ` (${name}.${issue.member})` : '';
    throw new UsageError(`${given.flag}${where}: ${issue.reason}, got ${quoteInput(typeof shown === 'string' ? shown : JSON.stringify(shown))}`);
  }
}
