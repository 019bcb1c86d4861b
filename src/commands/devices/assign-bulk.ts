// `devices assign|unassign --from-file FILE` (or `--where EXPR`, `@NAME`): the flags both verbs share for a bulk
// assignment, checked before anything is read or sent, and what the run is (src/bulk/assignment-run.ts carries it out).
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { RUN_ID_PATTERN } from '../../bulk/keys.js';
import type { AssignmentCommand } from '../../bulk/assignment-rows.js';
import type { AssignmentRunOptions } from '../../bulk/assignment-run.js';
import { completeValues } from '../../completion/values.js';
import { requireNonEmpty, requireWholeNumber } from '../shared/validate.js';
import { canonicalUuid } from '../../shared/uuid.js';

export interface BulkAssignmentFlags {
  fromFile?: string;
  dryRun?: boolean;
  yes?: boolean;
  concurrency?: string;
  journal?: string;
  resume?: string;
  where?: string;
}

export function addBulkAssignmentOptions(command: Command, which: AssignmentCommand): Command {
  const columns = which === 'assign' ? 'device,vehicle' : 'device (a vehicle column is ignored)';
  command
    .option('--from-file <file>', `many devices: CSV with a header row (${columns}) or NDJSON, device by id or hardware id (- for stdin)`)
    .option('--where <expression>', `many devices: those this condition selects, e.g. "fleet:North -has:wake_up" (fleetctl help select)${which === 'assign' ? ', all to --vehicle-id' : ''}; @NAME as the device is a saved one`)
    .option('--dry-run', 'with --from-file or --where: read each device and show the change it would make; change nothing')
    .option('--concurrency <n>', 'with --from-file or --where: at most n requests in flight, 1 to 64 (default: adaptive, from 8)')
    .option('--journal <file>', 'with --from-file or --where: where to record results (default: in the config directory, by run id)')
    .option('--resume <run-id>', 'finish an interrupted bulk run: skips devices already done, takes the rest from its journal');
  return completeValues(command, { '--from-file': 'file', '--journal': 'file', '--where': 'where' });
}

/** The bulk run the flags ask for, or undefined for the one device of the argument. */
export function bulkAssignmentFrom(which: AssignmentCommand, device: string | undefined, flags: BulkAssignmentFlags & { vehicleId?: string; field?: string[] }): AssignmentRunOptions | undefined {
  const where = whereOf(device, flags.where);
  const bulk = flags.fromFile !== undefined || flags.resume !== undefined || where !== undefined;
  if (!bulk) {
    const stray = [flags.dryRun && '--dry-run', flags.concurrency !== undefined && '--concurrency', flags.journal !== undefined && '--journal'].filter(Boolean);
    if (stray.length > 0) throw new UsageError(`${stray.join(', ')} ${stray.length === 1 ? 'goes' : 'go'} with --from-file or --where`, `fleetctl devices ${which} --from-file FILE ${stray.join(' ')}`);
    return undefined;
  }
  if (device !== undefined && !device.startsWith('@')) {
    const other = flags.fromFile !== undefined ? ['--from-file', 'a file'] : flags.resume !== undefined ? ['--resume', '--resume'] : ['--where', '--where'];
    throw new UsageError(`give a device or ${other[0]}, not both (got ${quoteInput(device)} and ${other[1]})`);
  }
  if (flags.resume !== undefined && (flags.fromFile !== undefined || where !== undefined)) {
    throw new UsageError('--resume takes its devices from the journal, as the run resolved them: leave out --from-file, --where and @NAME');
  }
  if (flags.fromFile !== undefined && where !== undefined) throw new UsageError('give --from-file or --where (@NAME), not both');
  const vehicle = where === undefined ? noVehicleFlags(flags) : selectionVehicle(which, flags);
  if (flags.resume !== undefined && !RUN_ID_PATTERN.test(flags.resume)) throw new UsageError(`--resume must be a run id such as 20240601T120000Z-3f9a1c, got ${quoteInput(flags.resume)}`);
  return {
    command: which,
    fromFile: flags.fromFile === undefined ? undefined : requireNonEmpty(flags.fromFile, '--from-file'),
    ...(where === undefined ? {} : { where }),
    ...(vehicle === undefined ? {} : { vehicle }),
    yes: Boolean(flags.yes),
    dryRun: Boolean(flags.dryRun),
    concurrency: flags.concurrency === undefined ? undefined : requireWholeNumber(flags.concurrency, '--concurrency', 1, 64),
    journal: flags.journal === undefined ? undefined : requireNonEmpty(flags.journal, '--journal'),
    resume: flags.resume,
  };
}

/** --where and an @NAME device, joined (both must hold); undefined when neither is given. */
function whereOf(device: string | undefined, where: string | undefined): string | undefined {
  const parts = [where === undefined ? undefined : requireNonEmpty(where, '--where'), device?.startsWith('@') ? device : undefined];
  return parts.filter((part): part is string => part !== undefined).join(' ') || undefined;
}

/** With --from-file (or --resume) each row names its vehicle: the flags that would name one are refused. */
function noVehicleFlags(flags: { vehicleId?: string; field?: string[] }): undefined {
  if (flags.vehicleId !== undefined || (flags.field?.length ?? 0) > 0) throw new UsageError('with --from-file the vehicle of each device comes from the file: leave out --vehicle-id and --field');
  return undefined;
}

/** A selection assigns every device it selects to the one --vehicle-id (unassign takes none). */
function selectionVehicle(which: AssignmentCommand, flags: { vehicleId?: string; field?: string[] }): string | undefined {
  if ((flags.field?.length ?? 0) > 0) throw new UsageError('with --where the command is the same for every device: leave out --field', which === 'assign' ? 'give the vehicle with --vehicle-id' : undefined);
  if (which === 'unassign') return undefined;
  if (flags.vehicleId === undefined) throw new UsageError('--where assigns every device it selects to one vehicle: give --vehicle-id', 'fleetctl vehicles list shows their ids');
  const vehicle = canonicalUuid(flags.vehicleId);
  if (vehicle === undefined) throw new UsageError(`--vehicle-id must be a vehicle id (uuid), got ${quoteInput(flags.vehicleId)}`);
  return vehicle;
}
