import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addPagingOptions, pagingFrom, renderPages, type RawPagingFlags } from '../shared/paging.js';
import { requireHardwareId, optionalUuid } from '../shared/validate.js';

export interface DevicesListOptions {
  organizationId?: string;
  fleetId?: string;
  hardwareId?: string;
  paging: PageOptions;
}

type DevicesListDeps = Pick<Deps, 'api' | 'output' | 'io'>;

export function newDevicesListCommand(deps: DevicesListDeps, run = devicesListRun): Command {
  const command = new Command('list').description('List devices, optionally of one organization, fleet or hardware id');
  command
    .option('--organization-id <uuid>', 'only devices of this organization')
    .option('--fleet-id <uuid>', 'only devices of this fleet')
    .option('--hardware-id <id>', 'only the device with this hardware id');
  addPagingOptions(command);
  completeValues(command, { '--organization-id': 'organization-id', '--fleet-id': 'fleet-id', '--hardware-id': 'hardware-id' });
  describeVerb(command, {
    operationIds: ['listDevices'],
    shows: viewOf('device'),
    output: 'records',
    examples: [
      { comment: 'the first page of devices', command: 'fleetctl devices list' },
      { comment: 'every device as NDJSON, streamed page by page', command: 'fleetctl --sandbox devices list --all -o ndjson' },
      { comment: 'hardware ids and names only', command: 'fleetctl --sandbox devices list --columns hardware_id,name --limit 10' },
      { comment: 'hardware ids of the devices that cannot be rebooted (jq, one item at a time)', command: "fleetctl --sandbox devices list --all --jq 'select(.capabilities | index(\"reboot\") | not) | .hardware_id'" },
      { comment: 'every device, the ones that reported last first', command: 'fleetctl --sandbox devices list --all --sort -last_seen_at --columns hardware_id,name,last_seen_at' },
    ],
  });
  command.action(async (flags: RawPagingFlags & { organizationId?: string; fleetId?: string; hardwareId?: string }) => {
    await run(deps, {
      organizationId: optionalUuid(flags.organizationId, '--organization-id'),
      fleetId: optionalUuid(flags.fleetId, '--fleet-id'),
      hardwareId: flags.hardwareId === undefined ? undefined : requireHardwareId(flags.hardwareId, '--hardware-id'),
      paging: pagingFrom(flags),
    });
  });
  return command;
}

export async function devicesListRun(deps: DevicesListDeps, opts: DevicesListOptions): Promise<void> {
  const api = await deps.api();
  const query = { organization_id: opts.organizationId, fleet_id: opts.fleetId, hardware_id: opts.hardwareId };
  const pager = api.list('listDevices', { query }, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io }, pager, viewOf('device'), opts.paging);
}
