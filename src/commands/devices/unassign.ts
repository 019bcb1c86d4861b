import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { confirmOrRequireYes } from '../../io/prompter.js';
import { safeText } from '../../shared/terminal-text.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { DEVICE_ARGUMENT, deviceArgument, resolveDevice } from './resolve-device.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addBulkAssignmentOptions, bulkAssignmentFrom, type BulkAssignmentFlags } from './assign-bulk.js';
import { assignmentRun, type AssignmentRunDeps } from './assign-run.js';

export interface DevicesUnassignOptions {
  /** A device id (uuid) or a hardware id. */
  device: string;
  yes: boolean;
}

type DevicesUnassignDeps = Pick<Deps, 'api' | 'io' | 'prompter'> & AssignmentRunDeps;

export function newDevicesUnassignCommand(deps: DevicesUnassignDeps, run = devicesUnassignRun, bulk = assignmentRun): Command {
  const command = new Command('unassign')
    .description('Remove a device from its vehicle (succeeds whether or not it was assigned)')
    .argument('[device]', DEVICE_ARGUMENT)
    .option('-y, --yes', 'do not ask for confirmation (required when not interactive)');
  addBulkAssignmentOptions(command, 'unassign');
  completeValues(command, { device: 'hardware-id' });
  describeVerb(command, {
    operationIds: ['unassignDevice', 'listDevices'],
    output: 'records',
    prompts: true,
    notes: 'With --from-file or --where EXPR (@NAME) each device is read first: one on no vehicle is unchanged (nothing sent). Exit code: 0, or 10 when some failed.',
    examples: [
      { comment: 'take a device off its vehicle (asks first)', command: 'fleetctl devices unassign HW-000001', asks: true },
      { comment: 'the same, without a prompt, by its id', command: `fleetctl devices unassign ${SANDBOX_IDS.deviceId} --yes` },
      {
        comment: 'the first device by its id',
        command: 'fleetctl --sandbox devices unassign $(fleetctl --sandbox devices list --limit 1 --columns id -o csv | tail -n 1) --yes',
      },
      {
        comment: 'what taking the first three devices off their vehicles would change, by hardware id from stdin',
        command: 'fleetctl --sandbox devices list --limit 3 --columns hardware_id -o csv | fleetctl --sandbox devices unassign --from-file - --dry-run',
      },
      { comment: 'what taking every device that never reported off its vehicle would change', command: 'fleetctl --sandbox devices unassign --where never-reported --dry-run' },
    ],
  });
  command.action(async (device: string | undefined, flags: BulkAssignmentFlags) => {
    const many = bulkAssignmentFrom('unassign', device, flags);
    if (many) return bulk(deps, many);
    // on a terminal with nothing named, the picker may start from a selection: its devices, each off its vehicle
    const start = device === undefined && deps.io.canPrompt() ? await (await import('../shared/pick-selection.js')).startingExpression(deps, 'unassign', 'One device, picked from the list') : undefined;
    if (start !== undefined) return bulk(deps, bulkAssignmentFrom('unassign', undefined, { ...flags, where: start })!);
    return run(deps, { device: await deviceArgument(deps, device), yes: Boolean(flags.yes) });
  });
  return command;
}

export async function devicesUnassignRun(deps: DevicesUnassignDeps, opts: DevicesUnassignOptions): Promise<void> {
  // asked (or refused without --yes) before any request, as the device was named
  await confirmOrRequireYes(deps, {
    yes: opts.yes,
    question: `Unassign device ${safeText(opts.device)} from its vehicle?`,
    refusal: `device ${opts.device} not unassigned`,
  });
  const api = await deps.api();
  const device = await resolveDevice(api, opts.device);
  // spec: 204 whether or not it was assigned
  await recordedChange(deps.ledger(), { command: 'devices unassign', target: opts.device, outcome: 'unassigned' }, () => api.call('unassignDevice', { pathParams: { id: device.id } }));
  deps.io.info(`Device ${device.label} is not assigned to any vehicle.`);
}
