import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addPagingOptions, pagingFrom, renderPages, type RawPagingFlags } from '../shared/paging.js';
import { optionalUuid } from '../shared/validate.js';

export interface FleetsListOptions {
  organizationId?: string;
  paging: PageOptions;
}

type FleetsListDeps = Pick<Deps, 'api' | 'output' | 'io'>;

export function newFleetsListCommand(deps: FleetsListDeps, run = fleetsListRun): Command {
  const command = new Command('list').description('List the fleets of your tenant');
  command.option('--organization-id <uuid>', 'only fleets of this organization');
  addPagingOptions(command);
  completeValues(command, { '--organization-id': 'organization-id' });
  describeVerb(command, {
    operationIds: ['listFleets'],
    shows: viewOf('fleet'),
    output: 'records',
    examples: [
      { comment: 'the first page of fleets', command: 'fleetctl fleets list' },
      { comment: 'every fleet, as JSON', command: 'fleetctl --sandbox fleets list --all --json' },
      { comment: 'the first five fleets', command: 'fleetctl --sandbox fleets list --limit 5' },
    ],
  });
  command.action(async (flags: RawPagingFlags & { organizationId?: string }) => {
    await run(deps, {
      organizationId: optionalUuid(flags.organizationId, '--organization-id'),
      paging: pagingFrom(flags),
    });
  });
  return command;
}

export async function fleetsListRun(deps: FleetsListDeps, opts: FleetsListOptions): Promise<void> {
  const api = await deps.api();
  const pager = api.list('listFleets', { query: { organization_id: opts.organizationId } }, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io }, pager, viewOf('fleet'), opts.paging);
}
