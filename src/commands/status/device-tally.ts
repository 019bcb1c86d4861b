// The devices of a status report, counted as the pages arrive: freshness and capability coverage, without holding
// the records (a fleet of millions costs one page of memory). Only the first page is held, and only when the
// report time must be read from the records themselves.
import type { ApiClient } from '../../api/client.js';
import type { Progress } from '../../io/progress.js';
import { isStale, reportTimeFromRecords, reportTimeOf, type ReportTimeField } from '../../records/report-time.js';
import { records } from '../../records/resources.js';
import { MAX_LIMIT } from '../../shared/page-limits.js';

/** The capabilities fleetctl sends commands for: shown even when no record has them. */
const COMMAND_CAPABILITIES = ['reboot', 'wake_up'];

/** Records held before the report time is chosen from them: one page at the largest page size. */
const SAMPLE_SIZE = MAX_LIMIT;

export interface DeviceTally {
  total: number;
  reporting: number;
  stale: number;
  never_reported: number;
  /** Records whose report time member holds no date-time; every record while the field is unknown. */
  unknown: number;
  /** How many records carry a capabilities list, and how many of those name each capability. */
  capabilities: { stated: number; counts: Map<string, number> };
  reportTime: ReportTimeField;
}

export interface TallyOptions {
  query: { fleet_id?: string; organization_id?: string };
  /** Only the devices a selection keeps (--where), decided page by page. */
  select?: (page: readonly unknown[]) => Promise<unknown[]>;
  staleAfterMs: number;
  now: number;
  /** Known before the first page (a flag, the service's document); otherwise read from the first page. */
  reportTime?: ReportTimeField;
  signal: AbortSignal;
  progress: Progress;
  /** Told each device and its freshness as it is counted (`status --watch` finds what changed between rounds). */
  observe?: DeviceObserver;
}

/** A device's freshness, as `status` counts it. */
export type Freshness = 'reporting' | 'stale' | 'never_reported' | 'unknown';

/** `atMs`: its report time in epoch milliseconds, when it has one. */
export type DeviceObserver = (device: unknown, freshness: Freshness, atMs: number | undefined) => void;

export async function tallyDevices(api: ApiClient, opts: TallyOptions): Promise<DeviceTally> {
  const tally: DeviceTally = {
    total: 0, reporting: 0, stale: 0, never_reported: 0, unknown: 0,
    capabilities: { stated: 0, counts: new Map(COMMAND_CAPABILITIES.map((c) => [c, 0])) },
    reportTime: opts.reportTime ?? {},
  };
  let sample: unknown[] | undefined = opts.reportTime?.field === undefined ? [] : undefined;
  const pager = api.list('listDevices', { query: opts.query, signal: opts.signal }, { limit: MAX_LIMIT, all: true, ...(opts.select ? { select: opts.select } : {}) });
  for await (const device of pager) {
    if (sample === undefined) {
      count(tally, device, opts);
      continue;
    }
    sample.push(device);
    if (sample.length < SAMPLE_SIZE) continue;
    tally.reportTime = reportTimeFromRecords(sample);
    for (const held of sample) count(tally, held, opts);
    sample = undefined;
  }
  if (sample !== undefined) {
    tally.reportTime = reportTimeFromRecords(sample);
    for (const held of sample) count(tally, held, opts);
  }
  return tally;
}

function count(tally: DeviceTally, device: unknown, opts: TallyOptions): void {
  tally.total++;
  const field = tally.reportTime.field;
  const at = field === undefined ? undefined : reportTimeOf(device, field);
  const freshness: Freshness = at === null ? 'never_reported' : at === undefined ? 'unknown' : isStale(at, opts.now, opts.staleAfterMs) ? 'stale' : 'reporting';
  tally[freshness]++;
  opts.observe?.(device, freshness, at ?? undefined);
  const listed = records.device.capabilitiesOf(device);
  if (listed !== undefined) {
    tally.capabilities.stated++;
    for (const capability of new Set(listed)) {
      tally.capabilities.counts.set(capability, (tally.capabilities.counts.get(capability) ?? 0) + 1);
    }
  }
  opts.progress.update(tally.total);
}
