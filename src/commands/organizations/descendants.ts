import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addPagingOptions, pagingFrom, type RawPagingFlags } from '../shared/paging.js';
import { renderList } from '../shared/record-verbs.js';
import { pickable } from '../shared/pick-list.js';
import { pickOrganization, uuidArgument } from '../shared/pickers.js';
import { FIRST_ORGANIZATION } from './get.js';

export interface OrganizationsDescendantsOptions {
  id: string;
  paging: PageOptions;
}

type OrganizationsDescendantsDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'configDir'>;

export function newOrganizationsDescendantsCommand(deps: OrganizationsDescendantsDeps, run = organizationsDescendantsRun): Command {
  const command = new Command('descendants')
    .description('List the descendants of an organization (children, their children, ...)')
    .argument('[id]', pickable('organization id (uuid)'));
  addPagingOptions(command);
  completeValues(command, { id: 'organization-id' });
  describeVerb(command, {
    operationIds: ['listOrganizationDescendants'],
    shows: viewOf('organization'),
    output: 'records',
    examples: [
      { comment: 'the organizations below one', command: `fleetctl organizations descendants ${SANDBOX_IDS.organizationId}` },
      { comment: 'everything below your own organization', command: `fleetctl --sandbox organizations descendants ${FIRST_ORGANIZATION} --all` },
    ],
  });
  command.action(async (id: string | undefined, flags: RawPagingFlags) => {
    const paging = pagingFrom(flags);
    await run(deps, { id: await uuidArgument(deps, id, 'id', 'organization id', pickOrganization), paging });
  });
  return command;
}

export async function organizationsDescendantsRun(deps: OrganizationsDescendantsDeps, opts: OrganizationsDescendantsOptions): Promise<void> {
  await renderList(deps, 'listOrganizationDescendants', { pathParams: { organizationId: opts.id } }, 'organization', opts.paging);
}
