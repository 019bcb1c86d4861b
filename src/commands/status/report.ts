// The fleet health report: every section gathered, in the stable shape `-o json` prints (README "Fleet health").
// The devices list is the report: without it the command fails. Any other section the credentials may not read
// (a missing scope: 403, or the issuer refusing the scope) is reported as unavailable, with why, and the rest stands.
import type { Deps } from '../../factory.js';
import { startProgress } from '../../io/progress.js';
import { parseScopeList, shortScope } from '../../auth/scopes.js';
import { scopeFor } from '../../openapi/operations.js';
import { reportTimeFromDocument, type ReportTimeField } from '../../records/report-time.js';
import { tallyDevices, type DeviceObserver } from './device-tally.js';
import { selectedDevices, type DeviceClass } from './selected-devices.js';
import { recentRuns, type RecentRun, type RunsElsewhere } from './recent-runs.js';
import { currentService } from '../../bulk/service.js';
import { judge, round, type Threshold, type ThresholdVerdict } from './thresholds.js';
import { readWebhooks, WEBHOOK_SCOPE, webhookScopeState, webhookSectionOf, type ScopeState, type WebhookSection } from './webhook-section.js';
import type { WatchOptions } from './watch-flags.js';

export type StatusDeps = Pick<Deps, 'api' | 'io' | 'output' | 'clock' | 'configDir' | 'settings' | 'servedDocument' | 'signal' | 'globals' | 'config' | 'env'>;

export interface StatusOptions {
  fleetId?: string;
  organizationId?: string;
  staleAfterMs: number;
  /** How far back the journals count as recent. */
  sinceMs: number;
  reportTimeField?: string;
  /** Only the devices a selection selects (--where): counted, and listed with --list. */
  where?: string;
  /** Lists the devices of one class instead of the report (--list). */
  list?: DeviceClass;
  thresholds: Threshold[];
  /** --watch: the report again on a schedule, one line per change (watch.ts). */
  watch?: WatchOptions;
}

export interface Coverage {
  capability: string;
  devices: number;
  percent: number;
}

export interface StatusReport {
  version: 1;
  generated_at: string;
  selection: { fleet_id: string | null; organization_id: string | null; where: string | null };
  stale_after_seconds: number;
  devices: {
    total: number;
    reporting: number | null;
    stale: number | null;
    never_reported: number | null;
    unknown: number;
    report_time_field: string | null;
    report_time_source: string | null;
    note: string | null;
  };
  capabilities: { stated_by: number; coverage: Coverage[] | null; note: string | null };
  /** runs: those sent to the profile's service and client; elsewhere: the others, by service (null: not recorded). */
  commands: { since: string; runs: RecentRun[]; elsewhere: RunsElsewhere[]; note: string | null };
  webhooks: WebhookSection;
  scopes: { configured: string[] | null; sections: { section: string; scope: string; state: ScopeState }[] };
  thresholds: ThresholdVerdict[];
}

/** `observe`: told each device counted, with its freshness (`status --watch`). */
export async function buildReport(deps: StatusDeps, opts: StatusOptions, observe?: DeviceObserver): Promise<StatusReport> {
  const now = deps.clock.now().getTime();
  const api = await deps.api();
  const reportTime = opts.reportTimeField !== undefined ? { field: opts.reportTimeField, source: 'flag' as const } : await fromDocument(deps);
  const selected = await selectedDevices(deps, opts, reportTime);
  const progress = await startProgress(deps.io, { label: 'devices', leave: 'nothing' });
  let tally;
  try {
    tally = await tallyDevices(api, { query: selected.query, select: selected.select, staleAfterMs: opts.staleAfterMs, now, reportTime, signal: deps.signal, progress, ...(observe ? { observe } : {}) });
  } finally {
    progress.finish();
  }
  selected.said();
  const known = tally.reportTime.field !== undefined;
  const devices = {
    total: tally.total,
    reporting: known ? tally.reporting : null,
    stale: known ? tally.stale : null,
    never_reported: known ? tally.never_reported : null,
    unknown: tally.unknown,
    report_time_field: tally.reportTime.field ?? null,
    report_time_source: tally.reportTime.source ?? null,
    note: known ? null : `report time unknown: ${tally.reportTime.note ?? 'not found'}; pass --report-time-field NAME`,
  };
  const { stated } = tally.capabilities;
  const coverage = stated === 0 ? null : [...tally.capabilities.counts].sort(([a], [b]) => a.localeCompare(b)).map(([capability, n]) => ({ capability, devices: n, percent: round((n / stated) * 100) }));
  const commands = await recentRuns(deps.configDir(), now - opts.sinceMs, await currentService(deps));
  const webhookOutcome = await readWebhooks(deps, { organizationId: opts.organizationId, fleetId: opts.fleetId });
  const webhooks = webhookSectionOf(webhookOutcome);
  const counts = { total: devices.total, unknown: devices.unknown, ...definedCounts(devices) };
  return {
    version: 1,
    generated_at: new Date(now).toISOString(),
    selection: { fleet_id: opts.fleetId ?? null, organization_id: opts.organizationId ?? null, where: selected.expression ?? null },
    stale_after_seconds: opts.staleAfterMs / 1000,
    devices,
    capabilities: {
      stated_by: stated,
      coverage,
      note: stated === 0 ? (tally.total === 0 ? 'not stated: no devices' : 'not stated: the device records carry no capabilities') : stated < tally.total ? `stated by ${stated} of ${tally.total} device records` : null,
    },
    commands: { since: commands.since, runs: commands.runs, elsewhere: commands.elsewhere, note: commands.note ?? null },
    webhooks,
    scopes: {
      configured: parseScopeList((await deps.settings()).scopes.value)?.map(shortScope) ?? null,
      sections: [
        { section: 'devices', scope: shortScope(scopeFor('listDevices')), state: 'granted' },
        { section: 'webhooks', scope: WEBHOOK_SCOPE, state: webhookScopeState(webhookOutcome) },
      ],
    },
    thresholds: opts.thresholds.map((t) => judge(t, counts)),
  };
}

function definedCounts(devices: StatusReport['devices']) {
  const { reporting, stale, never_reported } = devices;
  return reporting === null || stale === null || never_reported === null ? {} : { reporting, stale, never_reported };
}

/** The report time from the service's own document; the bundled one describes the sandbox, not this service. */
export async function fromDocument(deps: StatusDeps): Promise<ReportTimeField | undefined> {
  const served = await deps.servedDocument();
  if (served.source === 'bundled') return undefined;
  const found = reportTimeFromDocument(served.document);
  return found?.field === undefined ? undefined : found;
}
