import type { Command } from 'commander';
import { newGetByIdCommand, showRecordRun, type GetDeps } from '../shared/record-verbs.js';
import { pickVehicle } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

export function newVehiclesGetCommand(deps: GetDeps, run = vehiclesGetRun): Command {
  return newGetByIdCommand(deps, run, {
    description: 'Show one vehicle',
    noun: 'vehicle',
    pick: pickVehicle,
    operationId: 'getVehicle',
    examples: [
      { comment: 'one vehicle, in full', command: `fleetctl vehicles get ${SANDBOX_IDS.vehicleId}` },
      { comment: 'the first vehicle, in full', command: 'fleetctl --sandbox vehicles get $(fleetctl --sandbox vehicles list --limit 1 --columns id -o csv | tail -n 1)' },
    ],
  });
}

export const vehiclesGetRun = showRecordRun('getVehicle', (api, id) => api.call('getVehicle', { pathParams: { id } }));
