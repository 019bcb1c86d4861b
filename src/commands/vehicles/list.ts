import type { Command } from 'commander';
import { newFilteredListCommand, renderList, type FilteredListOptions, type ListDeps } from '../shared/record-verbs.js';

export type VehiclesListOptions = FilteredListOptions<'organizationId' | 'fleetId'>;

export function newVehiclesListCommand(deps: ListDeps, run = vehiclesListRun): Command {
  return newFilteredListCommand(deps, run, {
    description: 'List vehicles, optionally of one organization or fleet',
    operationId: 'listVehicles',
    view: 'vehicle',
    filters: { organizationId: 'only vehicles of this organization', fleetId: 'only vehicles of this fleet' },
    examples: [
      { comment: 'the first page of vehicles', command: 'fleetctl vehicles list' },
      {
        comment: 'the vehicles of the first fleet, plates only',
        command: 'fleetctl --sandbox vehicles list --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --columns license_plate,name',
      },
    ],
  });
}

export async function vehiclesListRun(deps: ListDeps, opts: VehiclesListOptions): Promise<void> {
  await renderList(deps, 'listVehicles', { query: { organization_id: opts.organizationId, fleet_id: opts.fleetId } }, 'vehicle', opts.paging);
}
