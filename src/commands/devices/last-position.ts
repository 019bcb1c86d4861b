import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { ApiError, UsageError } from '../../errors.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { hardwareIdArgument, HARDWARE_ID_ARGUMENT } from '../shared/pickers.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { rephrasing } from '../shared/api-errors.js';
import { parseDuration } from '../shared/dates.js';
import { pause } from '../shared/follow.js';

export interface DevicesLastPositionOptions {
  hardwareId: string;
  watch: boolean;
  /** Milliseconds between polls with --watch. */
  intervalMs: number;
}

type DevicesLastPositionDeps = Pick<Deps, 'api' | 'output' | 'io' | 'clock' | 'signal' | 'prompter'>;

/** Longer waits than a day are not watching; and timers cannot wait beyond 24.8 days. */
const MAX_WATCH_INTERVAL_MS = 86_400_000;

export function newDevicesLastPositionCommand(deps: DevicesLastPositionDeps, run = devicesLastPositionRun): Command {
  const command = new Command('last-position')
    .description('Show the last live position of a device, once or continuously with --watch')
    .argument('[hardware-id]', HARDWARE_ID_ARGUMENT)
    .option('-w, --watch', 'poll and show each change until Ctrl-C (piped: one NDJSON line per change)')
    .option('--interval <duration>', 'time between polls with --watch, e.g. 5s, 1m (default 5s)');
  completeValues(command, { 'hardware-id': 'hardware-id' });
  describeVerb(command, {
    operationIds: ['getDeviceLastPosition'],
    output: 'records',
    examples: [
      { comment: 'where a device is now', command: `fleetctl devices last-position ${SANDBOX_IDS.hardwareId}` },
      {
        comment: 'where a device that has reported is now',
        command: 'fleetctl --sandbox devices last-position $(fleetctl --sandbox devices list --all --columns hardware_id,last_seen_at -o csv | awk -F, \'NR > 1 && $2 != "" && !n++ {print $1}\')',
      },
    ],
    notes: 'With --watch on a terminal the position is redrawn on each change; piped, each change is one NDJSON line.',
  });
  command.action(async (hardwareId: string | undefined, flags: { watch?: boolean; interval?: string }) => {
    if (flags.interval !== undefined && !flags.watch) throw new UsageError('--interval only applies with --watch');
    const intervalMs = flags.interval === undefined ? 5_000 : parseDuration(flags.interval, '--interval', MAX_WATCH_INTERVAL_MS);
    await run(deps, { hardwareId: await hardwareIdArgument(deps, hardwareId), watch: Boolean(flags.watch), intervalMs });
  });
  return command;
}

export async function devicesLastPositionRun(deps: DevicesLastPositionDeps, opts: DevicesLastPositionOptions): Promise<void> {
  const api = await deps.api();
  const fetchPosition = () =>
    rephrasing(() => api.call('getDeviceLastPosition', { pathParams: { hardwareId: opts.hardwareId }, signal: deps.signal }), [
      { status: 404, code: 'device.no_live_position', detail: `no live position for ${opts.hardwareId}` },
      // the spec's 404 here is either: no such device, or no position available
      { status: 404, detail: `no live position for ${opts.hardwareId}, or no such device` },
    ]);
  if (!opts.watch) {
    await deps.output().object((await fetchPosition()).body);
    return;
  }
  // the watch owns the screen: a spinner at every poll would only flicker under the redrawn position
  const release = deps.io.activity.hold();
  try {
    await pollPosition(deps, opts, fetchPosition);
  } finally {
    release();
  }
}

type FetchPosition = () => Promise<{ body: unknown }>;

/** Polls until Ctrl-C; shows the position only when it changed. Ctrl-C ends the watch normally. */
async function pollPosition(deps: DevicesLastPositionDeps, opts: DevicesLastPositionOptions, fetchPosition: FetchPosition): Promise<void> {
  const output = deps.output();
  const redraw = deps.io.stdoutIsTTY && !output.isMachineReadable;
  let last: string | undefined;
  let waitingSaid = false;
  if (redraw) deps.io.info(`Watching ${opts.hardwareId} every ${opts.intervalMs / 1000} s; Ctrl-C to stop.`);
  while (!deps.signal.aborted) {
    try {
      const position = (await fetchPosition()).body;
      const text = JSON.stringify(position);
      if (text !== last) {
        last = text;
        if (redraw) {
          deps.io.clearScreen();
          await output.object(position);
          deps.io.info(`Updated ${deps.clock.now().toISOString()}; Ctrl-C to stop.`);
        } else {
          await output.item(position);
        }
      }
    } catch (error) {
      if (deps.signal.aborted) return;
      // spec: 404 when no live position is available; its code is not stated, so any 404 waits, except the ones
      // that say the device itself is unknown (a typo would otherwise wait forever)
      const noPosition = error instanceof ApiError && error.status === 404 && !UNKNOWN_RESOURCE_CODES.has(error.code ?? '');
      if (!noPosition) throw error;
      if (!waitingSaid) deps.io.info(`No live position for ${opts.hardwareId} yet; waiting.`);
      waitingSaid = true;
    }
    if (!(await pause(deps, opts.intervalMs))) return;
  }
}

/** Codes of a 404 that name a missing device or path, not a missing position (the sandbox's; others wait). */
const UNKNOWN_RESOURCE_CODES = new Set(['resource.not_found', 'route.not_found']);
