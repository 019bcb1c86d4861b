// The bulk engine's run of `devices assign|unassign --from-file`: the rows checked before anything is sent, a
// confirmation (or --yes), every result journalled as it arrives, paced and adaptive as a bulk reboot is
// (runner.ts with an assignment task), --resume RUN_ID to finish an interrupted run, per-device results on stdout,
// exit 10 when some failed. --dry-run reads each device and shows the change it would make.
import { setMaxListeners } from 'node:events';
import { ApiError, PartialFailureError, UsageError } from '../errors.js';
import { confirmOrRequireYes, requireYesUnlessInteractive } from '../io/prompter.js';
import { startProgress } from '../io/progress.js';
import { readFileOrStdin } from '../io/read-input.js';
import { quoteInput } from '../shared/terminal-text.js';
import { Journal, journalPathOf, noteJournalElsewhere } from './journal.js';
import { newRunId } from './keys.js';
import { scopeFor } from '../openapi/operations.js';
import { currentService, resumedServiceRefusal, type RunService } from './service.js';
import { resumeLine } from './resume-line.js';
import { runBulk } from './runner.js';
import { DEFAULT_CONCURRENCY, pacedClient, type BulkDeps } from './run.js';
import { sampleOf } from './capability.js';
import { parseAssignmentRows, type AssignmentCommand } from './assignment-rows.js';
import { assignVehicleMember } from '../records/assignment.js';
import { assignmentAttempt, isAssignmentDone, type AssignmentResult } from './assignment-task.js';

export interface AssignmentRunOptions {
  command: AssignmentCommand;
  /** --from-file FILE, `-` for stdin; absent with --resume. */
  fromFile?: string;
  yes: boolean;
  dryRun: boolean;
  concurrency?: number;
  journal?: string;
  resume?: string;
}

/** What stdout shows of a result: the device as the row named it. */
const COLUMNS = ['device', 'device_id', 'vehicle_id', 'command', 'status', 'http_status', 'code'];
const SUCCESS = new Set(['assigned', 'unassigned', 'unchanged', 'would_assign', 'would_unassign']);

function printed(r: AssignmentResult) {
  return { device: r.hardware_id, device_id: r.device_id, vehicle_id: r.vehicle_id, command: r.command, status: r.status, http_status: r.http_status, code: r.code };
}

interface Plan {
  runId: string;
  targets: string[];
  vehicles: Record<string, string>;
  journal?: Journal<AssignmentResult>;
  /** Where the run is sent, for its journal (a resumed run was checked against its journal's). */
  service?: RunService;
}

export async function assignmentRun(deps: BulkDeps, opts: AssignmentRunOptions): Promise<void> {
  const plan = opts.resume ? await resumed(deps, opts) : await fromRows(deps, opts);
  try {
    await carryOut(deps, opts, plan);
  } finally {
    plan.journal?.close();
  }
}

async function fromRows(deps: BulkDeps, opts: AssignmentRunOptions): Promise<Plan> {
  const file = opts.fromFile!;
  const source = file === '-' ? '--from-file (stdin)' : quoteInput(file);
  const rows = parseAssignmentRows(await readFileOrStdin(file, deps.io.in, '--from-file', { signal: deps.interruptSignal }), opts.command, source);
  const vehicles: Record<string, string> = {};
  for (const row of rows) if (row.vehicle !== undefined) vehicles[row.device] = row.vehicle;
  return { runId: newRunId(deps.clock.now()), targets: rows.map((r) => r.device), vehicles, service: await currentService(deps) };
}

async function resumed(deps: BulkDeps, opts: AssignmentRunOptions): Promise<Plan> {
  const runId = opts.resume!;
  const journal = await Journal.open<AssignmentResult>(journalPathOf(deps.configDir(), runId, opts.journal), runId, (line) => deps.io.info(line));
  const service = await currentService(deps).catch((error: unknown) => error as Error);
  const refusal = journal.header.command !== opts.command
    ? new UsageError(`run ${runId} was a ${journal.header.command.replace('_', '-')}, not a devices ${opts.command}`)
    : service instanceof Error ? service : resumedServiceRefusal(runId, journal.header.service, service);
  if (refusal) {
    journal.close();
    throw refusal;
  }
  return { runId, targets: journal.header.targets, vehicles: journal.header.vehicles ?? {}, journal, service: service as RunService | undefined };
}

