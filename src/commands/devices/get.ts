import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { requireUuid } from '../shared/validate.js';

type DevicesGetDeps = Pick<Deps, 'api' | 'output'>;

export function newDevicesGetCommand(deps: DevicesGetDeps, run = devicesGetRun): Command {
  const command = new Command('get').description('Show one device by its id').argument('<id>', 'device id (uuid)');
  describeVerb(command, {
    operationIds: ['getDevice'],
    output: 'records',
    examples: [
      { comment: 'one device, in full', command: `fleetctl devices get ${SANDBOX_IDS.deviceId}` },
      {
        comment: 'the first device, in full',
        command: 'fleetctl --sandbox devices get $(fleetctl --sandbox devices list --limit 1 --columns id -o csv | tail -n 1)',
      },
    ],
  });
  command.action(async (id: string) => run(deps, { id: requireUuid(id, 'device id') }));
  return command;
}

export async function devicesGetRun(deps: DevicesGetDeps, opts: { id: string }): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('getDevice', { pathParams: { id: opts.id } });
  await deps.output().object(answer.body);
}
