// `devices assign|unassign --from-file` (or `--where`), as the person running it sees it: a confirmation (or --yes) once the rows
// are read, the run through the one pipeline (bulk/pipeline.ts: journalled, paced and adaptive as a bulk reboot
// is), per-device results on stdout, exit 10 when some failed; --resume RUN_ID finishes an interrupted run.
// --dry-run reads each device and shows the change it would make.
import { ApiError, PartialFailureError } from '../../errors.js';
import { confirmOrRequireYes, requireYesUnlessInteractive } from '../../io/prompter.js';
import { scopeFor } from '../../openapi/operations.js';
import { resumeLine } from '../../bulk/resume-line.js';
import { BULK_MAX_RETRIES, runPipeline } from '../../bulk/pipeline.js';
import { stopReason } from '../../ledger/entry.js';
import { planWaves } from '../../bulk/waves.js';
import type { BulkDeps } from '../../bulk/run.js';
import { sampleOf } from '../../bulk/capability.js';
import { assignVehicleMember } from '../../records/assignment.js';
import { assignmentAttempt, isAssignmentDone, type AssignmentOutcome, type AssignmentResult } from '../../bulk/assignment-task.js';
import { assignmentRunHeader, prepareAssignmentRun, type AssignmentPlan, type AssignmentRunOptions } from '../../bulk/assignment-run.js';
import { runStartLine, startRunView, type RunView } from '../shared/run-view.js';
import { saySelected, targetSelection, type WhereDeps } from '../shared/where.js';

/** What stdout shows of a result: the device as the row named it. */
const COLUMNS = ['device', 'device_id', 'vehicle_id', 'command', 'status', 'http_status', 'code'];
const SUCCESS = new Set(['assigned', 'unassigned', 'unchanged', 'would_assign', 'would_unassign']);

function printed(r: AssignmentResult) {
  return { device: r.hardware_id, device_id: r.device_id, vehicle_id: r.vehicle_id, command: r.command, status: r.status, http_status: r.http_status, code: r.code };
}

export type AssignmentRunDeps = BulkDeps & WhereDeps;

export async function assignmentRun(deps: AssignmentRunDeps, given: AssignmentRunOptions): Promise<void> {
  // the expression read, checked and its names resolved before any device is listed
  const selected = given.where === undefined ? undefined : await targetSelection(deps, given.where, {});
  const opts = selected ? { ...given, selection: selected.target } : given;
  const plan = await prepareAssignmentRun(deps, opts, (line) => deps.io.info(line));
  if (selected) {
    selected.said();
    saySelected(deps, selected.target.expression, plan.selected, plan.targets);
  }
  try {
    await carryOut(deps, opts, plan);
  } finally {
    plan.journal?.close();
  }
}

