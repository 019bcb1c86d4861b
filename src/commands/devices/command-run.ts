// A reboot or wake-up of several devices, as the person running it sees it: the plan and the question before
// anything is sent, the run through the one pipeline (bulk/pipeline.ts) with its progress and streamed results, and
// at its end the results, the summary and the exit code (0, 10, 11 braked, 12 not back, or the one failure's own).
// Safe to rerun (same keys replay) and to resume.
import { UsageError } from '../../errors.js';
import { confirmOrRequireYes } from '../../io/prompter.js';
import { formatDuration } from '../../shared/duration.js';
import { commandTask, isSuccess, type DeviceCommandOutcome, type DeviceCommandResult } from '../../api/device-commands.js';
import { viewOf } from '../../output/columns.js';
import { isDone } from '../../bulk/journal.js';
import { isRunFatal } from '../../bulk/runner.js';
import { hasWaves, planLines } from '../../bulk/waves.js';
import { settingsLines } from '../../bulk/run-settings.js';
import { BULK_MAX_RETRIES, runPipeline } from '../../bulk/pipeline.js';
import type { WavesDone } from '../../bulk/wave-run.js';
import type { WaitOutcome } from '../../bulk/return-watcher.js';
import { abortedError, notBackError, RunTally, waitSummaryLines, withWait } from '../../bulk/wait-results.js';
import { bulkFailure, summaryLines } from '../../bulk/summary.js';
import { resumeLine } from '../../bulk/resume-line.js';
import { checkBeforeSending } from '../../bulk/preflight.js';
import { capabilityLines, nothingSendableError, sampleOf, skippedSummaryLine, type Moment } from '../../bulk/capability.js';
import { commandRunHeader, pendingOf, prepareCommandRun, runKeyFor, type BulkCommandOptions, type BulkDeps, type BulkVerb, type Run } from '../../bulk/run.js';
import { runStartLine, startRunView, type RunView } from '../shared/run-view.js';
import { saySelected, targetSelection, type WhereDeps } from '../shared/where.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { stopReason } from '../../ledger/entry.js';

export async function bulkCommandRun(deps: BulkDeps & WhereDeps, verb: BulkVerb, given: BulkCommandOptions): Promise<void> {
  const selected = given.where === undefined ? undefined : await targetSelection(deps, given.where, given.source);
  const opts = selected ? { ...given, source: { ...given.source, where: selected.target } } : given;
  const run = await prepareCommandRun(deps, verb, opts, (line) => deps.io.info(line));
  if (selected) {
    selected.said();
    saySelected(deps, selected.target.expression, run.selected, run.targets);
  }
  try {
    await carryOut(deps, verb, opts, run);
  } finally {
    // its lock: the run may be resumed by another process from now on
    run.journal?.close();
  }
}

