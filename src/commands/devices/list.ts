import type { Command } from 'commander';
import { newFilteredListCommand, renderList, type FilteredListOptions, type ListDeps } from '../shared/record-verbs.js';

export type DevicesListOptions = FilteredListOptions<'organizationId' | 'fleetId' | 'hardwareId'>;

export function newDevicesListCommand(deps: ListDeps, run = devicesListRun): Command {
  return newFilteredListCommand(deps, run, {
    description: 'List devices, optionally of one organization, fleet or hardware id',
    operationId: 'listDevices',
    view: 'device',
    filters: { organizationId: 'only devices of this organization', fleetId: 'only devices of this fleet', hardwareId: 'only the device with this hardware id' },
    examples: [
      { comment: 'the first page of devices', command: 'fleetctl devices list' },
      { comment: 'every device as NDJSON, streamed page by page', command: 'fleetctl --sandbox devices list --all -o ndjson' },
      { comment: 'hardware ids and names only', command: 'fleetctl --sandbox devices list --columns hardware_id,name --limit 10' },
      { comment: 'hardware ids of the devices that cannot be rebooted (jq, one item at a time)', command: "fleetctl --sandbox devices list --all --jq 'select(.capabilities | index(\"reboot\") | not) | .hardware_id'" },
      { comment: 'every device, the ones that reported last first', command: 'fleetctl --sandbox devices list --all --sort -last_seen_at --columns hardware_id,name,last_seen_at' },
    ],
  });
}

export async function devicesListRun(deps: ListDeps, opts: DevicesListOptions): Promise<void> {
  const query = { organization_id: opts.organizationId, fleet_id: opts.fleetId, hardware_id: opts.hardwareId };
  await renderList(deps, 'listDevices', { query }, 'device', opts.paging);
}
