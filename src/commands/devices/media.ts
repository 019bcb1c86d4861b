import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { addPagingOptions, pagingFrom, renderPages, type RawPagingFlags } from '../shared/paging.js';
import { addDateWindowOptions, dateQuery, dateWindowFrom, type DateWindow, type RawDateFlags } from '../shared/dates.js';
import { requireHardwareId } from '../shared/validate.js';
import { newDevicesMediaDownloadCommand } from './media-download.js';

export interface DevicesMediaOptions {
  hardwareId: string;
  window: DateWindow;
  paging: PageOptions;
}

type DevicesMediaDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'signal' | 'transport'>;

const FIRST_WITH_MEDIA = 'fleetctl --sandbox devices list --limit 1 --columns hardware_id -o csv | tail -n 1';

export function newDevicesMediaCommand(deps: DevicesMediaDeps, run = devicesMediaRun): Command {
  const command = new Command('media')
    .description("List a device's media items (photos, videos) with their signed download URLs; `media download` fetches them")
    .argument('<hardware-id>', 'hardware id of the device');
  addDateWindowOptions(command, { since: false });
  addPagingOptions(command);
  describeVerb(command, {
    operationIds: ['listDeviceMedia'],
    shows: viewOf('deviceMedia'),
    examples: [
      { comment: "the first device's media items", command: `fleetctl --sandbox devices media $(${FIRST_WITH_MEDIA})` },
      {
        comment: 'media of May 2024 as NDJSON',
        command: `fleetctl --sandbox devices media $(${FIRST_WITH_MEDIA}) --from 2024-05-01T00:00:00Z --to 2024-06-01T00:00:00Z -o ndjson`,
      },
    ],
    notes: 'Download URLs are signed and expire (see download_url_expires_at); `devices media download` fetches files without sending any credential.',
  });
  command.action(async (hardwareId: string, flags: RawPagingFlags & RawDateFlags) => {
    await run(deps, {
      hardwareId: requireHardwareId(hardwareId, 'hardware id'),
      window: dateWindowFrom(flags, deps.clock.now()),
      paging: pagingFrom(flags),
    });
  });
  command.addCommand(newDevicesMediaDownloadCommand(deps));
  return command;
}

export async function devicesMediaRun(deps: DevicesMediaDeps, opts: DevicesMediaOptions): Promise<void> {
  const api = await deps.api();
  const pager = api.list('listDeviceMedia', { pathParams: { hardwareId: opts.hardwareId }, query: dateQuery(opts.window) }, opts.paging);
  await renderPages({ output: deps.output(), io: deps.io }, pager, viewOf('deviceMedia'), opts.paging);
}
