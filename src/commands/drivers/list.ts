import type { Command } from 'commander';
import { newFilteredListCommand, renderList, type FilteredListOptions, type ListDeps } from '../shared/record-verbs.js';

export type DriversListOptions = FilteredListOptions<'organizationId' | 'fleetId'>;

export function newDriversListCommand(deps: ListDeps, run = driversListRun): Command {
  return newFilteredListCommand(deps, run, {
    description: 'List drivers, optionally of one organization or fleet',
    operationId: 'listDrivers',
    view: 'driver',
    filters: { organizationId: 'only drivers of this organization', fleetId: 'only drivers of this fleet' },
    examples: [
      { comment: 'the first page of drivers', command: 'fleetctl drivers list' },
      {
        comment: 'the drivers of the first fleet, as JSON',
        command: 'fleetctl --sandbox drivers list --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --json',
      },
      { comment: 'every driver as NDJSON, streamed page by page', command: 'fleetctl --sandbox drivers list --all -o ndjson' },
    ],
  });
}

export async function driversListRun(deps: ListDeps, opts: DriversListOptions): Promise<void> {
  await renderList(deps, 'listDrivers', { query: { organization_id: opts.organizationId, fleet_id: opts.fleetId } }, 'driver', opts.paging);
}
