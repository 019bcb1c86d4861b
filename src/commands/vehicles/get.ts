import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { schemaView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { pickable } from '../shared/pick-list.js';
import { pickVehicle, uuidArgument } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

type VehiclesGetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export function newVehiclesGetCommand(deps: VehiclesGetDeps, run = vehiclesGetRun): Command {
  const command = new Command('get').description('Show one vehicle').argument('[id]', pickable('vehicle id (uuid)'));
  describeVerb(command, {
    operationIds: ['getVehicle'],
    shows: schemaView('Vehicle'),
    output: 'records',
    examples: [
      { comment: 'one vehicle, in full', command: `fleetctl vehicles get ${SANDBOX_IDS.vehicleId}` },
      { comment: 'the first vehicle, in full', command: 'fleetctl --sandbox vehicles get $(fleetctl --sandbox vehicles list --limit 1 --columns id -o csv | tail -n 1)' },
    ],
  });
  command.action(async (id: string | undefined) => run(deps, { id: await uuidArgument(deps, id, 'id', 'vehicle id', pickVehicle) }));
  return command;
}

export async function vehiclesGetRun(deps: VehiclesGetDeps, opts: { id: string }): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('getVehicle', { pathParams: { id: opts.id } });
  await deps.output().object(answer.body, schemaView('Vehicle'));
}
