// Downloads media files from their signed URLs. The URL's signature is the only credential: no bearer token,
// no client secret, no header of ours is ever sent to the download host.
import { Command } from 'commander';
import { createWriteStream, statSync } from 'node:fs';
import { ensureDirectory } from '../../io/directories.js';
import { replaceFileAtomically } from '../../io/atomic-file.js';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Deps } from '../../factory.js';
import { ApiError, FleetctlError, InvalidResponseError, NetworkError, UsageError } from '../../errors.js';
import type { Transport } from '../../http/transport.js';
import { MAX_LIMIT } from '../../shared/page-limits.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addDateWindowOptions, dateQuery, dateWindowFrom, type DateWindow, type RawDateFlags } from '../shared/dates.js';
import { requireNonEmpty } from '../shared/validate.js';
import { pickable } from '../shared/pick-list.js';
import { hardwareIdArgument, HARDWARE_ID_ARGUMENT, pickMedia } from '../shared/pickers.js';
import { formatBytes, startProgress } from '../../io/progress.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { records } from '../../records/resources.js';

export interface DevicesMediaDownloadOptions {
  hardwareId: string;
  /** Empty with --all. */
  mediaIds: string[];
  all: boolean;
  dir: string;
  window: DateWindow;
}

/** What a download needs of a media item, read from its record by the record boundary (records/media-item.ts). */
interface MediaItem {
  id: string;
  url: string;
  /** The name the service gives the file, else the last segment of the URL's path; undefined when neither says. */
  fileName: string | undefined;
  /** The size the record states, if it states one (for progress when the download host sends no length). */
  sizeBytes: number | undefined;
}

type DevicesMediaDownloadDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'signal' | 'transport' | 'prompter'>;

export function newDevicesMediaDownloadCommand(deps: DevicesMediaDownloadDeps, run = devicesMediaDownloadRun): Command {
  const command = new Command('download')
    .description('Download media files of a device from their signed URLs')
    .argument('[hardware-id]', HARDWARE_ID_ARGUMENT)
    .argument('[media-ids...]', pickable('ids of the media items to download, or --all'))
    .option('--all', 'download every media item of the device (within --since or --from/--to when given)')
    .option('--dir <dir>', 'directory to write the files to (default: the current directory)');
  addDateWindowOptions(command);
  completeValues(command, { 'hardware-id': 'hardware-id', '--dir': 'directory' });
  describeVerb(command, {
    operationIds: ['listDeviceMedia'],
    output: 'records',
    examples: [
      { comment: 'every media file of a device, into ./media', command: `fleetctl devices media download ${SANDBOX_IDS.hardwareId} --all --dir media` },
      {
        comment: 'two media items named by id, as `devices media` lists them',
        command: `fleetctl --sandbox devices media download ${SANDBOX_IDS.hardwareId} $(fleetctl --sandbox devices media ${SANDBOX_IDS.hardwareId} --columns id -o csv | sed -n 2,3p)`,
      },
    ],
    notes: 'Each file is written to a temporary name, then renamed; no credential is sent to the download host.',
  });
  command.action(async (hardwareId: string | undefined, mediaIds: string[], _flags: unknown, self: Command) => {
    // `devices media` has --all, --from and --to too, and commander gives them to it: read both levels.
    const flags = self.optsWithGlobals<RawDateFlags & { all?: boolean; dir?: string }>();
    if (flags.all && mediaIds.length > 0) throw new UsageError('give media ids or --all, not both');
    const dir = flags.dir === undefined ? '.' : directoryFlag(flags.dir);
    const window = dateWindowFrom(flags, deps.clock.now());
    const device = await hardwareIdArgument(deps, hardwareId);
    const pickMediaId = !flags.all && mediaIds.length === 0;
    if (pickMediaId && !deps.io.canPrompt()) throw new UsageError('name the media ids to download, or pass --all', 'list them with: fleetctl devices media HARDWARE_ID');
    const ids = pickMediaId ? [await pickMedia(deps, device, window)] : mediaIds.map((id) => requireNonEmpty(id, 'media id'));
    await run(deps, { hardwareId: device, mediaIds: [...new Set(ids)], all: Boolean(flags.all), dir, window });
  });
  return command;
}

/** --dir: missing is fine (it is created), but not a file. */
function directoryFlag(dir: string): string {
  requireNonEmpty(dir, '--dir');
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    throw new UsageError(`--dir ${dir} cannot be used: ${(error as Error).message}`);
  }
  if (stat && !stat.isDirectory()) throw new UsageError(`--dir ${dir} is not a directory`);
  // Node 22 and later answer "no entry" for a path under a file where Node 20 throws ENOTDIR: the nearest
  // existing parent decides, the same on every version
  for (let parent = path.dirname(dir); !stat; parent = path.dirname(parent)) {
    const found = statSync(parent, { throwIfNoEntry: false });
    if (found && !found.isDirectory()) throw new UsageError(`--dir ${dir} cannot be used: ENOTDIR: ${parent} is not a directory`);
    if (found || path.dirname(parent) === parent) break;
  }
  return dir;
}

export async function devicesMediaDownloadRun(deps: DevicesMediaDownloadDeps, opts: DevicesMediaDownloadOptions): Promise<void> {
  // the directory first: a place that cannot be written to is found before any request
  try {
    ensureDirectory(opts.dir, { mode: 0o777 });
  } catch (error) {
    throw new UsageError(`cannot use --dir ${opts.dir}: ${(error as Error).message}`, 'choose a directory you can write to');
  }
  const items = await mediaToDownload(deps, opts);
  const transport = await deps.transport();
  const names = fileNames(items);
  const written: { media_id: string; path: string; size_bytes: number }[] = [];
  for (const item of items) {
    const target = path.join(opts.dir, names.get(item.id)!);
    const bytes = await downloadTo(deps, transport, item, target);
    written.push({ media_id: item.id, path: target, size_bytes: bytes });
  }
  await deps.output().list(written, ['media_id', 'path', 'size_bytes']);
  deps.io.info(`Downloaded ${written.length} file${written.length === 1 ? '' : 's'} to ${opts.dir}.`);
}

