import type { Command } from 'commander';
import { newGetByIdCommand, showRecordRun, type GetDeps } from '../shared/record-verbs.js';
import { pickOrganization } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

export const FIRST_ORGANIZATION = '$(fleetctl --sandbox organizations list --limit 1 --columns id -o csv | tail -n 1)';

export function newOrganizationsGetCommand(deps: GetDeps, run = organizationsGetRun): Command {
  return newGetByIdCommand(deps, run, {
    description: 'Show one organization',
    noun: 'organization',
    pick: pickOrganization,
    completes: 'organization-id',
    operationId: 'getOrganization',
    examples: [
      { comment: 'one organization', command: `fleetctl organizations get ${SANDBOX_IDS.organizationId}` },
      { comment: 'your own organization', command: `fleetctl --sandbox organizations get ${FIRST_ORGANIZATION}` },
    ],
  });
}

export const organizationsGetRun = showRecordRun('getOrganization', (api, id) => api.call('getOrganization', { pathParams: { organizationId: id } }));