async function carryOut(deps: BulkDeps, opts: AssignmentRunOptions, plan: Plan): Promise<void> {
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
  const service = plan.service ? { service: plan.service } : {};
  const header = { type: 'run', version: 1, run_id: plan.runId, command: opts.command, key_base: '', targets: plan.targets, created_at: deps.clock.now().toISOString(), vehicles: plan.vehicles, ...service } as const;
  if (!opts.dryRun && !plan.journal) {
    plan.journal = await Journal.create<AssignmentResult>(journalPathOf(deps.configDir(), plan.runId, opts.journal), header, (line) => deps.io.info(line));
    await noteJournalElsewhere(deps.configDir(), plan.runId, plan.journal.file);
  }
  const journal = opts.dryRun ? undefined : plan.journal;
  const resumeHint = `resume with: ${resumeLine(deps.globals(), { verb: ['devices', opts.command], runId: plan.runId, journal: opts.journal })}`;
  if (journal) deps.io.info(`Run ${plan.runId}: ${what(pending.length)}${earlier.size > 0 ? ` (${plan.targets.length - pending.length} already done)` : ''}; journal ${journal.file} (if interrupted: --resume ${plan.runId})`);

  const output = deps.output();
  const streaming = output.format === 'ndjson';
  const results = new Map<string, AssignmentResult>();
  let printedSoFar = Promise.resolve();
  const progress = await startProgress(deps.io, { label: opts.dryRun ? `${opts.command} (dry run)` : opts.command, total: pending.length });
  let failed = 0;
  const { api, retry } = pacedClient(await deps.api(), deps);
  const vehicleMember = opts.command === 'assign' ? assignVehicleMember((await deps.servedDocument()).document) : '';
  const concurrency = opts.concurrency === undefined ? DEFAULT_CONCURRENCY : { initial: opts.concurrency, max: opts.concurrency };
  setMaxListeners(Math.max(64, concurrency.max * 8), deps.interruptSignal);
  try {
    await runBulk(api, {
      hardwareIds: pending,
      concurrency,
      retry,
      send: (device, signal) => assignmentAttempt(api, { device, vehicle: plan.vehicles[device] }, opts.command, { dryRun: opts.dryRun, signal, vehicleMember }),
    }, {
      signal: deps.interruptSignal,
      clock: deps.clock,
      onResult: ({ result }) => {
        journal?.append(result, deps.clock.now());
        results.set(result.hardware_id, result);
        if (!SUCCESS.has(result.status)) failed++;
        progress.update(results.size, failed);
        if (streaming) progress.above(() => {
          const line = output.item(printed(result));
          line.catch(() => undefined);
          printedSoFar = printedSoFar.then(() => line);
        });
      },
    });
  } catch (error) {
    progress.finish();
    await printedSoFar.catch(() => undefined);
    if (journal) deps.io.info(`Stopped after ${results.size} of ${pending.length} devices; ${resumeHint}`);
    throw error;
  }
  progress.finish();
  await printedSoFar;
  const ordered = pending.map((id) => results.get(id)).filter((r): r is AssignmentResult => r !== undefined);
  if (!streaming) await output.list(ordered.map(printed), COLUMNS);
  const whole = plan.targets.map((id) => results.get(id) ?? earlier.get(id)).filter((r): r is AssignmentResult => r !== undefined);
  summarize(deps, opts, plan, whole, resumeHint);
}

function summarize(deps: BulkDeps, opts: AssignmentRunOptions, plan: Plan, results: AssignmentResult[], resumeHint: string): void {
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
