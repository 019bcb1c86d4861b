import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { schemaView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { requireHardwareId } from '../shared/validate.js';
import { rephrasing } from '../shared/api-errors.js';

type DevicesLastReportedDeps = Pick<Deps, 'api' | 'output'>;

export function newDevicesLastReportedCommand(deps: DevicesLastReportedDeps, run = devicesLastReportedRun): Command {
  const command = new Command('last-reported')
    .description('Show the latest telemetry a device reported')
    .argument('<hardware-id>', 'hardware id of the device');
  describeVerb(command, {
    operationIds: ['getDeviceLastReported'],
    shows: schemaView('DeviceLastReported'),
    examples: [
      {
        comment: 'the latest state of a device that has reported',
        command: 'fleetctl --sandbox devices last-reported $(fleetctl --sandbox devices list --all --columns hardware_id,last_seen_at -o csv | awk -F, \'NR > 1 && $2 != "" && !n++ {print $1}\')',
      },
    ],
  });
  command.action(async (hardwareId: string) => run(deps, { hardwareId: requireHardwareId(hardwareId, 'hardware id') }));
  return command;
}

export async function devicesLastReportedRun(deps: DevicesLastReportedDeps, opts: { hardwareId: string }): Promise<void> {
  const api = await deps.api();
  const answer = await rephrasing(() => api.call('getDeviceLastReported', { pathParams: { hardwareId: opts.hardwareId } }), [
    { status: 404, code: 'device.never_reported', detail: `device ${opts.hardwareId} has never reported` },
  ]);
  await deps.output().object(answer.body, schemaView('DeviceLastReported'));
}