/** The items to fetch, with fresh signed URLs; an unknown id fails before anything is downloaded. */
async function mediaToDownload(deps: DevicesMediaDownloadDeps, opts: DevicesMediaDownloadOptions): Promise<MediaItem[]> {
  const api = await deps.api();
  const pager = api.list(
    'listDeviceMedia',
    { pathParams: { hardwareId: opts.hardwareId }, query: dateQuery(opts.window), signal: deps.signal },
    { limit: MAX_LIMIT, all: true },
  );
  const found: MediaItem[] = [];
  const wanted = new Set(opts.mediaIds);
  for await (const record of pager) {
    const id = records.media.idOf(record);
    if (opts.all || (id !== undefined && wanted.has(id))) found.push(mediaItemOf(record, opts.hardwareId));
  }
  const missing = opts.mediaIds.filter((id) => !found.some((item) => item.id === id));
  if (missing.length > 0) {
    throw new ApiError({
      status: 404,
      problem: { status: 404, code: 'resource.not_found', detail: `no media ${missing.slice(0, 5).map((id) => quoteInput(id, 40)).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''} for device ${opts.hardwareId}` },
      hint: `list them with: fleetctl devices media ${opts.hardwareId}`,
    });
  }
  if (found.length === 0) deps.io.info(`Device ${opts.hardwareId} has no media${opts.window.dateFrom || opts.window.dateTo ? ' in that window' : ''}.`);
  return found;
}

/** What a download needs of one record (the record boundary reads it): an invalid answer without an id or a link. */
function mediaItemOf(record: unknown, hardwareId: string): MediaItem {
  const { id, url, fileName, sizeBytes } = records.media.downloadOf(record);
  if (id === undefined) throw new InvalidResponseError(`a media item of device ${hardwareId} carries no id`);
  if (url === undefined) throw new InvalidResponseError(`media item ${quoteInput(id, 60)} carries no download URL`);
  return { id, url, fileName, sizeBytes };
}

/** A safe local name per item: the base name only; a name used twice is prefixed with the media id. */
function fileNames(items: MediaItem[]): Map<string, string> {
  const safe = (item: MediaItem) => path.basename((item.fileName ?? '').replace(/\\/g, '/')).replace(/^\.+/, '') || `${item.id}.bin`;
  const counts = new Map<string, number>();
  for (const item of items) counts.set(safe(item), (counts.get(safe(item)) ?? 0) + 1);
  return new Map(items.map((item) => [item.id, counts.get(safe(item))! > 1 ? `${item.id}-${safe(item)}` : safe(item)]));
}

/** Streams one file to a temporary name beside the target, which then replaces it; returns the byte count. */
async function downloadTo(deps: DevicesMediaDownloadDeps, transport: Transport, item: MediaItem, target: string): Promise<number> {
  // No headers of ours: the signed URL is the credential, and the download host must never see a token.
  const answer = await transport.stream(item.url, { headers: {}, signal: deps.signal, label: `Downloading ${path.basename(target)}` });
  if (answer.statusCode !== 200) {
    const text = await answer.body.text().catch(() => '');
    throw downloadError(answer.statusCode, text, item);
  }
  const total = Number(answer.headers['content-length'] ?? item.sizeBytes ?? 0);
  const progress = await startProgress(deps.io, { label: path.basename(target), total: total > 0 ? total : undefined, unit: 'bytes' });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      progress.update(bytes);
      done(null, chunk);
    },
  });
  try {
    await replaceFileAtomically(target, (temporary) => pipeline(answer.body, counter, createWriteStream(temporary), { signal: deps.signal }));
  } catch (error) {
    throw deps.signal.aborted ? error : transferError(error, item, target, bytes);
  } finally {
    progress.finish();
  }
  return bytes;
}

/** A failure while streaming to disk: the local file system (exit 2) or the connection (exit 9), never "unexpected". */
function transferError(error: unknown, item: MediaItem, target: string, bytes: number): Error {
  if (error instanceof FleetctlError) return error;
  const cause = error as NodeJS.ErrnoException;
  if (typeof cause.syscall === 'string' && typeof cause.path === 'string') {
    return new UsageError(`cannot write ${target}: ${cause.message}`, 'choose a directory you can write to, with room for the file');
  }
  return new NetworkError(
    `download of media ${item.id} to ${target} failed after ${formatBytes(bytes)}: ${cause.message ?? String(error)}; nothing was left behind`,
    'run the download again (the link is signed and time-limited: a new run fetches a fresh one)',
  );
}

function downloadError(status: number, text: string, item: MediaItem): ApiError {
  let problem: Record<string, unknown> | undefined;
  try {
    problem = JSON.parse(text) as Record<string, unknown>;
  } catch {
    problem = undefined;
  }
  const detail = `download of media ${item.id} failed with HTTP ${status}${typeof problem?.detail === 'string' ? `: ${problem.detail}` : ''}`;
  return new ApiError({
    status,
    problem: { ...problem, status, detail },
    hint: status === 403 || status === 410 ? 'the signed URL may have expired: run the download again for a fresh one' : undefined,
  });
}
