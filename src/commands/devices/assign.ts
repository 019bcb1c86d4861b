import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { operationView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { collect } from '../shared/validate.js';
import type { RequestBody } from '../../openapi/operation-types.js';
import { bodyRules, checkBody, FIELD_OPTION, fieldTexts, typedMemberValue } from '../shared/request-checks.js';
import { DEVICE_ARGUMENT, deviceArgument, resolveDevice } from './resolve-device.js';
import { pickVehicle } from '../shared/pickers.js';
import { declarePickers } from '../shared/pick-list.js';
import { addBulkAssignmentOptions, bulkAssignmentFrom, type BulkAssignmentFlags } from './assign-bulk.js';
import { assignmentRun, type AssignmentRunDeps } from './assign-run.js';
import { assignVehicleMember } from '../../records/assignment.js';

export interface DevicesAssignOptions {
  /** A device id (uuid) or a hardware id. */
  device: string;
  /** The assign-device command, checked against the document in use. */
  body: Record<string, unknown>;
  /** The member of the body that names the vehicle in that document (vehicle_id in the bundled one). */
  vehicleMember: string;
}

type DevicesAssignDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'servedDocument'> & AssignmentRunDeps;

export function newDevicesAssignCommand(deps: DevicesAssignDeps, run = devicesAssignRun, bulk = assignmentRun): Command {
  const command = new Command('assign')
    .description('Assign a device to a vehicle and show the updated device')
    .argument('[device]', DEVICE_ARGUMENT)
    .option('--vehicle-id <uuid>', 'vehicle to assign the device to (within your tenant); picked from a list on a terminal when left out')
    .option(...FIELD_OPTION, collect)
    .option('-y, --yes', 'with --from-file or --where: do not ask for confirmation (required when not interactive)');
  addBulkAssignmentOptions(command, 'assign');
  completeValues(command, { device: 'hardware-id' });
  declarePickers(command, { '--vehicle-id': pickVehicle });
  describeVerb(command, {
    operationIds: ['assignDevice', 'listDevices'],
    shows: operationView('assignDevice'),
    output: 'records',
    prompts: true,
    notes: [
      'The command is checked against the service\'s own document (GET {base_url}/openapi/v1.json) before sending.',
      'With --from-file (or --where EXPR, @NAME: each selected device to --vehicle-id) each device is read first: one',
      'already on its vehicle is unchanged (nothing sent). The journal keeps the expression and the devices it selected. Results are',
      'journalled; an interrupted run is finished with --resume RUN_ID. Exit code: 0, or 10 when some devices failed.',
    ].join('\n'),
    examples: [
      { comment: 'assign a device to a vehicle', command: `fleetctl devices assign HW-000001 --vehicle-id ${SANDBOX_IDS.vehicleId}` },
      {
        comment: 'assign a device, named by its hardware id, to the first vehicle',
        command:
          'fleetctl --sandbox devices assign HW-000001 --vehicle-id $(fleetctl --sandbox devices list --all --columns vehicle_id -o csv | awk \'NR > 1 && $1 != "" && !n++\')',
      },
      {
        comment: 'what putting every assigned device back on its own vehicle would change (nothing: all unchanged)',
        command: 'fleetctl --sandbox devices list --all --columns hardware_id,vehicle_id -o csv | awk -F, \'NR == 1 || $2 != ""\' | fleetctl --sandbox devices assign --from-file - --dry-run',
      },
      {
        comment: 'what putting every device that never reported on the first vehicle would change (fleetctl help select)',
        command: 'fleetctl --sandbox devices assign --where never-reported --vehicle-id $(fleetctl --sandbox vehicles list --limit 1 --columns id -o csv | tail -n 1) --dry-run',
      },
    ],
  });
  command.action(async (device: string | undefined, flags: { vehicleId?: string; field?: string[] } & BulkAssignmentFlags) => {
    const many = bulkAssignmentFrom('assign', device, flags);
    if (many) return bulk(deps, many);
    // on a terminal with nothing named, the picker may start from a selection: its devices, to one vehicle picked
    const start = device === undefined && flags.vehicleId === undefined && !flags.field?.length && deps.io.canPrompt() ? await (await import('../shared/pick-selection.js')).startingExpression(deps, 'assign', 'One device, picked from the list') : undefined;
    if (start !== undefined) return bulk(deps, bulkAssignmentFrom('assign', undefined, { ...flags, where: start, vehicleId: await pickVehicle(deps) })!);
    const rules = await bodyRules(deps, 'PUT', '/v1/devices/{id}/assignment');
    // --vehicle-id fills the member the service's document names for the vehicle (vehicle_id, vehicleId ...)
    const vehicleMember = assignVehicleMember(rules.doc);
    const body: Record<string, unknown> = {};
    // a member the command requires and nobody gave is named by its flag
    const origins: Record<string, string> = { [vehicleMember]: '--vehicle-id' };
    if (flags.vehicleId !== undefined) body[vehicleMember] = typedMemberValue(flags.vehicleId, rules, vehicleMember);
    for (const [name, text] of fieldTexts(flags.field)) [body[name], origins[name]] = [typedMemberValue(text, rules, name), `--field ${name}`];
    // on a terminal, the device (when not given) and then its vehicle are picked from lists; otherwise a missing
    // --vehicle-id is refused by checkBody, by its flag, before anything is listed
    if (body[vehicleMember] === undefined && deps.io.canPrompt()) {
      const ref = await deviceArgument(deps, device);
      [body[vehicleMember], origins[vehicleMember]] = [typedMemberValue(await pickVehicle(deps), rules, vehicleMember), 'the vehicle picked'];
      await checkBody(rules, body, origins);
      return run(deps, { device: ref, body, vehicleMember });
    }
    await checkBody(rules, body, origins);
    await run(deps, { device: await deviceArgument(deps, device), body, vehicleMember });
  });
  return command;
}

export async function devicesAssignRun(deps: DevicesAssignDeps, opts: DevicesAssignOptions): Promise<void> {
  const api = await deps.api();
  const device = await resolveDevice(api, opts.device);
  // checked against the service's document, which may name members fleetctl's own types do not know
  const answer = await recordedChange(deps.ledger(), { command: 'devices assign', target: opts.device, outcome: 'assigned' }, () =>
    api.call('assignDevice', { pathParams: { id: device.id }, body: opts.body as RequestBody<'assignDevice'> }),
  );
  await deps.output().object(answer.body, operationView('assignDevice'));
  const named = opts.body[opts.vehicleMember];
  const vehicle = typeof named === 'string' ? ` to vehicle ${named}` : '';
  deps.io.info(`Device ${device.label} assigned${vehicle}.`);
}
