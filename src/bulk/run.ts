// A reboot or wake-up run made ready for the pipeline (bulk/pipeline.ts): its devices resolved (skipping those whose
// record lacks the capability), or a resumed run's taken from its journal with the plan it kept; its waves planned
// over all its targets. Prints nothing: commands/devices/command-run.ts asks, renders and ends it.
import type { Deps } from '../factory.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { DeviceCommand, DeviceCommandResult } from '../api/device-commands.js';
import { hasSelection, isEmptySource, resolveTargets, selectionText, type TargetSource } from './targets.js';
import { deviceKey, keyBaseForRun, newRunId } from './keys.js';
import { isDone, Journal, journalPathOf, type JournalEntry, type JournalHeader, type RunSettings } from './journal.js';
import { planWaves, type WaveOptions, type WavePlan } from './waves.js';
import { restoreSettings, settingsFrom, type RestoredSettings } from './run-settings.js';
import { waitReportTimeField } from '../records/report-time.js';
import { currentService, resumedServiceRefusal, type RunService } from './service.js';
import { checkCapability, NOTHING_CHECKED, type CapabilityCheck } from './capability.js';

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
  /** --where EXPR (and @NAME targets) as given: the command layer reads it into `source.where` before the run. */
  where?: string;
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

export type BulkDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'interruptSignal' | 'clock' | 'configDir' | 'globals' | 'servedDocument' | 'settings' | 'ledger'>;

/** Replaced by the plan over the run's targets once the run is known. */
const NO_PLAN: WavePlan = planWaves(0, {}, { wait: false });

export interface Run {
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
  /** --where as given: the journal keeps it beside the targets it resolved to (a resume never evaluates it again). */
  where?: string;
  /** How many devices the selection (--fleet-id, --organization-id, --where) matched; 0 without one. */
  selected: number;
}

/** The run the options ask for: a new one, or the one --resume names (its journal open, and locked). */
export async function prepareCommandRun(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, notice: (line: string) => void): Promise<Run> {
  const resumed = opts.resume ? await resumeRun(deps, verb, opts, notice) : undefined;
  try {
    const settings = resumed?.settings ?? settingsFrom(opts);
    // before any device is read or sent: a --wait that cannot tell when a device reports says so now
    const wait = settings.wait ? { field: waitReportTimeField(await deps.servedDocument(), settings.wait.report_time_field ?? undefined), timeoutMs: settings.wait.timeout_ms } : undefined;
    const run = resumed ?? (await newRun(deps, verb, opts, settings));
    run.wait = wait;
    // over every target, as the first run planned it: a resumed run skips what is done, it does not re-plan
    run.plan = planWaves(run.targets.length, settings.waves, { wait: wait !== undefined });
    return run;
  } catch (error) {
    resumed?.journal?.close();
    throw error;
  }
}

/** The targets not yet done (a resumed run has done some). */
export function pendingOf(run: Run): string[] {
  return run.targets.filter((id) => !(run.earlier.has(id) && isDone(run.earlier.get(id)!)));
}

/** The key of each device of a run. */
export function runKeyFor(run: Run): (hardwareId: string) => string {
  return (hardwareId) => deviceKey(run.keyBase, hardwareId);
}

async function newRun(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, settings: RunSettings): Promise<Run> {
  const resolved = await resolveTargets({ api: deps.api, stdin: deps.io.in, signal: deps.interruptSignal, configDir: deps.configDir }, opts.source);
  // a mistyped fleet id matches nothing: in CI that must fail, not pass as "nothing to send"
  if (hasSelection(opts.source) && resolved.selected === 0 && !opts.allowEmpty) throw nothingMatched(opts.source);
  const capability = checkCapability(resolved, verb.command);
  const runId = newRunId(deps.clock.now());
  const service = await currentService(deps);
  const named = new Set(resolved.ids.filter((id) => !resolved.capabilities.has(id) && !resolved.unstated.has(id)));
  const where = opts.source.where ? { where: opts.source.where.expression } : {};
  return { runId, keyBase: opts.keyBase ?? keyBaseForRun(runId), targets: capability.sendable, capability, earlier: new Map(), settings, changed: [], plan: NO_PLAN, service, named, selected: resolved.selected, ...where };
}

