// The bulk engine's run of a reboot or wake-up: resolve the devices (skipping those whose record lacks the
// capability), confirm, journal every result, pace to the API's rate limit, and end with a summary and the right
// exit code. Safe to rerun (same keys replay) and to resume. `devices reboot` and `wake-up` are verbs over it.
import { setMaxListeners } from 'node:events';
import type { Deps } from '../factory.js';
import { NotFoundError, UsageError } from '../errors.js';
import { confirmOrRequireYes } from '../io/prompter.js';
import { formatDuration, startProgress } from '../io/progress.js';
import { RatePacer } from '../api/rate-pacer.js';
import type { ApiClient } from '../api/client.js';
import type { RetryPolicy } from '../shared/retry.js';
import { isSuccess, type DeviceCommand, type DeviceCommandResult } from '../api/device-commands.js';
import { viewOf } from '../output/columns.js';
import { hasSelection, isEmptySource, resolveTargets, selectionText, type TargetSource } from './targets.js';
import { deviceKey, keyBaseForRun, newRunId } from './keys.js';
import { isDone, Journal, journalPathOf, noteJournalElsewhere } from './journal.js';
import { isRunFatal } from './runner.js';
import { hasWaves, planLines, planWaves, type WaveOptions, type WavePlan } from './waves.js';
import { restoreSettings, settingsFrom, settingsLines, type RestoredSettings } from './run-settings.js';
import { brakeFrom, journalWatching, stillWatched } from './wait-journal.js';
import type { RunSettings } from './journal.js';
import { WaveSender, type WavesDone } from './wave-run.js';
import { ReturnWatcher, type WaitOutcome } from './return-watcher.js';
import { waitReportTimeField } from '../records/report-time.js';
import { abortedError, notBackError, RunTally, waitSummaryLines, withWait } from './wait-results.js';
import type { ConcurrencyBounds } from './concurrency.js';
import { bulkFailure, summaryLines } from './summary.js';
import { currentService, resumedServiceRefusal, type RunService } from './service.js';
import { resumeLine } from './resume-line.js';
import { checkBeforeSending } from './preflight.js';
import { capabilityLines, checkCapability, NOTHING_CHECKED, nothingSendableError, sampleOf, skippedSummaryLine, type CapabilityCheck, type Moment } from './capability.js';

/** The command a run sends, and how messages name it. */
export interface BulkVerb {
  command: DeviceCommand;
  /** The verb as typed: reboot, wake-up. */
  name: string;
  /** "Reboot", "Wake up". */
  label: string;
}

export interface BulkCommandOptions {
  source: TargetSource;
  /** --idempotency-key BASE: each device's key is derived from it. */
  keyBase?: string;
  yes: boolean;
  dryRun: boolean;
  maxDevices: number;
  /** --concurrency N: at most N in flight; absent, the run adapts (DEFAULT_CONCURRENCY). */
  concurrency?: number;
  journal?: string;
  resume?: string;
  /** --allow-empty: a selection that matches no device is not an error (a CI job over fleets that may be empty). */
  allowEmpty?: boolean;
  /** --canary, --canary-wait, --wave, --wave-pause, --abort-if-failed (a resumed run keeps its journal's). */
  waves?: WaveOptions;
  /** --wait: follow each accepted device until it reports again (timeout absent: the default, or on --resume the journal's). */
  wait?: { timeoutMs?: number; reportTimeField?: string };
}

export type BulkDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'interruptSignal' | 'clock' | 'configDir' | 'globals' | 'servedDocument' | 'settings'>;

/** Retries per request in a bulk run unless --max-retries says otherwise: 503s and drops are retried with the same key. */
export const BULK_MAX_RETRIES = 10;

/** Replaced by the plan over the run's targets once the run is known. */
const NO_PLAN: WavePlan = planWaves(0, {}, { wait: false });

/** Without --concurrency: 8 in flight at first, up to 64 while the API accepts them. */
export const DEFAULT_CONCURRENCY: ConcurrencyBounds = { initial: 8, max: 64 };

interface Run {
  runId: string;
  keyBase: string;
  targets: string[];
  /** What the device records said of the capability (a resumed run has its targets already checked). */
  capability: CapabilityCheck;
  /** Results of an earlier attempt (--resume). */
  earlier: Map<string, DeviceCommandResult>;
  journal?: Journal;
  /** The plan the run keeps (its journal has it), what changed of it on resume, and its waves over the targets. */
  settings: RunSettings;
  changed: string[];
  plan: WavePlan;
  /** --wait: the report-time field, found before anything is sent. */
  wait?: { field: string; timeoutMs: number };
  /** Where the run is sent, for its journal (a resumed run was checked against its journal's). */
  service?: RunService;
  /** Targets named by hardware id, with no record read (all of a resumed run's): a dry run looks them up. */
  named: ReadonlySet<string>;
}

