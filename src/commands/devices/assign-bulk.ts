// `devices assign|unassign --from-file FILE`: the flags both verbs share for a bulk assignment, checked before
// anything is read or sent, and what the run is (src/bulk/assignment-run.ts carries it out).
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { RUN_ID_PATTERN } from '../../bulk/keys.js';
import type { AssignmentCommand } from '../../bulk/assignment-rows.js';
import type { AssignmentRunOptions } from '../../bulk/assignment-run.js';
import { completeValues } from '../../completion/values.js';
import { requireNonEmpty, requireWholeNumber } from '../shared/validate.js';

export interface BulkAssignmentFlags {
  fromFile?: string;
  dryRun?: boolean;
  yes?: boolean;
  concurrency?: string;
  journal?: string;
  resume?: string;
}

export function addBulkAssignmentOptions(command: Command, which: AssignmentCommand): Command {
  const columns = which === 'assign' ? 'device,vehicle' : 'device (a vehicle column is ignored)';
  command
    .option('--from-file <file>', `many devices: CSV with a header row (${columns}) or NDJSON, device by id or hardware id (- for stdin)`)
    .option('--dry-run', 'with --from-file: read each device and show the change it would make; change nothing')
    .option('--concurrency <n>', 'with --from-file: at most n requests in flight, 1 to 64 (default: adaptive, from 8)')
    .option('--journal <file>', 'with --from-file: where to record results (default: in the config directory, by run id)')
    .option('--resume <run-id>', 'finish an interrupted --from-file run: skips devices already done');
  return completeValues(command, { '--from-file': 'file', '--journal': 'file' });
}

/** The bulk run the flags ask for, or undefined for the one device of the argument. */
export function bulkAssignmentFrom(which: AssignmentCommand, device: string | undefined, flags: BulkAssignmentFlags & { vehicleId?: string; field?: string[] }): AssignmentRunOptions | undefined {
  const bulk = flags.fromFile !== undefined || flags.resume !== undefined;
  if (!bulk) {
    const stray = [flags.dryRun && '--dry-run', flags.concurrency !== undefined && '--concurrency', flags.journal !== undefined && '--journal'].filter(Boolean);
    if (stray.length > 0) throw new UsageError(`${stray.join(', ')} ${stray.length === 1 ? 'goes' : 'go'} with --from-file`, `fleetctl devices ${which} --from-file FILE ${stray.join(' ')}`);
    return undefined;
  }
  if (device !== undefined) throw new UsageError(`give a device or --from-file, not both (got ${quoteInput(device)} and a file)`);
  if (flags.vehicleId !== undefined || (flags.field?.length ?? 0) > 0) throw new UsageError('with --from-file the vehicle of each device comes from the file: leave out --vehicle-id and --field');
  if (flags.resume !== undefined && flags.fromFile !== undefined) throw new UsageError('--resume takes its devices from the journal: leave out --from-file');
  if (flags.resume !== undefined && !RUN_ID_PATTERN.test(flags.resume)) throw new UsageError(`--resume must be a run id such as 20240601T120000Z-3f9a1c, got ${quoteInput(flags.resume)}`);
  return {
    command: which,
    fromFile: flags.fromFile === undefined ? undefined : requireNonEmpty(flags.fromFile, '--from-file'),
    yes: Boolean(flags.yes),
    dryRun: Boolean(flags.dryRun),
    concurrency: flags.concurrency === undefined ? undefined : requireWholeNumber(flags.concurrency, '--concurrency', 1, 64),
    journal: flags.journal === undefined ? undefined : requireNonEmpty(flags.journal, '--journal'),
    resume: flags.resume,
  };
}
