// The plan a bulk run was given (concurrency, canary, waves, pauses, brake, --wait, its timeout and report-time
// field), kept in its journal's header so that --resume continues that plan, not a new one. A flag given again on
// resume must agree with the journal, except those that may safely change (how long to wait or pause: they change
// when the next device goes out, never which or whether); those are shown in the restored plan.
import { UsageError } from '../errors.js';
import type { JournalHeader, RunSettings } from './journal.js';
import { amountText, type WaveOptions } from './waves.js';
import { formatDuration } from '../shared/duration.js';

/** How long --wait waits for a device without --wait-timeout. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;

/** The flags of the plan as given on the command line (absent: not given). */
export interface PlanFlags {
  concurrency?: number;
  waves?: WaveOptions;
  wait?: { timeoutMs?: number; reportTimeField?: string };
}

/** A resumed run's settings, and the safe changes its flags made (`--wait-timeout 10s (was 1m)`). */
export interface RestoredSettings {
  settings: RunSettings;
  changed: string[];
}

export function settingsFrom(flags: PlanFlags): RunSettings {
  return {
    concurrency: flags.concurrency ?? null,
    waves: flags.waves ?? {},
    wait: flags.wait ? { timeout_ms: flags.wait.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS, report_time_field: flags.wait.reportTimeField ?? null } : null,
  };
}

/**
 * The settings of the run a journal records, with the flags given on resume. A journal written before settings were
 * kept has only its waves: the flags given now stand, as they did then.
 */
export function restoreSettings(runId: string, header: JournalHeader, flags: PlanFlags): RestoredSettings {
  const kept = header.settings;
  if (!kept) {
    const given = settingsFrom(flags);
    const waves = flags.waves && Object.keys(flags.waves).length > 0 ? flags.waves : (header.waves ?? {});
    return { settings: { ...given, waves }, changed: [] };
  }
  const changed: string[] = [];
  const clash = (flag: string, given: string, journal: string): UsageError =>
    new UsageError(`${flag} ${given} contradicts run ${runId}, which was started with ${journal}`, `leave ${flag.split(' ')[0]} out when resuming: the journal has the run's plan`);
  if (flags.concurrency !== undefined && flags.concurrency !== kept.concurrency) {
    throw clash('--concurrency', String(flags.concurrency), kept.concurrency === null ? 'no --concurrency (adaptive)' : `--concurrency ${kept.concurrency}`);
  }
  const waves: WaveOptions = { ...kept.waves };
  for (const [key, flag] of [['canary', '--canary'], ['wave', '--wave'], ['abortIfFailed', '--abort-if-failed']] as const) {
    const given = flags.waves?.[key];
    const had = kept.waves[key];
    if (given !== undefined && (had === undefined || amountText(given) !== amountText(had))) {
      throw clash(flag, amountText(given), had === undefined ? `no ${flag}` : `${flag} ${amountText(had)}`);
    }
  }
  for (const [key, flag] of [['canaryWaitMs', '--canary-wait'], ['wavePauseMs', '--wave-pause']] as const) {
    const given = flags.waves?.[key];
    if (given === undefined || given === kept.waves[key]) continue;
    if (key === 'canaryWaitMs' && kept.waves.canary === undefined) throw clash(flag, formatDuration(given), 'no --canary');
    changed.push(`${flag} ${formatDuration(given)} (was ${kept.waves[key] === undefined ? 'none' : formatDuration(kept.waves[key]!)})`);
    waves[key] = given;
  }
  let wait = kept.wait;
  if (flags.wait) {
    if (!wait) throw new UsageError(`--wait contradicts run ${runId}, which was started without --wait`, "leave --wait out when resuming: the journal has the run's plan");
    const field = flags.wait.reportTimeField;
    if (field !== undefined && field !== wait.report_time_field) {
      throw clash('--report-time-field', field, wait.report_time_field === null ? 'no --report-time-field (the field from the API document)' : `--report-time-field ${wait.report_time_field}`);
    }
    const timeout = flags.wait.timeoutMs;
    if (timeout !== undefined && timeout !== wait.timeout_ms) {
      changed.push(`--wait-timeout ${formatDuration(timeout)} (was ${formatDuration(wait.timeout_ms)})`);
      wait = { ...wait, timeout_ms: timeout };
    }
  }
  return { settings: { concurrency: kept.concurrency, waves, wait }, changed };
}

/** The settings not said by the plan's lines (bulk/waves.ts planLines): concurrency; and what changed on resume. */
export function settingsLines(settings: RunSettings, changed: string[]): string[] {
  const lines: string[] = [];
  if (settings.concurrency !== null) lines.push(`Concurrency: at most ${settings.concurrency} in flight (--concurrency ${settings.concurrency})`);
  if (changed.length > 0) lines.push(`Changed on resume: ${changed.join(', ')}`);
  return lines;
}