export async function bulkCommandRun(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions): Promise<void> {
  const resumed = opts.resume ? await resumeRun(deps, verb, opts) : undefined;
  let run = resumed;
  try {
    const settings = resumed?.settings ?? settingsFrom(opts);
    // before any device is read or sent: a --wait that cannot tell when a device reports says so now
    const wait = settings.wait ? { field: waitReportTimeField(await deps.servedDocument(), settings.wait.report_time_field ?? undefined), timeoutMs: settings.wait.timeout_ms } : undefined;
    run ??= await newRun(deps, verb, opts, settings);
    run.wait = wait;
    // over every target, as the first run planned it: a resumed run skips what is done, it does not re-plan
    run.plan = planWaves(run.targets.length, settings.waves, { wait: wait !== undefined });
    await carryOut(deps, verb, opts, run);
  } finally {
    // its lock: the run may be resumed by another process from now on
    run?.journal?.close();
  }
}

async function carryOut(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, run: Run): Promise<void> {
  const pending = run.targets.filter((id) => !(run.earlier.has(id) && isDone(run.earlier.get(id)!)));
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
  if (!run.journal) {
    run.journal = await Journal.create(journalPathOf(deps.configDir(), run.runId, opts.journal), header(verb, run, deps.clock.now()), (line) => deps.io.info(line));
    await noteJournalElsewhere(deps.configDir(), run.runId, run.journal.file);
  }
  const journal = run.journal;
  // the journal keeps the plan; --wait and its field are said again, as the journal has them (they agree with it)
  const waitFlags = run.wait ? ['--wait', ...(run.settings.wait?.report_time_field ? ['--report-time-field', run.settings.wait.report_time_field] : [])] : [];
  const resumeHint = `resume with: ${resumeLine(deps.globals(), { verb: ['devices', verb.name], runId: run.runId, journal: opts.journal, flags: waitFlags })}`;
  deps.io.info(
    `Run ${run.runId}: ${verb.name} of ${pending.length} device${pending.length === 1 ? '' : 's'}${run.earlier.size > 0 ? ` (${run.targets.length - pending.length} already done)` : ''}; ` +
      `journal ${journal.file} (if interrupted: --resume ${run.runId})`,
  );

  const output = deps.output();
  const streaming = output.format === 'ndjson';
  // results are printed in the order they are final, one after the other (--jq runs each through jq)
  let printed = Promise.resolve();
  // a resumed run first follows the devices it sent and had not seen back: they gate the next wave (and brake it)
  const rewatch = run.wait ? stillWatched(journal.results, run.journal) : new Map();
  const total = pending.length + rewatch.size;
  const progress = await startProgress(deps.io, { label: verb.name, total });
  const tally = new RunTally(verb.name, total, run.wait !== undefined);
  tally.alreadySent(rewatch.size);
  const print = (record: object): void => {
    if (!streaming) return;
    // ndjson writes its line synchronously, so it is out before the progress line comes back
    progress.above(() => {
      const line = output.item(record);
      line.catch(() => undefined); // reported once, from `printed`
      printed = printed.then(() => line);
    });
  };
  const { api, retry } = pacedClient(await deps.api(), deps);
  const limit = run.settings.concurrency;
  const concurrency = limit === null ? DEFAULT_CONCURRENCY : { initial: limit, max: limit };
  // every request in flight listens to the signal (undici, Retry-After sleeps, the pacer)
  setMaxListeners(Math.max(64, concurrency.max * 8), deps.interruptSignal);
  const waits = new Map<string, WaitOutcome>();
  const brake = brakeFrom(run.settings.waves.abortIfFailed, journal.results, run.journal);
  const watcher = run.wait && new ReturnWatcher(api, {
    field: run.wait.field,
    timeoutMs: run.wait.timeoutMs,
    clock: deps.clock,
    signal: deps.interruptSignal,
    onMissingField: (id) => progress.above(() => deps.io.warn(`the last-reported state of ${id} has no ${run.wait!.field}: pass the name of its report time with --report-time-field`)),
    onBefore: (id, before) => journalWatching(journal, id, undefined, before, deps.clock.now()),
    onOutcome: (outcome) => {
      waits.set(outcome.hardwareId, outcome);
      if (!outcome.back) brake.notBack(outcome.hardwareId);
      journal.appendWait({ type: 'wait', hardware_id: outcome.hardwareId, outcome: outcome.back ? 'back' : 'not_back', after_ms: outcome.afterMs, at: deps.clock.now().toISOString() });
      tally.waited(outcome);
      progress.update(tally.settled, tally.failed, tally.label());
      print(withWait(journal.results.get(outcome.hardwareId)!, outcome));
    },
  });
  if (watcher) for (const [id, sent] of rewatch) watcher.watch(id, sent.acceptedAt, sent.before);
  const sender = new WaveSender({
    api, retry, concurrency, command: verb.command, keyFor: (id) => deviceKey(run.keyBase, id), targets: run.targets, toSend: new Set(pending), plan: run.plan, brake,
    watcher: watcher || undefined, reportField: run.wait?.field, lastActivityAt: journal.history.lastAt,
    signal: deps.interruptSignal, clock: deps.clock, say: (line) => progress.above(() => deps.io.info(line)),
    onWave: (index) => {
      tally.wave(index, run.plan.sizes.length);
      progress.update(tally.settled, tally.failed, tally.label());
    },
    onSending: () => {
      tally.sending();
      progress.update(tally.settled, tally.failed, tally.label());
    },
    onResult: ({ result }, before) => {
      journal.append(result, deps.clock.now());
      if (watcher && isSuccess(result.status)) journalWatching(journal, result.hardware_id, deps.clock.now(), before, deps.clock.now());
      tally.sent(result);
      progress.update(tally.settled, tally.failed, tally.label());
      // with --wait an accepted device is printed once it is back or timed out
      if (!watcher || !isSuccess(result.status)) print(result);
    },
  });
  // stdout has the devices this run completed, once: a resumed run appended to the first run's file adds no
  // duplicates; the summary and the exit code count the whole run (the journal has every result)
  const listCompleted = async (): Promise<void> => {
    if (streaming) return;
    const completed = pending.map((id) => journal.results.get(id)).filter((r): r is DeviceCommandResult => r !== undefined);
    await output.list(watcher ? completed.map((r) => withWait(r, waits.get(r.hardware_id))) : completed, viewOf(watcher ? 'deviceCommandWaitResult' : 'deviceCommandResult'));
  };
  let done: WavesDone;
  try {
    done = await sender.send();
    await watcher?.drain();
    if (deps.interruptSignal.aborted) throw deps.interruptSignal.reason;
  } catch (error) {
    watcher?.stop();
    progress.finish();
    await printed.catch(() => undefined);
    // interrupted (Ctrl-C, SIGTERM, a hang-up): -o json is still one valid document, of what was completed
    if (deps.interruptSignal.aborted) await listCompleted().catch(() => undefined);
    if (deps.interruptSignal.aborted) deps.io.info(`Interrupted after ${tally.answered} of ${pending.length} devices; ${resumeHint}`);
    else if (isRunFatal(error)) deps.io.info(`Stopped after ${tally.answered} of ${pending.length} devices: nothing more was sent. Once this is fixed, ${resumeHint}`);
    throw error;
  }
  progress.finish();
  await printed;

  const results = run.targets.map((id) => journal.results.get(id)).filter((r): r is DeviceCommandResult => r !== undefined);
  await listCompleted();
  for (const line of summaryLines(`${verb.label}, run ${run.runId}`, results)) deps.io.info(line);
  if (watcher) for (const line of waitSummaryLines(waits)) deps.io.info(line);
  const skipped = skippedSummaryLine(deps.io.errTheme(), verb.command, run.capability);
  if (skipped) deps.io.paintedInfo(skipped);
  if (done.aborted) journal.appendBrake(done.aborted, deps.clock.now());
  if (done.aborted) throw abortedError({ verb: verb.label, runId: run.runId }, done.sent, pending.length, done.aborted, resumeHint);
  const retryable = results.some((r) => !isDone(r));
  const hint = retryable
    ? `${resumeHint} to retry the failed devices (those done are skipped)`
    : 'devices without the capability, or unknown to your credentials, cannot succeed: every result is in the journal and with -o json';
  const failure = bulkFailure(results, verb.name, hint);
  if (failure) throw failure;
  const notBack = notBackError(waits);
  if (notBack) throw notBack;
}