async function carryOut(deps: BulkDeps, opts: AssignmentRunOptions, plan: AssignmentPlan): Promise<void> {
  const earlier = plan.journal?.results ?? new Map<string, AssignmentResult>();
  const pending = plan.targets.filter((id) => !(earlier.has(id) && isAssignmentDone(earlier.get(id)!)));
  const what = (n: number) => `${opts.command} of ${n} device${n === 1 ? '' : 's'}`;
  if (!opts.dryRun && pending.length > 0) {
    // a script without --yes is refused before any request; a person is asked once the rows are read
    requireYesUnlessInteractive(deps.io, { yes: opts.yes, refusal: `${what(pending.length)} not sent` });
    // the token for devices_write before the question: a profile without it is refused before anyone confirms
    await (await deps.api()).accessToken(scopeFor(opts.command === 'assign' ? 'assignDevice' : 'unassignDevice'));
    const sample = sampleOf(pending.map((id) => (opts.command === 'assign' ? `${id} → ${plan.vehicles[id]}` : id)), 3);
    await confirmOrRequireYes(deps, { yes: opts.yes, question: `${opts.command === 'assign' ? 'Assign' : 'Unassign'} ${pending.length} device${pending.length === 1 ? '' : 's'} (${sample})?`, refusal: `${what(pending.length)} not sent` });
  }
  const resumeHint = `resume with: ${resumeLine(deps.globals(), { verb: ['devices', opts.command], runId: plan.runId, journal: opts.journal })}`;
  const vehicleMember = opts.command === 'assign' ? assignVehicleMember((await deps.servedDocument()).document) : '';
  const results = new Map<string, AssignmentResult>();
  let failed = 0;
  let view: RunView | undefined;
  // a dry run changes nothing: no line in the ledger
  const ledger = opts.dryRun ? undefined : deps.ledger();
  try {
    await runPipeline<AssignmentOutcome>({
      api: await deps.api(), minRetries: deps.globals().maxRetries === undefined ? BULK_MAX_RETRIES : 0, clock: deps.clock, signal: deps.interruptSignal,
      targets: plan.targets, pending,
      // a dry run changes nothing, and keeps no journal
      journal: opts.dryRun ? undefined : (plan.journal ?? { configDir: deps.configDir(), given: opts.journal, header: assignmentRunHeader(opts.command, plan, deps.clock.now()) }),
      task: (api, device, signal) => assignmentAttempt(api, { device, vehicle: plan.vehicles[device] }, opts.command, { dryRun: opts.dryRun, signal, vehicleMember }),
      succeeded: (r) => SUCCESS.has(r.status), repeatable: false, concurrency: opts.concurrency ?? null, plan: planWaves(plan.targets.length, {}, { wait: false }), ledger,
    }, {
      started: async ({ journal }) => {
        // recorded once its journal is written (before that, nothing was sent)
        ledger?.record({ command: `devices ${opts.command}`, runId: plan.runId });
        if (journal) plan.journal = journal;
        if (journal) deps.io.info(runStartLine(plan.runId, what(pending.length), earlier.size > 0 ? plan.targets.length - pending.length : undefined, journal.file));
        view = await startRunView(deps, { label: opts.dryRun ? `${opts.command} (dry run)` : opts.command, total: pending.length });
      },
      say: (line) => (view ? view.say(line) : deps.io.info(line)),
      answered: ({ result }) => {
        results.set(result.hardware_id, result);
        if (!SUCCESS.has(result.status)) failed++;
        view!.progress.update(results.size, failed);
        view!.print(printed(result));
      },
    });
  } catch (error) {
    ledger?.failed(stopReason(error, deps.interruptSignal));
    if (!view) throw error;
    await view.abandon();
    if (!opts.dryRun) deps.io.info(`Stopped after ${results.size} of ${pending.length} devices; ${resumeHint}`);
    throw error;
  }
  await view!.finish();
  const ordered = pending.map((id) => results.get(id)).filter((r): r is AssignmentResult => r !== undefined);
  if (!view!.streaming) await deps.output().list(ordered.map(printed), COLUMNS);
  const whole = plan.targets.map((id) => results.get(id) ?? earlier.get(id)).filter((r): r is AssignmentResult => r !== undefined);
  summarize(deps, opts, plan, whole, resumeHint);
}

function summarize(deps: BulkDeps, opts: AssignmentRunOptions, plan: AssignmentPlan, results: AssignmentResult[], resumeHint: string): void {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const line = [...counts].map(([status, n]) => `${n} ${status.replace('_', ' ')}`).join(', ');
  const title = opts.dryRun ? `Dry run of devices ${opts.command}` : `Devices ${opts.command}, run ${plan.runId}`;
  deps.io.info(`${title}: ${results.length} device${results.length === 1 ? '' : 's'}: ${line || 'none'}${opts.dryRun ? '; nothing was sent' : ''}`);
  const failed = results.filter((r) => !SUCCESS.has(r.status));
  if (failed.length === 0) return;
  deps.io.info(`  failed: ${sampleOf(failed.map((r) => `${r.hardware_id} (${r.code ?? (r.http_status === null ? 'no answer' : `HTTP ${r.http_status}`)})`), 20)}`);
  const hint = opts.dryRun
    ? 'fix or drop those rows before the real run (every result with -o json)'
    : failed.some((r) => r.status === 'failed') ? `${resumeHint} to retry the failed devices` : 'every result is in the journal and with -o json';
  const first = failed[0]!;
  // every device failed for one reason (a missing scope, say): that reason's own exit code
  if (failed.length === results.length && first.http_status !== null && failed.every((r) => r.http_status === first.http_status && r.code === first.code)) {
    throw new ApiError({ status: first.http_status, problem: { status: first.http_status, code: first.code ?? undefined, detail: `devices ${opts.command} failed for all ${results.length} devices (${first.code ?? `HTTP ${first.http_status}`})` }, hint });
  }
  throw new PartialFailureError(`devices ${opts.command} failed for ${failed.length} of ${results.length} devices`, hint);
}
