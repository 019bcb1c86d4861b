// `fleetctl __complete KIND -- WORDS...`: the values the completion scripts cannot know in advance. Hidden from
// help and from completion. It never prompts and never writes to stderr: on any failure, or when its time budget
// runs out, it prints nothing and succeeds, so the operator's command line is left as it was.
import { savedSelections, selectedProfile } from '../../config/settings.js';
import { storedAliases } from '../../config/aliases.js';
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { candidateLines, type Candidate } from '../../completion/candidates.js';
import { readCompletionLine, type CompletionLine } from '../../completion/line.js';
import { COMPLETE_COMMAND } from '../../completion/tree.js';
import { isLookedUp, type LookedUpValue } from '../../completion/values.js';
import { whereTerms } from '../../completion/where-terms.js';

/** About the longest a person waits on Tab before giving up on it. */
export const LOOKUP_BUDGET_MS = 1000;

export interface CompleteOptions {
  kind: string;
  /** The words after the program name; the last is the start of the word being completed. */
  words: string[];
  budgetMs: number;
  /** fleetctl's own first words: an extension of one of these names never runs, and is not offered. */
  builtIns: ReadonlySet<string>;
}

type CompleteDeps = Pick<Deps, 'config' | 'output' | 'derive' | 'env'>;

export function newCompleteCommand(deps: CompleteDeps, builtIns: ReadonlySet<string>, run = completeRun): Command {
  const command = new Command(COMPLETE_COMMAND)
    .description('Print completion candidates for the shell scripts')
    .argument('<kind>', 'profile, selection, alias, alias-or-extension, hardware-id, fleet-id or organization-id')
    .argument('[words...]', 'the words of the line after the program name, the one being completed last')
    // The words are the operator's line: its --help or unknown flags are data here, not options of this command.
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments();
  command.action(async (kind: string, words: string[]) => run(deps, { kind, words, budgetMs: LOOKUP_BUDGET_MS, builtIns }));
  return command;
}

export async function completeRun(deps: CompleteDeps, opts: CompleteOptions): Promise<void> {
  const line = readCompletionLine(opts.words);
  let candidates: Candidate[] = [];
  try {
    if (isLookedUp(opts.kind)) candidates = await candidatesFor(deps, { ...opts, kind: opts.kind }, line);
  } catch {
    // Silence is the answer: an error text would land in the middle of the operator's command line.
  }
  const lines = candidateLines(candidates, line.prefix);
  if (lines.length > 0) deps.output().text(lines.join('\n'));
}

/** The candidates of a kind for the line (the guided mode offers them too, with no line but its global flags). */
export async function candidatesFor(deps: CompleteDeps, { kind, budgetMs, builtIns }: Omit<CompleteOptions, 'words'> & { kind: LookedUpValue }, line: CompletionLine): Promise<Candidate[]> {
  if (kind === 'profile') return profiles(deps);
  if (kind === 'selection') return selections(deps, line);
  if (kind === 'alias') return aliases(deps);
  if (kind === 'alias-or-extension') return [...(await aliases(deps)), ...(await extensions(deps, builtIns))];
  // An embedded sandbox takes seconds to start: far too long for a Tab.
  if (line.sandbox && kind !== 'where') return [];
  const budget = AbortSignal.timeout(budgetMs);
  // --debug traces would go to stderr, under the operator's prompt.
  const live = deps.derive({ signal: budget, env: { ...deps.env, FLEETCTL_DEBUG: undefined } }, line.globals);
  const { lookUp } = await import('../../completion/lookups.js');
  if (kind === 'where') {
    const saved = (await selections(deps, line)).map((c) => ({ value: `@${c.value}`, description: c.description }));
    // what needs the service (its fleets, its members) is asked only off the embedded sandbox, within the budget
    const fleets = line.sandbox || !line.prefix.replace(/^-/, '').startsWith('fleet:') ? [] : await withinBudget(lookUp(live, 'fleet-id', '', budget), budgetMs);
    const members = line.sandbox ? [] : await withinBudget(declaredMembers(live), budgetMs);
    return whereTerms(line.prefix, { saved, fleets, members });
  }
  return withinBudget(lookUp(live, kind, line.prefix, budget), budgetMs);
}

/** The device record's members the service's own document declares (none from the bundled one: it is the sandbox's). */
async function declaredMembers(deps: Pick<Deps, 'servedDocument'>): Promise<Candidate[]> {
  const served = await deps.servedDocument({ quiet: true });
  if (served.source === 'bundled') return [];
  const { declaredFieldsIn } = await import('../../records/declared-fields.js');
  const fields = await declaredFieldsIn(async () => served)('listDevices');
  return [...(fields ?? [])].map((field) => ({ value: field, description: 'a member of the device records' }));
}

async function profiles(deps: Pick<Deps, 'config'>): Promise<Candidate[]> {
  const data = (await deps.config()).read();
  const names = new Set([...Object.keys(data.profiles), ...(data.current_profile ? [data.current_profile] : [])]);
  return [...names].sort().map((value) => ({ value, description: value === data.current_profile ? 'current profile' : undefined }));
}

/** The saved selections of the profile the line names (its --profile), else the current one. */
async function selections(deps: Pick<Deps, 'config' | 'env'>, line: CompletionLine): Promise<Candidate[]> {
  const data = (await deps.config()).read();
  const profile = selectedProfile({ profile: line.globals.profile }, deps.env, data).value;
  const saved = savedSelections(data, profile);
  return Object.keys(saved).sort().map((value) => ({ value, description: saved[value] }));
}

async function aliases(deps: Pick<Deps, 'config'>): Promise<Candidate[]> {
  const stored = storedAliases((await deps.config()).read());
  return Object.keys(stored).sort().map((value) => ({ value, description: `alias: ${stored[value]}` }));
}

/** The extensions on PATH a first word can run: a command or an alias of the same name runs instead. */
async function extensions(deps: Pick<Deps, 'config' | 'env'>, builtIns: ReadonlySet<string>): Promise<Candidate[]> {
  const { listedExtensions } = await import('../../extensions/path-lookup.js');
  const aliases = storedAliases((await deps.config()).read());
  const runnable = listedExtensions(deps.env, { builtIns, aliases }).filter((extension) => extension.shadowed_by === null);
  return runnable.map((extension) => ({ value: extension.name, description: `extension: ${extension.path}` }));
}

/** Requests follow the budget's signal; should anything not, the answer still comes a moment after it. */
function withinBudget(work: Promise<Candidate[]>, budgetMs: number): Promise<Candidate[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Candidate[]>((resolve) => {
    timer = setTimeout(() => resolve([]), budgetMs + 250);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
