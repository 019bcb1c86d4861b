import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addPagingOptions, pagingFrom, type RawPagingFlags } from '../shared/paging.js';
import { renderList } from '../shared/record-verbs.js';
import { declarePickers, pickable } from '../shared/pick-list.js';
import { eventIdArgument, pickEvent } from '../shared/pickers.js';
import { FIRST_EVENT } from './get.js';

export interface EventsMediaOptions {
  eventId: string;
  paging: PageOptions;
}

type EventsMediaDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'clock' | 'configDir'>;

export function newEventsMediaCommand(deps: EventsMediaDeps, run = eventsMediaRun): Command {
  const command = new Command('media')
    .description('List the media items of an event, with their signed download URLs')
    .argument('[event-id]', pickable('event id, as search prints it'));
  addPagingOptions(command);
  declarePickers(command, { 'event-id': pickEvent });
  describeVerb(command, {
    operationIds: ['listEventMedia'],
    shows: viewOf('deviceMedia'),
    output: 'records',
    examples: [
      { comment: 'the media of an event', command: `fleetctl events media ${SANDBOX_IDS.eventId}` },
      { comment: 'the media of the latest event of a device', command: `fleetctl --sandbox events media ${FIRST_EVENT}` },
      { comment: 'their download URLs only', command: `fleetctl --sandbox events media ${FIRST_EVENT} --columns file_name,download_url` },
    ],
  });
  command.action(async (eventId: string | undefined, flags: RawPagingFlags) => {
    const paging = pagingFrom(flags);
    await run(deps, { eventId: await eventIdArgument(deps, eventId), paging });
  });
  return command;
}

export async function eventsMediaRun(deps: EventsMediaDeps, opts: EventsMediaOptions): Promise<void> {
  await renderList(deps, 'listEventMedia', { pathParams: { eventId: opts.eventId } }, 'deviceMedia', opts.paging);
}
