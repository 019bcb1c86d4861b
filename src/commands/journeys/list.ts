import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addPagingOptions, pagingFrom, type RawPagingFlags } from '../shared/paging.js';
import { renderList, type ListDeps } from '../shared/record-verbs.js';
import { addDateWindowOptions, dateWindowFrom, missingWindowPart, type DateWindow, type RawDateFlags } from '../shared/dates.js';
import { optionalUuid, requireNothingMissing } from '../shared/validate.js';
import { requireHardwareId } from '../../shared/hardware-id.js';

/** Exactly one subject: the API takes one of hardware_id, vehicle_id or fleet_id. */
export type JourneySubject = { hardwareId: string } | { vehicleId: string } | { fleetId: string };

export interface JourneysListOptions {
  subject: JourneySubject;
  window: Required<DateWindow>;
  paging: PageOptions;
}

type RawJourneysFlags = RawPagingFlags & RawDateFlags & { hardwareId?: string; vehicleId?: string; fleetId?: string };
type JourneysListDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'configDir'>;

const SUBJECT_FLAGS = '--hardware-id, --vehicle-id or --fleet-id';

export function newJourneysListCommand(deps: JourneysListDeps, run = journeysListRun): Command {
  const command = new Command('list').description('List completed journeys of one device, vehicle or fleet within a date window');
  command
    .option('--hardware-id <id>', 'journeys of this device')
    .option('--vehicle-id <uuid>', 'journeys of this vehicle')
    .option('--fleet-id <uuid>', 'journeys of this fleet');
  addDateWindowOptions(command);
  addPagingOptions(command);
  completeValues(command, { '--hardware-id': 'hardware-id', '--fleet-id': 'fleet-id' });
  describeVerb(command, {
    operationIds: ['listJourneys'],
    shows: viewOf('journey'),
    output: 'records',
    notes: `Give exactly one of ${SUBJECT_FLAGS}, and a date window (--since, or --from and --to).`,
    examples: [
      { comment: 'the journeys of one device in the last week', command: 'fleetctl journeys list --hardware-id HW-000001 --since 7d' },
      {
        comment: 'a fleet\'s journeys of one day, as NDJSON',
        command: 'fleetctl --sandbox journeys list --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --from 2d --to 1d --all -o ndjson',
      },
    ],
  });
  command.action(async (flags: RawJourneysFlags) => run(deps, journeysListOptions(flags, deps.clock.now())));
  return command;
}

export function journeysListOptions(flags: RawJourneysFlags, now: Date): JourneysListOptions {
  const subjects: JourneySubject[] = [];
  if (flags.hardwareId !== undefined) subjects.push({ hardwareId: requireHardwareId(flags.hardwareId, '--hardware-id') });
  if (flags.vehicleId !== undefined) subjects.push({ vehicleId: optionalUuid(flags.vehicleId, '--vehicle-id')! });
  if (flags.fleetId !== undefined) subjects.push({ fleetId: optionalUuid(flags.fleetId, '--fleet-id')! });
  const window = dateWindowFrom(flags, now);
  const paging = pagingFrom(flags);
  if (subjects.length > 1) throw new UsageError(`give only one of ${SUBJECT_FLAGS}`);
  const subject = subjects.length === 0 ? `one of ${SUBJECT_FLAGS}` : undefined;
  requireNothingMissing('journeys list', [subject, missingWindowPart(window)], 'fleetctl journeys list --hardware-id HW-000001 --since 7d');
  return { subject: subjects[0]!, window: window as Required<DateWindow>, paging };
}

export async function journeysListRun(deps: ListDeps, opts: JourneysListOptions): Promise<void> {
  const s = opts.subject;
  const query = {
    hardware_id: 'hardwareId' in s ? s.hardwareId : undefined,
    vehicle_id: 'vehicleId' in s ? s.vehicleId : undefined,
    fleet_id: 'fleetId' in s ? s.fleetId : undefined,
    date_from: opts.window.dateFrom,
    date_to: opts.window.dateTo,
  };
  await renderList(deps, 'listJourneys', { query }, 'journey', opts.paging);
}
