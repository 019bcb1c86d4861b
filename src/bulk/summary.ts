// The end of a bulk run: counts, the ids that failed, and the exit code (0, 10, or the single failure's own).
import { ApiError, NetworkError, PartialFailureError, type FleetctlError } from '../errors.js';
import { isSuccess, type CommandStatus, type DeviceCommandResult } from '../api/device-commands.js';

const SAMPLE = 20;

const LABELS: Record<CommandStatus, string> = {
  accepted: 'accepted',
  replayed: 'replayed',
  capability_missing: 'capability missing',
  not_found: 'not found',
  failed: 'failed',
};

/** Lines for stderr: the counts, then the ids of each kind of failure. */
export function summaryLines(title: string, results: DeviceCommandResult[]): string[] {
  const counts: Record<CommandStatus, number> = { accepted: 0, replayed: 0, capability_missing: 0, not_found: 0, failed: 0 };
  for (const result of results) counts[result.status]++;
  const lines = [`${title}: ${results.length} device${results.length === 1 ? '' : 's'}: ${(Object.keys(LABELS) as CommandStatus[]).map((s) => `${counts[s]} ${LABELS[s]}`).join(', ')}`];
  for (const status of ['capability_missing', 'not_found', 'failed'] as const) {
    const ids = results.filter((r) => r.status === status).map((r) => (status === 'failed' ? `${r.hardware_id} (${reason(r)})` : r.hardware_id));
    if (ids.length === 0) continue;
    const more = ids.length > SAMPLE ? `, and ${ids.length - SAMPLE} more (all of them with -o json)` : '';
    lines.push(`  ${LABELS[status]}: ${ids.slice(0, SAMPLE).join(', ')}${more}`);
  }
  return lines;
}

function reason(result: DeviceCommandResult): string {
  if (result.http_status === null) return result.code ?? 'no answer';
  return result.code ? `${result.code}, HTTP ${result.http_status}` : `HTTP ${result.http_status}`;
}

/**
 * undefined when every device succeeded; the shared error when all failed for one reason (so its own exit
 * code); otherwise a partial failure (exit 10).
 */
export function bulkFailure(results: DeviceCommandResult[], what: string, hint: string): FleetctlError | undefined {
  const failed = results.filter((r) => !isSuccess(r.status));
  if (failed.length === 0) return undefined;
  const first = failed[0]!;
  const allSame = failed.length === results.length && failed.every((r) => r.http_status === first.http_status && r.code === first.code);
  if (allSame) {
    const detail = `${what} failed for ${results.length === 1 ? 'the device' : `all ${results.length} devices`}: ${LABELS[first.status]} (${reason(first)})`;
    if (first.http_status === null) return new NetworkError(detail, hint);
    return new ApiError({ status: first.http_status, problem: { status: first.http_status, code: first.code ?? undefined, detail }, hint });
  }
  return new PartialFailureError(`${what} failed for ${failed.length} of ${results.length} devices`, hint);
}
