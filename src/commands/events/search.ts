import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addPagingOptions, pagingFrom, renderPages, type ListPaging, type RawPagingFlags } from '../shared/paging.js';
import { addFollowOptions, followEvents, followFrom, type EventSource, type FollowOptions, type RawFollowFlags } from '../shared/follow.js';
import { records } from '../../records/resources.js';
import { stdoutFileOf } from '../../io/stdout-file.js';
import { addDateWindowOptions, dateWindowFrom, missingWindowPart, type DateWindow, type RawDateFlags } from '../shared/dates.js';
import { collect, requireNothingMissing } from '../shared/validate.js';
import { checkParameters } from '../shared/request-checks.js';

export interface EventsSearchOptions {
  hardwareId?: string;
  fleetIds?: string[];
  vehicleIds?: string[];
  /** Both ends are set, as the API requires the whole window; with --follow only the start, if given. */
  window: DateWindow;
  types?: string[];
  paging: ListPaging;
  /** --follow: keep polling for new events. */
  follow?: FollowOptions;
}

type RawSearchFlags = RawPagingFlags &
  RawDateFlags & RawFollowFlags & { hardwareId?: string; fleetId?: string[]; vehicleId?: string[]; type?: string[] };

type EventsSearchDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'signal' | 'servedDocument' | 'configDir'>;

const FILTER_FLAGS = '--hardware-id, --fleet-id or --vehicle-id';
const WINDOW_FLAGS = '--since, or --from and --to';

export function newEventsSearchCommand(deps: EventsSearchDeps, run = eventsSearchRun): Command {
  const command = new Command('search').description('Search telematics events of devices, fleets or vehicles within a date window');
  command
    .option('--hardware-id <id>', 'events of this device')
    .option('--fleet-id <uuid>', 'events of this fleet (repeat, or separate with commas)', collect)
    .option('--vehicle-id <uuid>', 'events of this vehicle (repeat, or separate with commas)', collect)
    .option('--type <type>', 'only events of this type, e.g. harsh_braking (repeat, or separate with commas)', collect);
  addDateWindowOptions(command);
  addPagingOptions(command);
  completeValues(command, { '--hardware-id': 'hardware-id', '--fleet-id': 'fleet-id' });
  addFollowOptions(command);
  describeVerb(command, {
    operationIds: ['searchEvents'],
    shows: viewOf('event'),
    output: 'records',
    notes: `The API needs a narrowing filter (${FILTER_FLAGS}) and a date window (${WINDOW_FLAGS}; with --follow, the last hour unless --since or --from says).\nDates are ISO 8601 (2024-05-01T08:00:00Z) or relative (30m, 24h, 7d), sent as UTC.\nWith --checkpoint FILE the position after each event written is kept in FILE (fleetctl's own format: versioned JSON holding the next window's start and the keys of the events written from it); run the same command with the same FILE to go on with the next event, none missed or doubled, even after kill -9. Standard output appended to a file (>>) is recorded after each poll's events and cut back to the last record at restart. --max-events N and --until TIME end the follow (exit 0); polls that bring nothing wait longer, up to 8 intervals.`,
    examples: [
      { comment: 'the last 30 days of one device', command: 'fleetctl events search --hardware-id HW-000001 --since 30d' },
      {
        comment: 'harsh braking and speeding in the first fleet this week, as NDJSON',
        command: 'fleetctl --sandbox events search --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --since 7d --type harsh_braking,speeding --all -o ndjson',
      },
      {
        comment: 'a feed that survives restarts: each run prints the next event after the last one written before (appended to a file), then stops',
        command: 'fleetctl events search --hardware-id HW-000001 --since 30d --follow --checkpoint hw-000001.feed --max-events 1 -o ndjson >> hw-000001.ndjson',
      },
    ],
  });
  command.action(async (flags: RawSearchFlags) => {
    const opts = eventsSearchOptions(flags, deps.clock.now());
    // the values themselves are the service's to judge, by its document's parameter schemas
    await checkParameters(deps, 'GET', '/v1/events', {
      hardware_id: { value: opts.hardwareId, flag: '--hardware-id' },
      fleet_ids: { value: opts.fleetIds, flag: '--fleet-id' },
      vehicle_ids: { value: opts.vehicleIds, flag: '--vehicle-id' },
      event_types: { value: opts.types, flag: '--type' },
    });
    await run(deps, opts);
  });
  return command;
}

/**
 * The search the flags describe; what the spec requires (a narrowing filter and a date window) is named exactly
 * when missing. The values are checked against the document in use afterwards (checkParameters).
 */
export function eventsSearchOptions(flags: RawSearchFlags, now: Date): EventsSearchOptions {
  const hardwareId = flags.hardwareId;
  const fleetIds = listOf(flags.fleetId);
  const vehicleIds = listOf(flags.vehicleId);
  const types = listOf(flags.type);
  const window = dateWindowFrom(flags, now);
  const paging = pagingFrom(flags);
  const follow = followFrom(flags, now);
  const filter = hardwareId || fleetIds || vehicleIds ? undefined : `a narrowing filter (${FILTER_FLAGS})`;
  // a followed window ends at each poll's now
  requireNothingMissing('events search', [filter, follow ? undefined : missingWindowPart(window)], 'fleetctl events search --hardware-id HW-000001 --since 24h');
  return { hardwareId, fleetIds, vehicleIds, window, types, paging, follow };
}

/** Repeated flags and comma-separated values as one list; blanks between commas are no values. */
function listOf(values: string[] | undefined): string[] | undefined {
  const items = values?.flatMap((value) => value.split(',')).map((item) => item.trim()).filter((item) => item !== '');
  return items && items.length > 0 ? items : undefined;
}

export async function eventsSearchRun(deps: EventsSearchDeps, opts: EventsSearchOptions): Promise<void> {
  const api = await deps.api();
  const search = (dateFrom: string | undefined, dateTo: string | undefined, paging: PageOptions) => {
    const query = { hardware_id: opts.hardwareId, fleet_ids: opts.fleetIds, vehicle_ids: opts.vehicleIds, date_from: dateFrom, date_to: dateTo, event_types: opts.types };
    return api.list('searchEvents', { query }, paging);
  };
  if (opts.follow) {
    const narrowed = [opts.hardwareId, ...(opts.fleetIds ?? []).map((id) => `fleet ${id}`), ...(opts.vehicleIds ?? []).map((id) => `vehicle ${id}`)];
    const source: EventSource<unknown> = { what: `events of ${narrowed.filter(Boolean).join(', ')}`, fetch: search, id: (e) => records.event.keyOf(e), time: records.event.timeOf };
    await followEvents(deps, source, viewOf('event'), { ...opts.follow, dateFrom: opts.window.dateFrom, paging: opts.paging, stdoutFile: stdoutFileOf(deps.io.out) });
    return;
  }
  const pager = search(opts.window.dateFrom, opts.window.dateTo, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io, configDir: deps.configDir }, pager, viewOf('event'), opts.paging);
}
