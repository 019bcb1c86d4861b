import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { schemaView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { pickable } from '../shared/pick-list.js';
import { pickDriver, uuidArgument } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

type DriversGetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export function newDriversGetCommand(deps: DriversGetDeps, run = driversGetRun): Command {
  const command = new Command('get').description('Show one driver by its id').argument('[id]', pickable('driver id (uuid)'));
  describeVerb(command, {
    operationIds: ['getDriver'],
    shows: schemaView('Driver'),
    output: 'records',
    examples: [
      { comment: 'one driver, in full', command: `fleetctl drivers get ${SANDBOX_IDS.driverId}` },
      {
        comment: 'the first driver, in full',
        command: 'fleetctl --sandbox drivers get $(fleetctl --sandbox drivers list --limit 1 --columns id -o csv | tail -n 1)',
      },
    ],
  });
  command.action(async (id: string | undefined) => run(deps, { id: await uuidArgument(deps, id, 'id', 'driver id', pickDriver) }));
  return command;
}

export async function driversGetRun(deps: DriversGetDeps, opts: { id: string }): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('getDriver', { pathParams: { id: opts.id } });
  await deps.output().object(answer.body, schemaView('Driver'));
}
