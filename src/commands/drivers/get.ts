import type { Command } from 'commander';
import { newGetByIdCommand, showRecordRun, type GetDeps } from '../shared/record-verbs.js';
import { pickDriver } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

export function newDriversGetCommand(deps: GetDeps, run = driversGetRun): Command {
  return newGetByIdCommand(deps, run, {
    description: 'Show one driver by its id',
    noun: 'driver',
    pick: pickDriver,
    operationId: 'getDriver',
    examples: [
      { comment: 'one driver, in full', command: `fleetctl drivers get ${SANDBOX_IDS.driverId}` },
      {
        comment: 'the first driver, in full',
        command: 'fleetctl --sandbox drivers get $(fleetctl --sandbox drivers list --limit 1 --columns id -o csv | tail -n 1)',
      },
    ],
  });
}

export const driversGetRun = showRecordRun('getDriver', (api, id) => api.call('getDriver', { pathParams: { id } }));