async function carryOut(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, run: Run): Promise<void> {
  const pending = pendingOf(run);
  if (run.targets.length === 0) {
    announceCapability(deps, verb, run, opts.dryRun ? 'dry-run' : 'running');
    // every device skipped is a run that did nothing: never exit 0 (only --allow-empty's empty selection is)
    if (run.capability.lacking.length > 0) throw nothingSendableError(verb.command, verb.name, run.capability);
    deps.io.info('No devices matched: nothing to send.');
    return;
  }
  // mistakes found before the prompt and before anything is sent: the scope, --report-time-field, unknown devices
  const check = { command: verb.command, verb: verb.name, pending, named: run.named, dryRun: opts.dryRun, reportTimeField: run.settings.wait?.report_time_field ?? undefined, signal: deps.interruptSignal };
  await checkBeforeSending(await deps.api(), () => deps.servedDocument(), check);
  if (opts.dryRun) return dryRun(deps, verb, run, pending, opts.keyBase === undefined && opts.resume === undefined);
  // a resumed run with nothing left sends nothing: no confirmation, just the summary of the whole run
  if (pending.length > 0) await confirm(deps, verb, opts, run, pending);
  else if (run.journal) announcePlan(deps, run);
  const resumeHint = resumeHintOf(deps, verb, run, opts.journal);
  let view: RunView | undefined;
  let tally: RunTally | undefined;
  const waits = new Map<string, WaitOutcome>();
  const update = () => view!.progress.update(tally!.settled, tally!.failed, tally!.label());
  // stdout has the devices this run completed, once: a resumed run appended to the first run's file adds no
  // duplicates; the summary and the exit code count the whole run (the journal has every result)
  const listCompleted = async (): Promise<void> => {
    if (view?.streaming) return;
    const completed = pending.map((id) => run.journal!.results.get(id)).filter((r): r is DeviceCommandResult => r !== undefined);
    await deps.output().list(run.wait ? completed.map((r) => withWait(r, waits.get(r.hardware_id))) : completed, viewOf(run.wait ? 'deviceCommandWaitResult' : 'deviceCommandResult'));
  };
  // a run is recorded once its journal is written (before that, nothing was sent)
  const ledger = deps.ledger();
  let end: WavesDone;
  try {
    end = await runPipeline<DeviceCommandOutcome>({
      api: await deps.api(), minRetries: deps.globals().maxRetries === undefined ? BULK_MAX_RETRIES : 0, clock: deps.clock, signal: deps.interruptSignal,
      targets: run.targets, pending, journal: run.journal ?? { configDir: deps.configDir(), given: opts.journal, header: commandRunHeader(verb, run, deps.clock.now()) },
      task: commandTask(verb.command, runKeyFor(run)), succeeded: (r) => isSuccess(r.status), repeatable: true,
      concurrency: run.settings.concurrency, plan: run.plan, wait: run.wait, ledger,
    }, {
      started: async ({ journal, rewatched }) => {
        ledger.record({ command: `devices ${verb.name}`, runId: run.runId });
        run.journal = journal;
        const what = `${verb.name} of ${pending.length} device${pending.length === 1 ? '' : 's'}`;
        deps.io.info(runStartLine(run.runId, what, run.earlier.size > 0 ? run.targets.length - pending.length : undefined, journal!.file));
        // a resumed run first follows the devices it sent and had not seen back: they count as sent
        const total = pending.length + rewatched;
        view = await startRunView(deps, { label: verb.name, total });
        tally = new RunTally(verb.name, total, run.wait !== undefined);
        tally.alreadySent(rewatched);
      },
      say: (line) => (view ? view.say(line) : deps.io.info(line)),
      wave: (index, count) => (tally!.wave(index, count), update()),
      sending: () => (tally!.sending(), update()),
      answered: ({ result }, followed) => {
        tally!.sent(result);
        update();
        // with --wait an accepted device is printed once it is back or timed out
        if (!followed) view!.print(result);
      },
      waited: (result, outcome) => {
        waits.set(outcome.hardwareId, outcome);
        tally!.waited(outcome);
        update();
        view!.print(withWait(result, outcome));
      },
      missingField: (id, field) => view!.warn(`the last-reported state of ${id} has no ${field}: pass the name of its report time with --report-time-field`),
    });
  } catch (error) {
    ledger.failed(stopReason(error, deps.interruptSignal));
    if (!view || !tally) throw error; // the journal could not be started: nothing was sent
    await view.abandon();
    // interrupted (Ctrl-C, SIGTERM, a hang-up): -o json is still one valid document, of what was completed
    if (deps.interruptSignal.aborted) await listCompleted().catch(() => undefined);
    if (deps.interruptSignal.aborted) deps.io.info(`Interrupted after ${tally.answered} of ${pending.length} devices; ${resumeHint}`);
    else if (isRunFatal(error)) deps.io.info(`Stopped after ${tally.answered} of ${pending.length} devices: nothing more was sent. Once this is fixed, ${resumeHint}`);
    throw error;
  }
  await view!.finish();
  await listCompleted();
  endRun(deps, verb, run, { end, waits, pending: pending.length, resumeHint });
}

/** How to finish the run after an interruption or a failure, as a command line. */
function resumeHintOf(deps: BulkDeps, verb: BulkVerb, run: Run, journal: string | undefined): string {
  // the journal keeps the plan; --wait and its field are said again, as the journal has them (they agree with it)
  const waitFlags = run.wait ? ['--wait', ...(run.settings.wait?.report_time_field ? ['--report-time-field', run.settings.wait.report_time_field] : [])] : [];
  return `resume with: ${resumeLine(deps.globals(), { verb: ['devices', verb.name], runId: run.runId, journal, flags: waitFlags })}`;
}

