import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { hardwareIdArgument, HARDWARE_ID_ARGUMENT } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addPagingOptions, pagingFrom, renderPages, type ListPaging, type RawPagingFlags } from '../shared/paging.js';
import { addFollowOptions, followEvents, followFrom, type EventSource, type FollowOptions, type RawFollowFlags } from '../shared/follow.js';
import { records } from '../../records/resources.js';
import { stdoutFileOf } from '../../io/stdout-file.js';
import { addDateWindowOptions, dateWindowFrom, type DateWindow, type RawDateFlags } from '../shared/dates.js';
import { collect, requireNonEmpty } from '../shared/validate.js';
import { suggestingHardwareIdCase } from './hardware-id-case.js';

export interface DevicesEventsOptions {
  hardwareId: string;
  window: DateWindow;
  types?: string[];
  accident?: boolean;
  important?: boolean;
  paging: ListPaging;
  /** --follow: keep polling for new events. */
  follow?: FollowOptions;
}

type DevicesEventsDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'signal' | 'prompter' | 'configDir'>;

type RawFlags = RawPagingFlags & RawDateFlags & RawFollowFlags & { type?: string[]; accident?: boolean; important?: boolean };

export function newDevicesEventsCommand(deps: DevicesEventsDeps, run = devicesEventsRun): Command {
  const command = new Command('events')
    .description("List a device's telematics events")
    .argument('[hardware-id]', HARDWARE_ID_ARGUMENT);
  addDateWindowOptions(command);
  command
    .option('--type <type>', 'only events of this type (repeatable, or comma-separated)', collect)
    .option('--accident', 'only accidents')
    .option('--important', 'only important events');
  addPagingOptions(command);
  completeValues(command, { 'hardware-id': 'hardware-id' });
  addFollowOptions(command);
  describeVerb(command, {
    operationIds: ['listDeviceEvents'],
    shows: viewOf('deviceEvent'),
    output: 'records',
    examples: [
      { comment: 'events of a device in the last 7 days', command: `fleetctl devices events ${SANDBOX_IDS.hardwareId} --since 7d` },
      {
        comment: 'only accidents, every page, as NDJSON',
        command: 'fleetctl --sandbox devices events $(fleetctl --sandbox devices list --limit 1 --columns hardware_id -o csv | tail -n 1) --accident --all -o ndjson',
      },
      {
        comment: 'the last 30 days of a device, then each new event as it comes, as NDJSON',
        command: 'fleetctl devices events HW-000001 --since 30d --follow --interval 2s -o ndjson',
        runsUntilInterrupted: true,
      },
      {
        comment: 'the events of a device up to a time, for CI: run again with the same checkpoint, it goes on where it stopped',
        command: `fleetctl devices events ${SANDBOX_IDS.hardwareId} --since 30d --follow --until 1m --checkpoint hw.feed -o ndjson`,
      },
    ],
    notes: 'With --follow the window is printed oldest first (the last hour when none is given), then each new event once, until Ctrl-C.\nWith --checkpoint FILE the position after each event written is kept in FILE (fleetctl\'s own format: versioned JSON holding the next window\'s start and the keys of the events written from it); run the same command with the same FILE to go on with the next event, none missed or doubled, even after kill -9. Standard output appended to a file (>>) is recorded after each poll\'s events and cut back to the last record at restart. --max-events N and --until TIME end the follow (exit 0); polls that bring nothing wait longer, up to 8 intervals.',
  });
  command.action(async (hardwareId: string | undefined, flags: RawFlags) => {
    const types = flags.type?.flatMap((t) => t.split(',')).map((t) => requireNonEmpty(t.trim(), '--type'));
    const follow = followFrom(flags, deps.clock.now());
    const window = dateWindowFrom(flags, deps.clock.now());
    const paging = pagingFrom(flags);
    await run(deps, {
      hardwareId: await hardwareIdArgument(deps, hardwareId),
      follow,
      window,
      types,
      accident: flags.accident ? true : undefined,
      important: flags.important ? true : undefined,
      paging,
    });
  });
  return command;
}

export async function devicesEventsRun(deps: DevicesEventsDeps, opts: DevicesEventsOptions): Promise<void> {
  const api = await deps.api();
  // spec: event_types of this endpoint is a string (an array only for GET /v1/events): one comma-separated value
  // reads the same under either form (sent as a single value), where repeated parameters could keep only the last type
  const filters = { event_types: opts.types && [opts.types.join(',')], is_accident: opts.accident, is_important: opts.important };
  const list = (dateFrom: string | undefined, dateTo: string | undefined, paging: PageOptions) =>
    api.list('listDeviceEvents', { pathParams: { hardwareId: opts.hardwareId }, query: { date_from: dateFrom, date_to: dateTo, ...filters } }, paging);
  if (opts.follow) {
    const source: EventSource<unknown> = { what: `events of ${opts.hardwareId}`, fetch: list, id: (e) => records.event.keyOf(e, opts.hardwareId), time: records.event.timeOf };
    await followEvents(deps, source, viewOf('deviceEvent'), { ...opts.follow, dateFrom: opts.window.dateFrom, paging: opts.paging, stdoutFile: stdoutFileOf(deps.io.out) });
    return;
  }
  const pager = list(opts.window.dateFrom, opts.window.dateTo, opts.paging);
  // a 404 (no such device: hw-000001 for HW-000001, say) names the id in capitals when there is one
  await suggestingHardwareIdCase(api, opts.hardwareId, () => renderPages({ output: deps.output(), io: deps.io, configDir: deps.configDir }, pager, viewOf('deviceEvent'), opts.paging), deps.signal);
}
