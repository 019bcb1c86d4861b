import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { schemaView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { pickable } from '../shared/pick-list.js';
import { pickFleet, uuidArgument } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

type FleetsGetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export function newFleetsGetCommand(deps: FleetsGetDeps, run = fleetsGetRun): Command {
  const command = new Command('get').description('Show one fleet').argument('[id]', pickable('fleet id (uuid)'));
  completeValues(command, { id: 'fleet-id' });
  describeVerb(command, {
    operationIds: ['getFleet'],
    shows: schemaView('Fleet'),
    output: 'records',
    examples: [
      { comment: 'one fleet, in full', command: `fleetctl fleets get ${SANDBOX_IDS.fleetId}` },
      { comment: 'the first fleet, in full', command: 'fleetctl --sandbox fleets get $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1)' },
    ],
  });
  command.action(async (id: string | undefined) => run(deps, { id: await uuidArgument(deps, id, 'id', 'fleet id', pickFleet) }));
  return command;
}

export async function fleetsGetRun(deps: FleetsGetDeps, opts: { id: string }): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('getFleet', { pathParams: { id: opts.id } });
  await deps.output().object(answer.body, schemaView('Fleet'));
}
