// What `status --watch` says: one stdout line per change (data: text, or one JSON object per change with -o
// json/ndjson/yaml/--jq), and the --on-breach command, run with the report on its standard input.
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import type { Output } from '../../output/render.js';
import { safeText } from '../../shared/terminal-text.js';
import { runShellCommand, shellFailure } from '../../io/shell-command.js';
import type { DeviceChange, StatusChange, ThresholdChange } from './status-changes.js';
import type { StatusReport } from './report.js';
import type { Threshold } from './thresholds.js';

/** How long the --on-breach command may run before it is stopped (SIGTERM) and a warning says so. */
export const ON_BREACH_TIMEOUT_MS = 30_000;

/** Writes each change as it is found: the writer for the output format asked for, chosen once. */
export type ChangeWriter = (change: StatusChange) => Promise<void>;

export function changeWriter(output: Output, thresholds: readonly Threshold[]): ChangeWriter {
  if (!output.writesLoneItems) throw new UsageError(`status --watch prints one line per change, not ${output.formatName}`, 'use -o ndjson (one JSON object per change), or leave -o out for text lines');
  if (output.isMachineReadable) return (change) => output.item(change);
  return async (change) => output.text(changeLine(change, thresholds));
}

/**
 * `2026-11-27T08:00:00Z  HW-000004  went stale (last report 2026-11-27T06:58:00Z)`: to the second, and a coming back
 * told by when it reported, so that a line fits 80 columns with a hardware id of the usual length (a wrapped line
 * is two in a journal); -o ndjson has the times as the service wrote them.
 */
export function changeLine(change: StatusChange, thresholds: readonly Threshold[]): string {
  return `${toTheSecond(change.time)}  ${change.kind === 'device' ? deviceWords(change) : thresholdWords(change, thresholds)}`;
}

/** An RFC 3339 time without its fraction of a second, whatever its offset. */
function toTheSecond(time: string): string {
  return time.replace(/(T\d\d:\d\d:\d\d)\.\d+/, '$1');
}

function deviceWords(change: DeviceChange): string {
  const name = safeText(change.hardware_id ?? change.id ?? '?');
  const last = change.last_report === null ? null : safeText(toTheSecond(change.last_report));
  switch (change.to) {
    case 'reporting': {
      const words = change.from === 'stale' ? 'came back' : change.from === 'never_reported' ? 'first report' : 'reporting again';
      return `${name}  ${words}${last === null ? '' : ` at ${last}`}`;
    }
    case 'stale':
      return `${name}  went stale${last === null ? '' : ` (last report ${last})`}`;
    case 'never_reported':
      return `${name}  has never reported`;
    case 'unknown':
      return `${name}  report time unreadable`;
    case 'gone':
      return `${name}  no longer listed (was ${change.from.replace('_', ' ')})`;
  }
}

/** The expression names the threshold: `stale>5% breached: stale is 7.5% (3 of 40), > 5%`. */
function thresholdWords(change: ThresholdChange, thresholds: readonly Threshold[]): string {
  const name = safeText(change.threshold);
  if (change.to === 'breached') return `${name} breached: ${safeText(change.reason ?? '')}`;
  const percent = thresholds.find((t) => t.expression === change.threshold)?.percent ? '%' : '';
  return `${name} cleared (now ${change.actual ?? '?'}${percent})`;
}

/**
 * The --on-breach command, once per transition into breach: the report as JSON on its standard input. A failure
 * (an exit status other than 0, the timeout, a command that cannot start) is a warning: the watch goes on.
 */
export async function runOnBreach(deps: Pick<Deps, 'io' | 'env' | 'signal'>, command: string, report: StatusReport): Promise<void> {
  try {
    const result = await runShellCommand(command, { input: `${JSON.stringify(report)}\n`, timeoutMs: ON_BREACH_TIMEOUT_MS, signal: deps.signal, env: deps.env });
    const failure = shellFailure(result, ON_BREACH_TIMEOUT_MS);
    const fields = { on_breach: { exit_status: result.code, killed_by: result.killedBy } };
    if (failure) deps.io.warn(`--on-breach command ${failure}`, fields);
    else deps.io.info('--on-breach command ran (exit 0).', fields);
  } catch (error) {
    if (deps.signal.aborted) throw error;
    deps.io.warn(`--on-breach command could not run: ${(error as Error).message}`);
  }
}
