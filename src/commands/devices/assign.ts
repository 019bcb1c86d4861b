import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { requireUuid } from '../shared/validate.js';

export interface DevicesAssignOptions {
  id: string;
  vehicleId: string;
}

type DevicesAssignDeps = Pick<Deps, 'api' | 'output' | 'io'>;

export function newDevicesAssignCommand(deps: DevicesAssignDeps, run = devicesAssignRun): Command {
  const command = new Command('assign')
    .description('Assign a device to a vehicle and show the updated device')
    .argument('<id>', 'device id (uuid)')
    .requiredOption('--vehicle-id <uuid>', 'vehicle to assign the device to (within your tenant)');
  describeVerb(command, {
    operationIds: ['assignDevice'],
    output: 'records',
    examples: [
      { comment: 'assign a device to a vehicle', command: `fleetctl devices assign ${SANDBOX_IDS.deviceId} --vehicle-id ${SANDBOX_IDS.vehicleId}` },
      {
        comment: 'assign the first device to the first vehicle',
        command:
          'fleetctl --sandbox devices assign $(fleetctl --sandbox devices list --limit 1 --columns id -o csv | tail -n 1) --vehicle-id $(fleetctl --sandbox devices list --all --columns vehicle_id -o csv | awk \'NR > 1 && $1 != "" && !n++\')',
      },
    ],
  });
  command.action(async (id: string, flags: { vehicleId: string }) =>
    run(deps, { id: requireUuid(id, 'device id'), vehicleId: requireUuid(flags.vehicleId, '--vehicle-id') }),
  );
  return command;
}

export async function devicesAssignRun(deps: DevicesAssignDeps, opts: DevicesAssignOptions): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('assignDevice', { pathParams: { id: opts.id }, body: { vehicle_id: opts.vehicleId } });
  await deps.output().object(answer.body);
  deps.io.info(`Device ${opts.id} assigned to vehicle ${opts.vehicleId}.`);
}
