// A run of `devices assign|unassign --from-file` (or `--where`) made ready for the pipeline (bulk/pipeline.ts): the
// rows read and checked, or the selection resolved to its devices, before anything is sent; or a resumed run's
// targets taken from its journal (never the selection evaluated again). Prints nothing:
// commands/devices/assign-run.ts asks, renders and ends it (its task: bulk/assignment-task.ts).
import { readFileOrStdin } from '../io/read-input.js';
import { quoteInput } from '../shared/terminal-text.js';
import type { Journal, JournalHeader } from './journal.js';
import { newRunId } from './keys.js';
import { currentService, type RunService } from './service.js';
import { nothingMatched, resumeJournal, type BulkDeps } from './run.js';
import { resolveTargets, type TargetSelection } from './targets.js';
import { parseAssignmentRows, type AssignmentCommand } from './assignment-rows.js';
import type { AssignmentResult } from './assignment-task.js';

export interface AssignmentRunOptions {
  command: AssignmentCommand;
  /** --from-file FILE, `-` for stdin; absent with --resume. */
  fromFile?: string;
  /** --where EXPR (and an @NAME device) as given: the command layer reads it into `selection` before the run. */
  where?: string;
  selection?: TargetSelection;
  /** With --where, assign: the vehicle of every selected device (--vehicle-id). */
  vehicle?: string;
  yes: boolean;
  dryRun: boolean;
  concurrency?: number;
  journal?: string;
  resume?: string;
}

export interface AssignmentPlan {
  runId: string;
  targets: string[];
  vehicles: Record<string, string>;
  journal?: Journal<AssignmentResult>;
  /** Where the run is sent, for its journal (a resumed run was checked against its journal's). */
  service?: RunService;
  /** --where as given: the journal keeps it beside the targets it resolved to. */
  where?: string;
  /** How many devices the selection matched; 0 without one. */
  selected: number;
}

/** The run the options ask for: from the rows of --from-file, or the one --resume names (its journal open, and locked). */
export async function prepareAssignmentRun(deps: BulkDeps, opts: AssignmentRunOptions, notice: (line: string) => void): Promise<AssignmentPlan> {
  if (opts.resume) return resumed(deps, opts, notice);
  return opts.selection ? fromSelection(deps, opts, opts.selection) : fromRows(deps, opts);
}

/** The header of a new run's journal. */
export function assignmentRunHeader(command: AssignmentCommand, plan: AssignmentPlan, now: Date): JournalHeader {
  const service = plan.service ? { service: plan.service } : {};
  const where = plan.where === undefined ? {} : { where: plan.where };
  return { type: 'run', version: 1, run_id: plan.runId, command, key_base: '', targets: plan.targets, created_at: now.toISOString(), vehicles: plan.vehicles, ...service, ...where };
}

async function fromRows(deps: BulkDeps, opts: AssignmentRunOptions): Promise<AssignmentPlan> {
  const file = opts.fromFile!;
  const source = file === '-' ? '--from-file (stdin)' : quoteInput(file);
  const rows = parseAssignmentRows(await readFileOrStdin(file, deps.io.in, '--from-file', { signal: deps.interruptSignal }), opts.command, source);
  const vehicles: Record<string, string> = {};
  for (const row of rows) if (row.vehicle !== undefined) vehicles[row.device] = row.vehicle;
  return { runId: newRunId(deps.clock.now()), targets: rows.map((r) => r.device), vehicles, service: await currentService(deps), selected: 0 };
}

/** The devices the selection keeps of the devices list, by hardware id, each to --vehicle-id (assign). */
async function fromSelection(deps: BulkDeps, opts: AssignmentRunOptions, selection: TargetSelection): Promise<AssignmentPlan> {
  const source = { ids: [], where: selection };
  const resolved = await resolveTargets({ api: deps.api, stdin: deps.io.in, signal: deps.interruptSignal }, source);
  if (resolved.selected === 0) throw nothingMatched(source);
  const vehicles: Record<string, string> = {};
  if (opts.vehicle !== undefined) for (const id of resolved.ids) vehicles[id] = opts.vehicle;
  return { runId: newRunId(deps.clock.now()), targets: resolved.ids, vehicles, service: await currentService(deps), where: selection.expression, selected: resolved.selected };
}

async function resumed(deps: BulkDeps, opts: AssignmentRunOptions, notice: (line: string) => void): Promise<AssignmentPlan> {
  const resume = { runId: opts.resume!, given: opts.journal, command: opts.command, verb: `devices ${opts.command}` };
  const { journal, service } = await resumeJournal<AssignmentResult, void>(deps, resume, notice, { restore: () => undefined });
  const where = journal.header.where === undefined ? {} : { where: journal.header.where };
  return { runId: resume.runId, targets: journal.header.targets, vehicles: journal.header.vehicles ?? {}, journal, service, selected: 0, ...where };
}
