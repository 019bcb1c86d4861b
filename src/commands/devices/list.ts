import type { Command } from 'commander';
import { newFilteredListCommand, renderList, type FilteredListOptions, type ListDeps } from '../shared/record-verbs.js';
import { renderPages } from '../shared/paging.js';
import { viewOf } from '../../output/columns.js';
import type { WhereDeps } from '../shared/where.js';

export type DevicesListOptions = FilteredListOptions<'organizationId' | 'fleetId' | 'hardwareId'>;
export type DevicesListDeps = ListDeps & WhereDeps;


export function newDevicesListCommand(deps: DevicesListDeps, run = devicesListRun): Command {
  return newFilteredListCommand(deps, (_, opts) => run(deps, opts), {
    description: 'List devices, optionally of one organization, fleet or hardware id, or those a condition selects',
    operationId: 'listDevices',
    view: 'device',
    filters: { organizationId: 'only devices of this organization', fleetId: 'only devices of this fleet', hardwareId: 'only the device with this hardware id' },
    where: true,
    examples: [
      { comment: 'the first page of devices', command: 'fleetctl devices list' },
      { comment: 'every device as NDJSON, streamed page by page', command: 'fleetctl --sandbox devices list --all -o ndjson' },
      { comment: 'hardware ids and names only', command: 'fleetctl --sandbox devices list --columns hardware_id,name --limit 10' },
      { comment: 'hardware ids of the devices that cannot be rebooted (jq, one item at a time)', command: "fleetctl --sandbox devices list --all --jq 'select(.capabilities | index(\"reboot\") | not) | .hardware_id'" },
      { comment: 'the devices that cannot be rebooted and have not reported for two hours', command: 'fleetctl --sandbox devices list --all --where "-has:reboot seen:>2h"' },
      { comment: 'every device, the ones that reported last first', command: 'fleetctl --sandbox devices list --all --sort -last_seen_at --columns hardware_id,name,last_seen_at' },
    ],
  });
}

export async function devicesListRun(deps: DevicesListDeps, opts: DevicesListOptions): Promise<void> {
  const query = { organization_id: opts.organizationId, fleet_id: opts.fleetId, hardware_id: opts.hardwareId };
  if (opts.where === undefined) return renderList(deps, 'listDevices', { query }, 'device', opts.paging);
  // the selection language and its reads of the service, loaded for --where alone: a plain list is a single request
  const { listFilters, readWhere, sayUndecided, selectorFor } = await import('../shared/where.js');
  const selection = await readWhere(deps, opts.where);
  const selector = await selectorFor(deps, selection, {});
  const filters = listFilters(query, selector);
  const api = await deps.api();
  const pager = api.list('listDevices', { query: filters, signal: deps.signal }, { ...opts.paging, select: (page) => selector.keep(page) });
  await renderPages({ output: deps.output(), io: deps.io, configDir: deps.configDir }, pager, viewOf('device'), opts.paging);
  sayUndecided(deps, selection, selector);
}
