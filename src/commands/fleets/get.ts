import type { Command } from 'commander';
import { newGetByIdCommand, showRecordRun, type GetDeps } from '../shared/record-verbs.js';
import { pickFleet } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

export function newFleetsGetCommand(deps: GetDeps, run = fleetsGetRun): Command {
  return newGetByIdCommand(deps, run, {
    description: 'Show one fleet',
    noun: 'fleet',
    pick: pickFleet,
    completes: 'fleet-id',
    operationId: 'getFleet',
    examples: [
      { comment: 'one fleet, in full', command: `fleetctl fleets get ${SANDBOX_IDS.fleetId}` },
      { comment: 'the first fleet, in full', command: 'fleetctl --sandbox fleets get $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1)' },
    ],
  });
}

export const fleetsGetRun = showRecordRun('getFleet', (api, id) => api.call('getFleet', { pathParams: { id } }));
