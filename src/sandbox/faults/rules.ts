// Targeted faults: rules that make matching API and token requests fail, wait, drop or arrive damaged
// (POST/GET/DELETE /_sandbox/faults, --fault FILE). Rules are tried in the order they were added; the
// first that matches and wins its probability draw answers, `times` times at most.
import { compileTemplate, fitsTemplate, pathSegments, type PathTemplate } from '../../openapi/path-template.js';
import { OPERATIONS } from '../../openapi/operations.js';
import { Prng, hash32 } from '../common/prng.js';
import type { SchemaIssue } from '../../openapi/schema-check.js';
import type { components } from '../../openapi/control.gen.js';

/** The token endpoint's name in fault rules and the journal (it is not an operation of the API document). */
export const TOKEN_OPERATION_ID = 'requestToken';

type ControlSchema = components['schemas'];

/** The shapes of the control document (common/control-openapi.json), so a rule has one definition. */
export type FaultMatch = ControlSchema['FaultMatch'];
export type FaultAnswer = ControlSchema['FaultAnswer'];
/** What POST /_sandbox/faults takes, once its schema has accepted it. */
export type FaultRuleInput = ControlSchema['FaultRuleInput'];
/** A rule as GET /_sandbox/faults answers it. */
export type FaultRule = ControlSchema['FaultRule'];

/** What a rule is matched against. */
export interface RequestFacts {
  operationId: string | null;
  method: string;
  path: string;
  hardwareId: string | null;
  clientId: string | null;
}

const KNOWN_OPERATIONS = new Set<string>([...OPERATIONS.map((op) => op.operationId), TOKEN_OPERATION_ID]);

/** What the schema cannot say about a rule; null when it is sound. */
export function faultRuleIssue(rule: FaultRuleInput): SchemaIssue | null {
  const r = rule.respond;
  const kinds = (['status', 'drop', 'body'] as const).filter((k) => r[k] !== undefined);
  if (kinds.length > 1) return { member: 'respond', reason: `give one of status, drop or body, not ${kinds.join(' and ')}` };
  if (kinds.length === 0 && r.delay_ms === undefined) return { member: 'respond', reason: 'give status, drop, body or delay_ms' };
  for (const extra of ['code', 'detail', 'retry_after'] as const) {
    if (r[extra] !== undefined && r.status === undefined) return { member: `respond.${extra}`, reason: 'goes with status only' };
  }
  if (r.retry_after !== undefined && r.status !== 429 && r.status !== 503) return { member: 'respond.retry_after', reason: 'goes with status 429 or 503 only' };
  const op = rule.match?.operation_id;
  if (op !== undefined && !KNOWN_OPERATIONS.has(op)) {
    return { member: 'match.operation_id', reason: `${op} is no operation of the API; use an operationId of /openapi/v1.json (\`fleetctl api --list\`) or ${TOKEN_OPERATION_ID}` };
  }
  return null;
}

interface StoredRule {
  rule: FaultRule;
  path: PathTemplate | null;
}

export class FaultBook {
  private rules: StoredRule[] = [];
  private nextId = 1;
  private readonly rng: Prng;

  constructor(seed: number, private readonly now: () => Date) {
    this.rng = new Prng(hash32(`targeted-faults:${seed}`));
  }

  /** Adds a rule that passed its schema and faultRuleIssue. */
  add(input: FaultRuleInput): FaultRule {
    const rule: FaultRule = {
      id: `f${this.nextId++}`,
      match: { ...(input.match ?? {}) },
      respond: { ...input.respond },
      probability: input.probability ?? 1,
      times: input.times ?? null,
      hits: 0,
      ...(input.description === undefined ? {} : { description: input.description }),
      created_at: this.now().toISOString(),
    };
    this.rules.push({ rule, path: rule.match.path === undefined ? null : compileTemplate(rule.match.path) });
    return copy(rule);
  }

  list(): FaultRule[] {
    return this.rules.map((r) => copy(r.rule));
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.rule.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  /** The rule that answers this request, its hit counted; null when none does. */
  take(facts: RequestFacts): FaultRule | null {
    for (const stored of this.rules) {
      const { rule } = stored;
      if (rule.times !== null && rule.hits >= rule.times) continue;
      if (!matches(stored, facts)) continue;
      if (rule.probability < 1 && this.rng.next() >= rule.probability) continue;
      rule.hits++;
      return copy(rule);
    }
    return null;
  }
}

function matches({ rule, path }: StoredRule, facts: RequestFacts): boolean {
  const m = rule.match;
  if (m.operation_id !== undefined && m.operation_id !== facts.operationId) return false;
  if (m.method !== undefined && m.method !== facts.method) return false;
  if (m.hardware_id !== undefined && m.hardware_id !== facts.hardwareId) return false;
  if (m.client_id !== undefined && m.client_id !== facts.clientId) return false;
  return path === null || fitsTemplate(path, pathSegments(facts.path));
}

const copy = (rule: FaultRule): FaultRule => ({ ...rule, match: { ...rule.match }, respond: { ...rule.respond } });
