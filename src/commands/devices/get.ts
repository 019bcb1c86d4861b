import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { operationView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { DEVICE_ARGUMENT, deviceArgument, resolveDevice } from './resolve-device.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

type DevicesGetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export interface DevicesGetOptions {
  /** A device id (uuid) or a hardware id. */
  device: string;
}

export function newDevicesGetCommand(deps: DevicesGetDeps, run = devicesGetRun): Command {
  const command = new Command('get')
    .description('Show one device by its id or hardware id')
    .argument('[device]', DEVICE_ARGUMENT);
  completeValues(command, { device: 'hardware-id' });
  describeVerb(command, {
    operationIds: ['getDevice', 'listDevices'],
    shows: operationView('getDevice'),
    output: 'records',
    examples: [
      { comment: 'one device by its hardware id, in full', command: 'fleetctl devices get HW-000001' },
      { comment: 'the same device by its id', command: `fleetctl devices get ${SANDBOX_IDS.deviceId}` },
      {
        comment: 'the first device by its id',
        command: 'fleetctl --sandbox devices get $(fleetctl --sandbox devices list --limit 1 --columns id -o csv | tail -n 1)',
      },
    ],
  });
  command.action(async (device: string | undefined) => run(deps, { device: await deviceArgument(deps, device) }));
  return command;
}

export async function devicesGetRun(deps: DevicesGetDeps, opts: DevicesGetOptions): Promise<void> {
  const api = await deps.api();
  const { id } = await resolveDevice(api, opts.device);
  const answer = await api.call('getDevice', { pathParams: { id } });
  await deps.output().object(answer.body, operationView('getDevice'));
}
