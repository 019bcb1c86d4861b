// The list and get verbs of a tenant's records (devices, drivers, fleets ...): for a list, the API's filters as
// flags, paging, and the records printed page by page; for a get, one record by its id.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { ApiClient } from '../../api/client.js';
import type { CallOptions, ListOperationId, OperationId } from '../../openapi/operation-types.js';
import { operationView, viewOf, type ViewName } from '../../output/columns.js';
import { completeValues, type LookedUpValue } from '../../completion/values.js';
import { describeVerb, type Example } from './help.js';
import { addPagingOptions, pagingFrom, renderPages, type ListPaging, type RawPagingFlags } from './paging.js';
import { optionalHardwareId, optionalUuid } from './validate.js';
import { declarePickers, pickable, type PickerDeps } from './pick-list.js';
import { uuidArgument } from './pickers.js';

export type ListDeps = Pick<Deps, 'api' | 'output' | 'io' | 'configDir'>;

// The filters the list operations share: the flag, the check of its value, and what the value completes with.
const FILTERS = {
  organizationId: { flag: '--organization-id', value: '<uuid>', check: optionalUuid, completes: 'organization-id' },
  fleetId: { flag: '--fleet-id', value: '<uuid>', check: optionalUuid, completes: 'fleet-id' },
  hardwareId: { flag: '--hardware-id', value: '<id>', check: optionalHardwareId, completes: 'hardware-id' },
} as const;

export type ListFilter = keyof typeof FILTERS;

/** The filters given, each checked, the paging, and a --where expression where the list takes one. */
export type FilteredListOptions<F extends ListFilter> = { [K in F]?: string } & { paging: ListPaging; where?: string };

export interface FilteredListSpec<F extends ListFilter> {
  description: string;
  operationId: ListOperationId;
  view: ViewName;
  /** The help of each filter the operation takes, in the order the flags are shown (and checked). */
  filters: Record<F, string>;
  /** Takes --where (a list of devices). */
  where?: boolean;
  examples: Example[];
}

/** `<records> list`: checks the filters, then the paging, before `run` makes any request. */
export function newFilteredListCommand<F extends ListFilter>(
  deps: ListDeps,
  run: (deps: ListDeps, opts: FilteredListOptions<F>) => Promise<void>,
  spec: FilteredListSpec<F>,
): Command {
  const command = new Command('list').description(spec.description);
  const filters = Object.keys(spec.filters) as F[];
  for (const name of filters) command.option(`${FILTERS[name].flag} ${FILTERS[name].value}`, spec.filters[name]);
  // what --where does is loaded (where.ts) only when it is given
  if (spec.where) command.option('--where <expression>', 'only the devices this condition selects, e.g. "fleet:North seen:>2h" (fleetctl help select)');
  addPagingOptions(command);
  completeValues(command, { ...Object.fromEntries(filters.map((name) => [FILTERS[name].flag, FILTERS[name].completes])), ...(spec.where ? { '--where': 'where' as const } : {}) });
  describeVerb(command, { operationIds: [spec.operationId], shows: viewOf(spec.view), output: 'records', examples: spec.examples });
  command.action(async (flags: RawPagingFlags & Partial<Record<F, string>> & { where?: string }) => {
    const given = Object.fromEntries(filters.map((name) => [name, FILTERS[name].check(flags[name], FILTERS[name].flag)]));
    await run(deps, { ...given, paging: pagingFrom(flags), ...(flags.where === undefined ? {} : { where: flags.where }) } as FilteredListOptions<F>);
  });
  return command;
}

/** The items of a list operation, printed as the pages come, with the hint for the next page. */
export async function renderList<Id extends ListOperationId>(deps: ListDeps, operationId: Id, options: CallOptions<Id>, view: ViewName, paging: ListPaging): Promise<void> {
  const api = await deps.api();
  await renderPages({ output: deps.output(), io: deps.io, configDir: deps.configDir }, api.list(operationId, options, paging), viewOf(view), paging);
}

export type GetDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>;

export interface GetByIdSpec {
  description: string;
  /** What the id names, in the argument's help and its errors: "driver" (driver id). */
  noun: string;
  /** Picks the record on a terminal when the id is left out. */
  pick: (deps: PickerDeps) => Promise<string>;
  completes?: LookedUpValue;
  operationId: OperationId;
  examples: Example[];
}

/** `<records> get [id]`: one record by its uuid, checked before any request, or picked on a terminal. */
export function newGetByIdCommand(deps: GetDeps, run: (deps: GetDeps, opts: { id: string }) => Promise<void>, spec: GetByIdSpec): Command {
  const command = new Command('get').description(spec.description).argument('[id]', pickable(`${spec.noun} id (uuid)`));
  if (spec.completes) completeValues(command, { id: spec.completes });
  declarePickers(command, { id: spec.pick });
  describeVerb(command, { operationIds: [spec.operationId], shows: operationView(spec.operationId), output: 'records', examples: spec.examples });
  command.action(async (id: string | undefined) => run(deps, { id: await uuidArgument(deps, id, 'id', `${spec.noun} id`, spec.pick) }));
  return command;
}

/** The run of a get verb: the record the call answers, printed in full. */
export function showRecordRun(operationId: OperationId, fetch: (api: ApiClient, id: string) => Promise<{ body: unknown }>) {
  return async (deps: GetDeps, opts: { id: string }): Promise<void> => {
    const answer = await fetch(await deps.api(), opts.id);
    await deps.output().object(answer.body, operationView(operationId));
  };
}