async function newRun(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, settings: RunSettings): Promise<Run> {
  const resolved = await resolveTargets({ api: deps.api, stdin: deps.io.in, signal: deps.interruptSignal, configDir: deps.configDir }, opts.source);
  // a mistyped fleet id matches nothing: in CI that must fail, not pass as "nothing to send"
  if (hasSelection(opts.source) && resolved.selected === 0 && !opts.allowEmpty) throw nothingMatched(opts.source);
  const capability = checkCapability(resolved, verb.command);
  const runId = newRunId(deps.clock.now());
  const service = await currentService(deps);
  const named = new Set(resolved.ids.filter((id) => !resolved.capabilities.has(id) && !resolved.unstated.has(id)));
  return { runId, keyBase: opts.keyBase ?? keyBaseForRun(runId), targets: capability.sendable, capability, earlier: new Map(), settings, changed: [], plan: NO_PLAN, service, named };
}

function nothingMatched(source: TargetSource): NotFoundError {
  const lists = [source.fleetId !== undefined && 'fleetctl fleets list', source.organizationId !== undefined && 'fleetctl organizations list'].filter(Boolean);
  return new NotFoundError(
    `${selectionText(source)} matched no device`,
    `check the id with ${lists.join(' or ')}; pass --allow-empty if an empty selection is fine`,
  );
}

