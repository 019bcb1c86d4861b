import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { operationView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { requireUuid } from '../shared/validate.js';
import { DEVICE_ARGUMENT, deviceArgument, resolveDevice } from './resolve-device.js';

export interface DevicesAssignOptions {
  /** A device id (uuid) or a hardware id. */
  device: string;
  vehicleId: string;
}

type DevicesAssignDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export function newDevicesAssignCommand(deps: DevicesAssignDeps, run = devicesAssignRun): Command {
  const command = new Command('assign')
    .description('Assign a device to a vehicle and show the updated device')
    .argument('[device]', DEVICE_ARGUMENT)
    .requiredOption('--vehicle-id <uuid>', 'vehicle to assign the device to (within your tenant)');
  completeValues(command, { device: 'hardware-id' });
  describeVerb(command, {
    operationIds: ['assignDevice', 'listDevices'],
    shows: operationView('assignDevice'),
    output: 'records',
    examples: [
      { comment: 'assign a device to a vehicle', command: `fleetctl devices assign HW-000001 --vehicle-id ${SANDBOX_IDS.vehicleId}` },
      {
        comment: 'assign a device, named by its hardware id, to the first vehicle',
        command:
          'fleetctl --sandbox devices assign HW-000001 --vehicle-id $(fleetctl --sandbox devices list --all --columns vehicle_id -o csv | awk \'NR > 1 && $1 != "" && !n++\')',
      },
    ],
  });
  command.action(async (device: string | undefined, flags: { vehicleId: string }) => {
    const vehicleId = requireUuid(flags.vehicleId, '--vehicle-id');
    await run(deps, { device: await deviceArgument(deps, device), vehicleId });
  });
  return command;
}

export async function devicesAssignRun(deps: DevicesAssignDeps, opts: DevicesAssignOptions): Promise<void> {
  const api = await deps.api();
  const device = await resolveDevice(api, opts.device);
  const answer = await api.call('assignDevice', { pathParams: { id: device.id }, body: { vehicle_id: opts.vehicleId } });
  await deps.output().object(answer.body, operationView('assignDevice'));
  deps.io.info(`Device ${device.label} assigned to vehicle ${opts.vehicleId}.`);
}