/** A selection that matched no device: in CI a mistyped fleet must fail (exit 5), not pass as nothing to send. */
export function nothingMatched(source: TargetSource): NotFoundError {
  const lists = [source.fleetId !== undefined && 'fleetctl fleets list', source.organizationId !== undefined && 'fleetctl organizations list', source.where !== undefined && 'fleetctl devices list --where'].filter(Boolean);
  return new NotFoundError(
    `${selectionText(source)} matched no device`,
    `check the id with ${lists.join(' or ')}; pass --allow-empty if an empty selection is fine`,
  );
}

async function resumeRun(deps: BulkDeps, verb: BulkVerb, opts: BulkCommandOptions, notice: (line: string) => void): Promise<Run> {
  if (!isEmptySource(opts.source)) throw new UsageError('--resume takes its devices from the journal: give no hardware ids, --from-file, --from-run or selection');
  const keyClash = (header: JournalHeader) =>
    opts.keyBase !== undefined && opts.keyBase !== header.key_base
      ? new UsageError(`run ${header.run_id} used another --idempotency-key`, 'leave --idempotency-key out when resuming: the journal has it')
      : undefined;
  // the journal's plan stands: a flag that contradicts it is refused, naming both (the journal stays unlocked)
  const { journal, service, restored } = await resumeJournal<DeviceCommandResult, RestoredSettings>(deps, { runId: opts.resume!, given: opts.journal, command: verb.command, verb: verb.name }, notice, {
    refuse: keyClash,
    restore: (header) => restoreSettings(header.run_id, header, { concurrency: opts.concurrency, waves: opts.waves, wait: opts.wait }),
  });
  const { header } = journal;
  return {
    runId: header.run_id, keyBase: header.key_base, targets: header.targets, capability: NOTHING_CHECKED, earlier: new Map(journal.results), journal,
    settings: restored.settings, changed: restored.changed, plan: NO_PLAN, service, named: new Set(header.targets), selected: 0,
    ...(header.where === undefined ? {} : { where: header.where }),
  };
}

/**
 * The journal of the run --resume names, open and locked, once it is shown to be a run of this command (and of
 * nothing `refuse` finds against it) sent to the service and client in use; then what `restore` makes of it. The
 * journal is closed again when anything is refused.
 */
export async function resumeJournal<R extends JournalEntry, T>(
  deps: BulkDeps,
  resume: { runId: string; given: string | undefined; command: string; verb: string },
  notice: (line: string) => void,
  then: { refuse?: (header: JournalHeader) => Error | undefined; restore: (header: JournalHeader) => T },
): Promise<{ journal: Journal<R>; service: RunService | undefined; restored: T }> {
  const { runId } = resume;
  const journal = await Journal.open<R>(journalPathOf(deps.configDir(), runId, resume.given), runId, notice);
  try {
    const { header } = journal;
    if (header.command !== resume.command) throw new UsageError(`run ${runId} was a ${header.command.replace('_', '-')}, not a ${resume.verb}`);
    const refusal = then.refuse?.(header);
    if (refusal) throw refusal;
    const service = await currentService(deps);
    const other = resumedServiceRefusal(runId, header.service, service);
    if (other) throw other;
    return { journal, service, restored: then.restore(header) };
  } catch (error) {
    journal.close();
    throw error;
  }
}

export function commandRunHeader(verb: BulkVerb, run: Run, now: Date): JournalHeader {
  const service = run.service ? { service: run.service } : {};
  const where = run.where === undefined ? {} : { where: run.where };
  return { type: 'run', version: 1, run_id: run.runId, command: verb.command, key_base: run.keyBase, targets: run.targets, created_at: now.toISOString(), settings: run.settings, ...service, ...where };
}
