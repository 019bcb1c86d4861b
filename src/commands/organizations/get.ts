import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { schemaView } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { pickable } from '../shared/pick-list.js';
import { pickOrganization, uuidArgument } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

type OrganizationsGetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export const FIRST_ORGANIZATION = '$(fleetctl --sandbox organizations list --limit 1 --columns id -o csv | tail -n 1)';

export function newOrganizationsGetCommand(deps: OrganizationsGetDeps, run = organizationsGetRun): Command {
  const command = new Command('get').description('Show one organization').argument('[id]', pickable('organization id (uuid)'));
  completeValues(command, { id: 'organization-id' });
  describeVerb(command, {
    operationIds: ['getOrganization'],
    shows: schemaView('Organization'),
    output: 'records',
    examples: [
      { comment: 'one organization', command: `fleetctl organizations get ${SANDBOX_IDS.organizationId}` },
      { comment: 'your own organization', command: `fleetctl --sandbox organizations get ${FIRST_ORGANIZATION}` },
    ],
  });
  command.action(async (id: string | undefined) => run(deps, { id: await uuidArgument(deps, id, 'id', 'organization id', pickOrganization) }));
  return command;
}

export async function organizationsGetRun(deps: OrganizationsGetDeps, opts: { id: string }): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('getOrganization', { pathParams: { organizationId: opts.id } });
  await deps.output().object(answer.body, schemaView('Organization'));
}
