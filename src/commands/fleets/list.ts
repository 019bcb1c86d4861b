import type { Command } from 'commander';
import { newFilteredListCommand, renderList, type FilteredListOptions, type ListDeps } from '../shared/record-verbs.js';

export type FleetsListOptions = FilteredListOptions<'organizationId'>;

export function newFleetsListCommand(deps: ListDeps, run = fleetsListRun): Command {
  return newFilteredListCommand(deps, run, {
    description: 'List the fleets of your tenant',
    operationId: 'listFleets',
    view: 'fleet',
    filters: { organizationId: 'only fleets of this organization' },
    examples: [
      { comment: 'the first page of fleets', command: 'fleetctl fleets list' },
      { comment: 'every fleet, as JSON', command: 'fleetctl --sandbox fleets list --all --json' },
      { comment: 'the first five fleets', command: 'fleetctl --sandbox fleets list --limit 5' },
    ],
  });
}

export async function fleetsListRun(deps: ListDeps, opts: FleetsListOptions): Promise<void> {
  await renderList(deps, 'listFleets', { query: { organization_id: opts.organizationId } }, 'fleet', opts.paging);
}
