import type { Command } from 'commander';
import { newFilteredListCommand, renderList, type FilteredListOptions, type ListDeps } from '../shared/record-verbs.js';

export type OrganizationsListOptions = FilteredListOptions<never>;

export function newOrganizationsListCommand(deps: ListDeps, run = organizationsListRun): Command {
  return newFilteredListCommand(deps, run, {
    description: 'List the organizations of your tenant: your organization and its descendants',
    operationId: 'listOrganizations',
    view: 'organization',
    filters: {},
    examples: [
      { comment: 'the first page of organizations', command: 'fleetctl organizations list' },
      { comment: 'every organization you can reach', command: 'fleetctl --sandbox organizations list --all' },
      { comment: 'ids and names as CSV', command: 'fleetctl --sandbox organizations list --columns id,name -o csv' },
    ],
  });
}

export async function organizationsListRun(deps: ListDeps, opts: OrganizationsListOptions): Promise<void> {
  await renderList(deps, 'listOrganizations', {}, 'organization', opts.paging);
}
