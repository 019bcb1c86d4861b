// The devices `status` counts, and with --list the devices of one class it counts, ready for a bulk verb's
// --from-file -: --where narrows both, and a class is the selection language's own (stale, never-reported), so
// what is listed is exactly what is counted.
import type { ReportTimeField } from '../../records/report-time.js';
import { listFilters, readWhere, sayUndecided, selectorFor } from '../shared/where.js';
import type { Deps } from '../../factory.js';
import type { WhereDeps } from '../shared/where.js';
import { renderPages } from '../shared/paging.js';
import { formatDuration } from '../../shared/duration.js';
import { records } from '../../records/resources.js';
import { formatInstant } from '../../shared/rfc3339.js';
import { MAX_LIMIT } from '../../shared/page-limits.js';
import type { DeviceSelector } from '../../selection/devices.js';

/** The classes `status` counts that --list prints, and the condition each is. */
export const DEVICE_CLASSES = { stale: 'stale', never: 'never-reported', reporting: '-stale -never-reported' } as const;
export type DeviceClass = keyof typeof DEVICE_CLASSES;

type SelectedDeps = WhereDeps & Pick<Deps, 'output' | 'configDir'>;

/** What of `status`'s options says which devices it reads. */
export interface DeviceScope {
  fleetId?: string;
  organizationId?: string;
  staleAfterMs: number;
  where?: string;
}

export interface SelectedDevices {
  query: Record<string, string>;
  select?: (page: readonly unknown[]) => Promise<unknown[]>;
  /** The --where expression, as given. */
  expression?: string;
  /** Says, once the list is read, how many devices the selection could not decide on. */
  said(): void;
}

export async function selectedDevices(deps: SelectedDeps, opts: DeviceScope, reportTime: ReportTimeField | undefined): Promise<SelectedDevices> {
  const flags = { fleet_id: opts.fleetId, organization_id: opts.organizationId };
  if (opts.where === undefined) return { query: Object.fromEntries(Object.entries(flags).filter((e): e is [string, string] => e[1] !== undefined)), said: () => {} };
  const selection = await readWhere(deps, opts.where);
  const selector = await selectorFor(deps, selection, { staleAfterMs: opts.staleAfterMs, ...(reportTime ? { reportTime } : {}) });
  return { query: listFilters(flags, selector), select: (page) => selector.keep(page), expression: opts.where, said: () => sayUndecided(deps, selection, selector) };
}

/**
 * `status --list CLASS`: each device of the class with its last report and how long ago that was, streamed page
 * by page (JSON, NDJSON, a table): `hardware_id` leads, so `--from-file -` of a bulk verb takes the output as is.
 */
export async function listDevicesOfClass(deps: SelectedDeps, opts: DeviceScope & { list: DeviceClass }, reportTime: ReportTimeField | undefined): Promise<void> {
  const condition = DEVICE_CLASSES[opts.list];
  const where = opts.where === undefined ? condition : `${opts.where} ${condition}`;
  const selection = await readWhere(deps, where);
  const selector = await selectorFor(deps, selection, { staleAfterMs: opts.staleAfterMs, ...(reportTime ? { reportTime } : {}) });
  const query = listFilters({ fleet_id: opts.fleetId, organization_id: opts.organizationId }, selector);
  const nowMs = deps.clock.now().getTime();
  const api = await deps.api();
  const pager = api.list('listDevices', { query, signal: deps.signal }, { limit: MAX_LIMIT, all: true, select: async (page) => (await selector.keep(page)).map((device) => rowOf(device, selector, nowMs)) });
  await renderPages({ output: deps.output(), io: deps.io, configDir: deps.configDir }, pager, ['hardware_id', 'last_report', 'age'], { limit: MAX_LIMIT, all: true });
  sayUndecided(deps, selection, selector);
}

function rowOf(device: unknown, selector: DeviceSelector, nowMs: number) {
  const report = selector.reportOf(device);
  const ageMs = report ? nowMs - report.ms : undefined;
  return {
    hardware_id: records.device.hardwareIdOf(device) ?? null,
    id: records.device.idOf(device) ?? null,
    last_report: report ? formatInstant(report) : null,
    age_seconds: ageMs === undefined ? null : Math.round(ageMs / 1000),
    // a report in the future (a device clock ahead) is 0s old, not negative
    age: ageMs === undefined ? 'never' : formatDuration(Math.max(0, ageMs)),
  };
}
