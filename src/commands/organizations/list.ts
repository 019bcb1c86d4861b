import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { addPagingOptions, pagingFrom, renderPages, type RawPagingFlags } from '../shared/paging.js';

export interface OrganizationsListOptions {
  paging: PageOptions;
}

type OrganizationsListDeps = Pick<Deps, 'api' | 'output' | 'io'>;

export function newOrganizationsListCommand(deps: OrganizationsListDeps, run = organizationsListRun): Command {
  const command = new Command('list').description('List the organizations of your tenant: your organization and its descendants');
  addPagingOptions(command);
  describeVerb(command, {
    operationIds: ['listOrganizations'],
    shows: viewOf('organization'),
    output: 'records',
    examples: [
      { comment: 'the first page of organizations', command: 'fleetctl organizations list' },
      { comment: 'every organization you can reach', command: 'fleetctl --sandbox organizations list --all' },
      { comment: 'ids and names as CSV', command: 'fleetctl --sandbox organizations list --columns id,name -o csv' },
    ],
  });
  command.action(async (flags: RawPagingFlags) => run(deps, { paging: pagingFrom(flags) }));
  return command;
}

export async function organizationsListRun(deps: OrganizationsListDeps, opts: OrganizationsListOptions): Promise<void> {
  const api = await deps.api();
  const pager = api.list('listOrganizations', {}, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io }, pager, viewOf('organization'), opts.paging);
}
