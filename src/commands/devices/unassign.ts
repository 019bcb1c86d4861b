import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { confirmOrRequireYes } from '../../io/prompter.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { requireUuid } from '../shared/validate.js';

export interface DevicesUnassignOptions {
  id: string;
  yes: boolean;
}

type DevicesUnassignDeps = Pick<Deps, 'api' | 'io' | 'prompter'>;

export function newDevicesUnassignCommand(deps: DevicesUnassignDeps, run = devicesUnassignRun): Command {
  const command = new Command('unassign')
    .description('Remove a device from its vehicle (succeeds whether or not it was assigned)')
    .argument('<id>', 'device id (uuid)')
    .option('-y, --yes', 'do not ask for confirmation (required when not interactive)');
  describeVerb(command, {
    operationIds: ['unassignDevice'],
    output: 'nothing',
    prompts: true,
    examples: [
      { comment: 'take a device off its vehicle (asks first)', command: `fleetctl devices unassign ${SANDBOX_IDS.deviceId}`, asks: true },
      {
        comment: 'unassign the first device, without a prompt',
        command: 'fleetctl --sandbox devices unassign $(fleetctl --sandbox devices list --limit 1 --columns id -o csv | tail -n 1) --yes',
      },
    ],
  });
  command.action(async (id: string, flags: { yes?: boolean }) => run(deps, { id: requireUuid(id, 'device id'), yes: Boolean(flags.yes) }));
  return command;
}

export async function devicesUnassignRun(deps: DevicesUnassignDeps, opts: DevicesUnassignOptions): Promise<void> {
  await confirmOrRequireYes(deps, {
    yes: opts.yes,
    question: `Unassign device ${opts.id} from its vehicle?`,
    refusal: `device ${opts.id} not unassigned`,
  });
  const api = await deps.api();
  // spec: 204 whether or not it was assigned
  await api.call('unassignDevice', { pathParams: { id: opts.id } });
  deps.io.info(`Device ${opts.id} is not assigned to any vehicle.`);
}