async function resumeRun(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions): Promise<Run> {
  const runId = opts.resume!;
  if (!isEmptySource(opts.source)) throw new UsageError('--resume takes its devices from the journal: give no hardware ids, --from-file, --from-run or selection');
  const journal = await Journal.open(journalPathOf(deps.configDir(), runId, opts.journal), runId, (line) => deps.io.info(line));
  const { header } = journal;
  const mismatch = header.command !== verb.command
    ? new UsageError(`run ${runId} was a ${header.command.replace('_', '-')}, not a ${verb.name}`)
    : opts.keyBase !== undefined && opts.keyBase !== header.key_base
      ? new UsageError(`run ${runId} used another --idempotency-key`, 'leave --idempotency-key out when resuming: the journal has it')
      : undefined;
  const service = await currentService(deps).catch((error: unknown) => error as Error);
  const refusal = mismatch ?? (service instanceof Error ? service : resumedServiceRefusal(runId, header.service, service));
  if (refusal) {
    journal.close();
    throw refusal;
  }
  // the journal's plan stands: a flag that contradicts it is refused, naming both (the journal stays unlocked)
  let restored: RestoredSettings;
  try {
    restored = restoreSettings(runId, header, { concurrency: opts.concurrency, waves: opts.waves, wait: opts.wait });
  } catch (error) {
    journal.close();
    throw error;
  }
  const { settings, changed } = restored;
  return {
    runId, keyBase: header.key_base, targets: header.targets, capability: NOTHING_CHECKED, earlier: new Map(journal.results), journal, settings, changed, plan: NO_PLAN,
    service: service as RunService | undefined, named: new Set(header.targets),
  };
}

function header(verb: BulkVerb, run: Run, now: Date) {
  const service = run.service ? { service: run.service } : {};
  return { type: 'run', version: 1, run_id: run.runId, command: verb.command, key_base: run.keyBase, targets: run.targets, created_at: now.toISOString(), settings: run.settings, ...service } as const;
}

async function dryRun(deps: BulkDeps, verb: BulkVerb, run: Run, pending: string[], throwawayKeys: boolean): Promise<void> {
  const rows = pending.map((id) => ({ hardware_id: id, command: verb.command, idempotency_key: deviceKey(run.keyBase, id) }));
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

/**
 * The API client for the run, paced to the rate the API accepts; and the retries of the run, patient with 503s and
 * dropped connections. The runner makes them (a device waiting for its retry holds no request slot): the client
 * makes none.
 */
export function pacedClient(api: ApiClient, deps: BulkDeps): { api: ApiClient; retry: RetryPolicy } {
  const pacer = new RatePacer(deps.clock);
  const policy = api.retryPolicy;
  const maxRetries = deps.globals().maxRetries === undefined ? Math.max(policy.maxRetries, BULK_MAX_RETRIES) : policy.maxRetries;
  const paced = api.derive({
    retry: { ...policy, maxRetries: 0 },
    onRateLimited: (waitMs) => pacer.onRateLimited(waitMs),
    throttle: (signal) => pacer.acquire(signal),
  });
  return { api: paced, retry: { ...policy, maxRetries } };
}
