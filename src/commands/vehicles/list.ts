import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addPagingOptions, pagingFrom, renderPages, type RawPagingFlags } from '../shared/paging.js';
import { optionalUuid } from '../shared/validate.js';

export interface VehiclesListOptions {
  organizationId?: string;
  fleetId?: string;
  paging: PageOptions;
}

type VehiclesListDeps = Pick<Deps, 'api' | 'output' | 'io'>;

export function newVehiclesListCommand(deps: VehiclesListDeps, run = vehiclesListRun): Command {
  const command = new Command('list').description('List vehicles, optionally of one organization or fleet');
  command.option('--organization-id <uuid>', 'only vehicles of this organization').option('--fleet-id <uuid>', 'only vehicles of this fleet');
  addPagingOptions(command);
  completeValues(command, { '--organization-id': 'organization-id', '--fleet-id': 'fleet-id' });
  describeVerb(command, {
    operationIds: ['listVehicles'],
    shows: viewOf('vehicle'),
    output: 'records',
    examples: [
      { comment: 'the first page of vehicles', command: 'fleetctl vehicles list' },
      {
        comment: 'the vehicles of the first fleet, plates only',
        command: 'fleetctl --sandbox vehicles list --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --columns license_plate,name',
      },
    ],
  });
  command.action(async (flags: RawPagingFlags & { organizationId?: string; fleetId?: string }) => {
    await run(deps, {
      organizationId: optionalUuid(flags.organizationId, '--organization-id'),
      fleetId: optionalUuid(flags.fleetId, '--fleet-id'),
      paging: pagingFrom(flags),
    });
  });
  return command;
}

export async function vehiclesListRun(deps: VehiclesListDeps, opts: VehiclesListOptions): Promise<void> {
  const api = await deps.api();
  const pager = api.list('listVehicles', { query: { organization_id: opts.organizationId, fleet_id: opts.fleetId } }, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io }, pager, viewOf('vehicle'), opts.paging);
}
