import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { operationView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { hardwareIdArgument, HARDWARE_ID_ARGUMENT } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { rephrasing } from '../shared/api-errors.js';
import { suggestingHardwareIdCase } from './hardware-id-case.js';

type DevicesLastReportedDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export function newDevicesLastReportedCommand(deps: DevicesLastReportedDeps, run = devicesLastReportedRun): Command {
  const command = new Command('last-reported')
    .description('Show the latest telemetry a device reported')
    .argument('[hardware-id]', HARDWARE_ID_ARGUMENT);
  completeValues(command, { 'hardware-id': 'hardware-id' });
  describeVerb(command, {
    operationIds: ['getDeviceLastReported'],
    shows: operationView('getDeviceLastReported'),
    output: 'records',
    examples: [
      { comment: 'the latest state a device reported', command: `fleetctl devices last-reported ${SANDBOX_IDS.hardwareId}` },
      {
        comment: 'the latest state of a device that has reported',
        command: 'fleetctl --sandbox devices last-reported $(fleetctl --sandbox devices list --all --columns hardware_id,last_seen_at -o csv | awk -F, \'NR > 1 && $2 != "" && !n++ {print $1}\')',
      },
    ],
  });
  command.action(async (hardwareId: string | undefined) => run(deps, { hardwareId: await hardwareIdArgument(deps, hardwareId) }));
  return command;
}

export async function devicesLastReportedRun(deps: DevicesLastReportedDeps, opts: { hardwareId: string }): Promise<void> {
  const api = await deps.api();
  const answer = await suggestingHardwareIdCase(api, opts.hardwareId, () =>
    rephrasing(() => api.call('getDeviceLastReported', { pathParams: { hardwareId: opts.hardwareId } }), [
      { status: 404, code: 'device.never_reported', detail: `device ${opts.hardwareId} has never reported` },
      // the spec's 404 here is either: no such device, or a device that never reported
      { status: 404, detail: `device ${opts.hardwareId} has never reported, or there is no such device` },
    ]),
  );
  await deps.output().object(answer.body, operationView('getDeviceLastReported'));
}
