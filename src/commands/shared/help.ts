// Help text shared by every verb: the scope it needs, the global options it honours, and examples that work as
// written.
import { Help, type Command, type Option } from 'commander';
import { afterOptions, fitLines, FITTED_HELP } from './help-layout.js';
import { operation, type OperationId } from '../../openapi/operations.js';
import type { ResourceView } from '../../output/columns.js';
import { epilogueOf, recordVerb, verbRecordOf, type Example, type VerbOutput, type VerbTraits, type VerbUse } from './verb-record.js';

export type { Example, VerbOutput, VerbUse } from './verb-record.js';

/** A verb that calls the API draws on all of it: the default of a verb that declares operationIds. */
export const API_USES: readonly VerbUse[] = ['profile', 'endpoints', 'sandbox', 'timeout', 'retries', 'debug', 'insecure'];

export interface VerbMetadata {
  /** The API operations the verb calls (a test checks every operation has a verb). */
  operationIds?: OperationId[];
  output: VerbOutput;
  /** Default: API_USES when the verb declares operationIds, otherwise nothing. */
  uses?: readonly VerbUse[];
  /** Asks for confirmation or input on a terminal (--no-input applies). */
  prompts?: boolean;
  /** Stores settings in the profile it is given, making it when it is new (`--profile staging auth login`). */
  makesProfile?: boolean;
  /** The first is the simplest real use; pipelines come after it. */
  examples: Example[];
  notes?: string;
  /** The records it prints, for output 'records': --columns is checked against them before any request. */
  shows?: ResourceView;
}

// Which verbs honour a global option, by the option's attribute name. An option not named here is listed for
// every verb, so a new global flag shows up in every help until it is given a rule.
const HONOURED_BY: Record<string, (verb: VerbTraits) => boolean> = {
  version: () => false,
  guided: () => false,
  profile: (v) => v.uses.has('profile'),
  baseUrl: (v) => v.uses.has('endpoints'),
  authUrl: (v) => v.uses.has('endpoints'),
  sandbox: (v) => v.uses.has('sandbox'),
  timeout: (v) => v.uses.has('timeout'),
  maxRetries: (v) => v.uses.has('retries'),
  maxRetryWait: (v) => v.uses.has('retries'),
  debug: (v) => v.uses.has('debug'),
  insecure: (v) => v.uses.has('insecure'),
  caFile: (v) => v.uses.has('insecure'),
  output: (v) => v.output === 'records' || v.output === 'document',
  json: (v) => v.output === 'records' || v.output === 'document',
  columns: (v) => v.output === 'records',
  jq: (v) => v.output === 'records' || v.output === 'document',
  slurp: (v) => v.output === 'records',
  input: (v) => v.prompts,
};

/** Adds "Scope: ...", the honoured global options and "Examples:" to the help of a verb. */
export function describeVerb(command: Command, meta: VerbMetadata): Command {
  const operationIds = meta.operationIds ?? [];
  const scopes = [...new Set(operationIds.map((id) => operation(id).scope))];
  const traits: VerbTraits = {
    output: meta.output,
    uses: new Set(meta.uses ?? (operationIds.length > 0 ? API_USES : [])),
    prompts: meta.prompts ?? false,
    makesProfile: meta.makesProfile ?? false,
  };
  const examples = meta.examples.map((e) => ({ comment: `${e.comment}${e.runsUntilInterrupted ? ' (runs until Ctrl-C)' : ''}`, command: e.command }));
  // laid out at help time, to the width commander lays the options out to
  command.configureHelp({
    ...FITTED_HELP,
    formatHelp: (cmd, helper) => {
      const after = afterOptions({ scope: scopes.length > 0 ? `Scope: ${scopes.join(', ')}` : undefined, notes: meta.notes, examples, globals: globalOptionsHonoured(cmd, traits) }, helper);
      return fitLines(`${Help.prototype.formatHelp.call(helper, cmd, helper)}\n${after}\n`, helper.helpWidth ?? 80, helper);
    },
  });
  recordVerb(command, { examples: meta.examples, operationIds, traits, shows: meta.shows, scopes, notes: meta.notes });
  return command;
}

/** The help of a group or of the program, fitted to the width as a verb's is (the after-text is its own). */
export function fitHelp(command: Command): void {
  if (isDescribedVerb(command)) return;
  command.configureHelp({
    ...command.configureHelp(),
    ...FITTED_HELP,
    formatHelp: (cmd, helper) => {
      // the program's examples and exit codes, set by main.ts, are fitted as the rest
      const after = epilogueOf(cmd);
      const text = Help.prototype.formatHelp.call(helper, cmd, helper);
      return fitLines(after ? `${text}\n${after}` : text, helper.helpWidth ?? 80, helper);
    },
  });
}

/** The program's own options (not a parent verb's) that this verb honours, in the program's order. */
function globalOptionsHonoured(command: Command, traits: VerbTraits): Option[] {
  let root = command;
  while (root.parent) root = root.parent;
  if (root === command) return [];
  return root.options.filter((option) => !option.hidden && (HONOURED_BY[option.attributeName()]?.(traits) ?? true));
}

/** The API operations a verb calls, as it declared them: a test checks every operation has a verb. */
export function operationIdsOf(command: Command): string[] {
  return verbRecordOf(command)?.operationIds ?? [];
}

/** The examples a verb declared: the test suite runs every one of them against a sandbox. */
export function examplesOf(command: Command): Example[] {
  return verbRecordOf(command)?.examples ?? [];
}

/** What the help of a verb says after its options, for the manual (src/commands/help/manual/): the same words, unwrapped. */
export function afterOptionsOf(command: Command): { scopes: string[]; notes?: string; globals: Option[] } {
  const verb = verbRecordOf(command);
  if (!verb) return { scopes: [], globals: [] };
  return { scopes: verb.scopes, notes: verb.notes, globals: globalOptionsHonoured(command, verb.traits) };
}

/** A verb that reads a profile and does not make one: a profile it is given must be stored (main.ts checks). */
export function needsStoredProfile(command: Command): boolean {
  const traits = verbRecordOf(command)?.traits;
  return traits !== undefined && traits.uses.has('profile') && !traits.makesProfile;
}

/** True for a command declared through describeVerb (a verb, as opposed to a group of verbs). */
export function isDescribedVerb(command: Command): boolean {
  return verbRecordOf(command) !== undefined;
}
