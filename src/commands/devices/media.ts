import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import type { PageOptions } from '../../api/paginate.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { hardwareIdArgument, HARDWARE_ID_ARGUMENT } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addPagingOptions, pagingFrom, type RawPagingFlags } from '../shared/paging.js';
import { renderList } from '../shared/record-verbs.js';
import { addDateWindowOptions, dateQuery, dateWindowFrom, type DateWindow, type RawDateFlags } from '../shared/dates.js';
import { newDevicesMediaDownloadCommand } from './media-download.js';
import { suggestingHardwareIdCase } from './hardware-id-case.js';

export interface DevicesMediaOptions {
  hardwareId: string;
  window: DateWindow;
  paging: PageOptions;
}

type DevicesMediaDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'signal' | 'transport' | 'prompter' | 'configDir'>;

const FIRST_WITH_MEDIA = 'fleetctl --sandbox devices list --limit 1 --columns hardware_id -o csv | tail -n 1';

export function newDevicesMediaCommand(deps: DevicesMediaDeps, run = devicesMediaRun): Command {
  const command = new Command('media')
    .description("List a device's media items (photos, videos) with their signed download URLs; `media download` fetches them")
    .argument('[hardware-id]', HARDWARE_ID_ARGUMENT);
  addDateWindowOptions(command);
  addPagingOptions(command);
  completeValues(command, { 'hardware-id': 'hardware-id' });
  describeVerb(command, {
    operationIds: ['listDeviceMedia'],
    shows: viewOf('deviceMedia'),
    output: 'records',
    examples: [
      { comment: "a device's media items", command: `fleetctl devices media ${SANDBOX_IDS.hardwareId}` },
      {
        comment: 'media of the last 30 days as NDJSON',
        command: `fleetctl --sandbox devices media $(${FIRST_WITH_MEDIA}) --since 30d -o ndjson`,
      },
    ],
    notes: 'Download URLs are signed and expire (see download_url_expires_at); `devices media download` fetches files without sending any credential.',
  });
  command.action(async (hardwareId: string | undefined, flags: RawPagingFlags & RawDateFlags) => {
    const window = dateWindowFrom(flags, deps.clock.now());
    const paging = pagingFrom(flags);
    await run(deps, { hardwareId: await hardwareIdArgument(deps, hardwareId), window, paging });
  });
  command.addCommand(newDevicesMediaDownloadCommand(deps));
  return command;
}

export async function devicesMediaRun(deps: DevicesMediaDeps, opts: DevicesMediaOptions): Promise<void> {
  // a 404 (no such device: hw-000001 for HW-000001, say) names the id in capitals when there is one
  const media = () => renderList(deps, 'listDeviceMedia', { pathParams: { hardwareId: opts.hardwareId }, query: dateQuery(opts.window) }, 'deviceMedia', opts.paging);
  await suggestingHardwareIdCase(await deps.api(), opts.hardwareId, media, deps.signal);
}
