// Files the sandbox starts from (--scenario FILE, --fault FILE): YAML or JSON, checked against the control
// document's schemas. A mistake is one line naming the file and the member, exit 2.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { parseYaml } from '../../io/read-input.js';
import { asScenario, ScenarioError, type Scenario } from '../scenario/scenario.js';
import { checkShape, describeIssue, fileShapeError } from '../../openapi/schema-check.js';
import { CONTROL_DOCUMENT } from '../common/control-document.js';
import { faultRuleIssue, type FaultRuleInput } from '../faults/rules.js';

/** The parsed content of a YAML or JSON file (JSON by its .json name, YAML otherwise; YAML reads JSON too). */
export async function readDataFile(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the ${what} file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (file.toLowerCase().endsWith('.json')) {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${file} is not valid JSON: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return parseYaml(text, file);
}

/** A scenario (from a file, or given as parsed), checked against the Scenario schema. */
export async function scenarioOrUsageError(where: string, value: unknown): Promise<Scenario> {
  try {
    return await asScenario(value);
  } catch (err) {
    throw scenarioUsageError(where, err);
  }
}

/** A mistake found while building a scenario's world, as the one-line usage error of its file. */
export function scenarioUsageError(where: string, err: unknown): unknown {
  if (!(err instanceof ScenarioError)) return err;
  return fileShapeError(where, describeIssue(err.issue), 'the Scenario schema is in the control document: GET /_sandbox/openapi.json');
}

/** Fault rules (from a file, or given as parsed): a list, or an object with a faults list. */
export async function faultRulesOrUsageError(where: string, value: unknown): Promise<FaultRuleInput[]> {
  const issue = await checkShape(CONTROL_DOCUMENT, 'FaultFile', value);
  if (issue) throw fileShapeError(where, describeIssue(issue));
  const listed = Array.isArray(value);
  const rules = (listed ? value : (value as { faults: unknown[] }).faults) as FaultRuleInput[];
  rules.forEach((rule, i) => {
    const ruleIssue = faultRuleIssue(rule);
    if (ruleIssue) throw new UsageError(`${where}: ${listed ? '' : 'faults'}[${i}].${ruleIssue.member}: ${ruleIssue.reason}`);
  });
  return rules;
}
