import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { operationView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { declarePickers, pickable } from '../shared/pick-list.js';
import { eventIdArgument, pickEvent } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

type EventsGetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'clock'>;

export const FIRST_EVENT = '$(fleetctl --sandbox events search --hardware-id HW-000001 --since 30d --limit 1 --columns event_id -o csv | tail -n 1)';

export function newEventsGetCommand(deps: EventsGetDeps, run = eventsGetRun): Command {
  const command = new Command('get')
    .description('Show one event in full: locations, address, speed and media ids')
    .argument('[event-id]', pickable('event id, as search prints it (an opaque composite, passed on unchanged)'));
  declarePickers(command, { 'event-id': pickEvent });
  describeVerb(command, {
    operationIds: ['getEvent'],
    shows: operationView('getEvent'),
    output: 'records',
    examples: [
      { comment: 'one event, in full', command: `fleetctl events get ${SANDBOX_IDS.eventId}` },
      { comment: 'the latest event of a device, in full', command: `fleetctl --sandbox events get ${FIRST_EVENT}` },
    ],
  });
  command.action(async (eventId: string | undefined) => run(deps, { eventId: await eventIdArgument(deps, eventId) }));
  return command;
}

export async function eventsGetRun(deps: EventsGetDeps, opts: { eventId: string }): Promise<void> {
  const api = await deps.api();
  // The id is opaque: sent as given, only URL-encoded into the path.
  const answer = await api.call('getEvent', { pathParams: { eventId: opts.eventId } });
  await deps.output().object(answer.body, operationView('getEvent'));
}