/** The summary of a run that went through (on stderr), and its end: stopped by the brake, devices failed or not back. */
function endRun(deps: BulkDeps, verb: BulkVerb, run: Run, ended: { end: WavesDone; waits: Map<string, WaitOutcome>; pending: number; resumeHint: string }): void {
  const { end, waits, resumeHint } = ended;
  const journal = run.journal!;
  const results = run.targets.map((id) => journal.results.get(id)).filter((r): r is DeviceCommandResult => r !== undefined);
  for (const line of summaryLines(`${verb.label}, run ${run.runId}`, results)) deps.io.info(line);
  if (run.wait) for (const line of waitSummaryLines(waits)) deps.io.info(line);
  const skipped = skippedSummaryLine(deps.io.errTheme(), verb.command, run.capability);
  if (skipped) deps.io.paintedInfo(skipped);
  if (end.aborted) throw abortedError({ verb: verb.label, runId: run.runId }, end.sent, ended.pending, end.aborted, resumeHint);
  const retryable = results.some((r) => !isDone(r));
  const hint = retryable
    ? `${resumeHint} to retry the failed devices (those done are skipped)`
    : 'devices without the capability, or unknown to your credentials, cannot succeed: every result is in the journal and with -o json';
  const failure = bulkFailure(results, verb.name, hint);
  if (failure) throw failure;
  const notBack = notBackError(waits);
  if (notBack) throw notBack;
}

async function dryRun(deps: BulkDeps, verb: BulkVerb, run: Run, pending: string[], throwawayKeys: boolean): Promise<void> {
  const keyFor = runKeyFor(run);
  const rows = pending.map((id) => ({ hardware_id: id, command: verb.command, idempotency_key: keyFor(id) }));
  await deps.output().list(rows, ['hardware_id', 'command', 'idempotency_key']);
  deps.io.info(`Dry run: would send ${verb.name} to ${pending.length} device${pending.length === 1 ? '' : 's'}; nothing was sent.`);
  announcePlan(deps, run);
  announceCapability(deps, verb, run, 'dry-run');
  // without BASE the keys come from a run id of their own, which the real run will not have
  if (throwawayKeys) deps.io.info('The keys shown belong to this dry run only: a real run gets a new run id; pass --idempotency-key BASE to fix them.');
}

async function confirm(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, run: Run, pending: string[]): Promise<void> {
  const count = pending.length;
  if (count > opts.maxDevices && !opts.yes) {
    throw new UsageError(
      `${verb.name} of ${count} devices is more than --max-devices ${opts.maxDevices}`,
      'check the selection with --dry-run, then pass --yes (or raise --max-devices)',
    );
  }
  // what happens to the devices that cannot take the command is said before the question, or before the run
  if (opts.yes || deps.io.canPrompt()) {
    announcePlan(deps, run);
    announceCapability(deps, verb, run, opts.yes ? 'running' : 'asking');
  }
  const lacking = run.capability.lacking.length;
  const skipping = lacking > 0 ? `, skipping ${lacking} that lack${lacking === 1 ? 's' : ''} the capability` : '';
  await confirmOrRequireYes(deps, {
    yes: opts.yes,
    question: `${verb.label} ${count} device${count === 1 ? '' : 's'} (${sampleOf(pending)})${skipping}?`,
    refusal: `${verb.name} of ${count} device${count === 1 ? '' : 's'} not sent`,
  });
}

/** The waves, their sizes, what gates each, the brake; what --wait follows; a resumed run's plan as restored. */
function announcePlan(deps: BulkDeps, run: Run): void {
  if (run.journal) deps.io.info(`Plan of run ${run.runId}, as its journal keeps it:`);
  if (hasWaves(run.settings.waves)) for (const line of planLines(run.plan)) deps.io.info(line);
  if (run.wait) deps.io.info(`Wait: until each device reports a later ${run.wait.field} than before its command, at most ${formatDuration(run.wait.timeoutMs)} each`);
  if (run.journal) for (const line of settingsLines(run.settings, run.changed)) deps.io.info(line);
}

function announceCapability(deps: BulkDeps, verb: BulkVerb, run: Run, moment: Moment): void {
  for (const line of capabilityLines(deps.io.errTheme(), verb.command, run.capability, moment)) deps.io.paintedInfo(line);
}
