// What a run with --wait keeps in its journal of each device it follows (a `watching` line once accepted, with the
// report it had before; then `back` or `not_back`), and what a resumed run makes of it: the devices it sent and had
// not seen back are followed again before anything else is sent, and the brake counts what the run already sent
// (from the last time the brake stopped it: resuming then is the operator's decision to go on).
import { isSuccess, type DeviceCommandResult } from '../api/device-commands.js';
import { formatInstant, parseInstant, parseRfc3339 } from '../shared/rfc3339.js';
import type { Journal } from './journal.js';
import type { ReportBefore } from './return-watcher.js';
import { Brake, type Amount } from './waves.js';

/** Notes that a device is followed (`acceptedAt`: when its command was accepted; absent, as noted before). */
export function journalWatching(journal: Journal, hardwareId: string, acceptedAt: Date | undefined, before: ReportBefore, now: Date): void {
  const earlier = journal.history.waits.get(hardwareId);
  const accepted = acceptedAt?.toISOString() ?? (earlier?.outcome === 'watching' ? earlier.accepted_at : now.toISOString());
  journal.appendWait({
    type: 'wait',
    hardware_id: hardwareId,
    outcome: 'watching',
    accepted_at: accepted,
    ...(before === undefined ? {} : { reported_before: before === null ? null : formatInstant(before) }),
    at: now.toISOString(),
  });
}

/** The devices a resumed run had sent and was following, not yet back or timed out: when each was accepted, and its report before. */
export function stillWatched(results: Map<string, DeviceCommandResult>, journal: Journal | undefined): Map<string, { acceptedAt: number; before: ReportBefore }> {
  const watched = new Map<string, { acceptedAt: number; before: ReportBefore }>();
  if (!journal) return watched;
  for (const [id, line] of journal.history.waits) {
    const result = results.get(id);
    if (line.outcome !== 'watching' || !result || !isSuccess(result.status)) continue;
    const acceptedAt = parseRfc3339(line.accepted_at);
    if (acceptedAt === undefined) continue;
    const before = line.reported_before === undefined ? undefined : line.reported_before === null ? null : parseInstant(line.reported_before);
    watched.set(id, { acceptedAt, before });
  }
  return watched;
}

/** The run's brake, counting what its journal has since the brake last stopped it. */
export function brakeFrom(threshold: Amount | undefined, results: Map<string, DeviceCommandResult>, journal: Journal | undefined): Brake {
  const brake = new Brake(threshold);
  if (!journal) return brake;
  for (const id of journal.history.sinceBrake) {
    const result = results.get(id);
    if (result) brake.answered(id, !isSuccess(result.status));
    if (journal.history.waits.get(id)?.outcome === 'not_back') brake.notBack(id);
  }
  return brake;
}
