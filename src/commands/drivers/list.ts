import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addPagingOptions, pagingFrom, renderPages, type RawPagingFlags } from '../shared/paging.js';
import { optionalUuid } from '../shared/validate.js';

export interface DriversListOptions {
  organizationId?: string;
  fleetId?: string;
  paging: PageOptions;
}

type DriversListDeps = Pick<Deps, 'api' | 'output' | 'io'>;

export function newDriversListCommand(deps: DriversListDeps, run = driversListRun): Command {
  const command = new Command('list').description('List drivers, optionally of one organization or fleet');
  command.option('--organization-id <uuid>', 'only drivers of this organization').option('--fleet-id <uuid>', 'only drivers of this fleet');
  addPagingOptions(command);
  completeValues(command, { '--organization-id': 'organization-id', '--fleet-id': 'fleet-id' });
  describeVerb(command, {
    operationIds: ['listDrivers'],
    shows: viewOf('driver'),
    output: 'records',
    examples: [
      { comment: 'the first page of drivers', command: 'fleetctl drivers list' },
      {
        comment: 'the drivers of the first fleet, as JSON',
        command: 'fleetctl --sandbox drivers list --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --json',
      },
      { comment: 'every driver as NDJSON, streamed page by page', command: 'fleetctl --sandbox drivers list --all -o ndjson' },
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

export async function driversListRun(deps: DriversListDeps, opts: DriversListOptions): Promise<void> {
  const api = await deps.api();
  const pager = api.list('listDrivers', { query: { organization_id: opts.organizationId, fleet_id: opts.fleetId } }, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io }, pager, viewOf('driver'), opts.paging);
}
