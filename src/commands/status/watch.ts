// `fleetctl status --watch INTERVAL`: the report again on a schedule, one line per change (a device going stale or
// coming back, a threshold breached or cleared), --on-breach once per transition into breach, and with
// --exit-on-breach exit 13 there. Memory holds the devices not reporting, never past reports (status-changes.ts).
// Requests go through one RatePacer for the whole watch: a 429 in one round paces the next ones too.
import type { ApiClient } from '../../api/client.js';
import { RatePacer } from '../../api/rate-pacer.js';
import type { Clock } from '../../io/clock.js';
import { describeFailure, isTransient, pause, retryAfterMs } from '../shared/follow.js';
import { buildReport, type StatusDeps, type StatusOptions, type StatusReport } from './report.js';
import { StatusChanges, type WatchState } from './status-changes.js';
import { breachError } from './thresholds.js';
import { changeWriter, runOnBreach, type ChangeWriter } from './watch-output.js';
import type { WatchOptions } from './watch-flags.js';

/** Where a watch keeps what it knows between rounds, to go on after a restart (--checkpoint). */
export interface WatchStateStore {
  load(): Promise<WatchState | undefined>;
  save(state: WatchState): Promise<void>;
}

/** One evaluation of the report, each device told to the tracker: buildReport unless a test gives another. */
export type EvaluateReport = (deps: StatusDeps, opts: StatusOptions, changes: StatusChanges) => Promise<StatusReport>;

const evaluateReport: EvaluateReport = (deps, opts, changes) => buildReport(deps, opts, (device, freshness, atMs) => changes.observe(device, freshness, atMs));

/** Runs until Ctrl-C (thrown: exit 130), a closed stdout, a refusal of the service, or a breach with --exit-on-breach. */
export async function watchStatus(deps: StatusDeps, opts: StatusOptions, watch: WatchOptions, store?: WatchStateStore, evaluate = evaluateReport): Promise<void> {
  const write = changeWriter(deps.output(), opts.thresholds);
  const paced = pacedApi(await deps.api(), deps.clock);
  const roundDeps: StatusDeps = { ...deps, api: async () => paced };
  const changes = new StatusChanges(await store?.load());
  let failures = 0;
  let watching = false;
  while (!deps.signal.aborted) {
    const started = deps.clock.now().getTime();
    let waitMs = watch.intervalMs;
    try {
      await round(roundDeps, opts, watch, { changes, write, evaluate, store, first: !watching });
      watching = true;
      if (failures > 0) deps.io.info('The report could be read again.');
      failures = 0;
    } catch (error) {
      changes.abandonRound();
      if (deps.signal.aborted) break;
      if (!isTransient(error)) throw error;
      failures++;
      waitMs = Math.max(waitMs, retryAfterMs(error));
      deps.io.warn(`status --watch: the report could not be read (${describeFailure(error)}); trying again in ${Math.ceil(waitMs / 1000)} s`, { failures, retry_in_s: Math.ceil(waitMs / 1000) });
    }
    // each round starts an interval after the one before started; one that took longer is followed at once, no burst
    const wait = Math.max(0, started + waitMs - deps.clock.now().getTime());
    if (!(await pause(deps, wait))) break;
  }
  // Ctrl-C, SIGTERM: exit 130 (main.ts); a reader gone from stdout ends the watch quietly
  throw deps.signal.reason;
}

interface RoundParts {
  changes: StatusChanges;
  write: ChangeWriter;
  evaluate: EvaluateReport;
  store: WatchStateStore | undefined;
  first: boolean;
}

async function round(deps: StatusDeps, opts: StatusOptions, watch: WatchOptions, parts: RoundParts): Promise<void> {
  const { changes, store } = parts;
  changes.beginRound(deps.clock.now());
  const report = await parts.evaluate(deps, opts, changes);
  const result = changes.endRound(report.thresholds);
  if (parts.first) sayWatching(deps, report, watch.intervalMs);
  for (const change of result.changes) await parts.write(change);
  if (result.intoBreach && watch.onBreach !== undefined) await runOnBreach(deps, watch.onBreach, report);
  // kept once its lines are out: a kill before this says them again after a restart, never loses them
  await store?.save(changes.state());
  if (result.intoBreach && watch.exitOnBreach) throw breachError(result.breached);
}

function sayWatching(deps: StatusDeps, report: StatusReport, intervalMs: number): void {
  const d = report.devices;
  const counts = d.reporting === null ? `${d.unknown} of unknown freshness` : `${d.reporting} reporting, ${d.stale} stale, ${d.never_reported} never reported`;
  deps.io.info(`Watching ${d.total} device${d.total === 1 ? '' : 's'} every ${intervalMs / 1000} s (${counts}); a line for each change; Ctrl-C to stop.`, {
    devices: { total: d.total, reporting: d.reporting, stale: d.stale, never_reported: d.never_reported, unknown: d.unknown },
    interval_s: intervalMs / 1000,
  });
  for (const note of [d.note, report.webhooks.state === 'unavailable' ? `webhooks: ${report.webhooks.note}` : null]) if (note) deps.io.warn(note);
}

/** The API client of the watch, its requests paced to the rate the service accepts (learnt from its 429s). */
function pacedApi(api: ApiClient, clock: Clock): ApiClient {
  const pacer = new RatePacer(clock);
  return api.derive({ onRateLimited: (waitMs) => pacer.onRateLimited(waitMs), throttle: (signal) => pacer.acquire(signal) });
}
