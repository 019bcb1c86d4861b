// `fleetctl status`: the fleet's health in one report, for a person every morning and for cron and alerting
// (-o json, --fail-if). Sections and their JSON shape: report.ts; the terminal summary: summary.ts.
import { Command, Option } from 'commander';
import { UsageError } from '../../errors.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { collect, optionalUuid, requireNonEmpty } from '../shared/validate.js';
import { DEFAULT_STALE_AFTER_MS } from '../../records/report-time.js';
import { parseDuration } from '../shared/dates.js';
import { buildReport, fromDocument, type StatusDeps, type StatusOptions } from './report.js';
import { DEVICE_CLASSES, listDevicesOfClass, type DeviceClass } from './selected-devices.js';
import { summaryLines } from './summary.js';
import { breachError, parseThreshold } from './thresholds.js';
import { watchFrom } from './watch-flags.js';
import { watchStatus } from './watch.js';
import { WatchCheckpoint } from './watch-checkpoint.js';

interface RawFlags {
  fleetId?: string;
  organizationId?: string;
  staleAfter?: string;
  since?: string;
  reportTimeField?: string;
  failIf?: string[];
  where?: string;
  list?: string;
  watch?: string;
  onBreach?: string;
  exitOnBreach?: boolean;
  checkpoint?: string;
}

const HOUR_MS = 3_600_000;

export function newStatusCommand(deps: StatusDeps, run = statusRun): Command {
  const command = new Command('status')
    .description('Fleet health: devices reporting, stale or never reported, capability coverage, recent commands, webhooks and scopes')
    .option('--fleet-id <uuid>', "only the devices of this fleet (and the webhook configuration of the organization its record names, else the profile's organization_id)")
    .option('--organization-id <uuid>', "only the devices of this organization (and its webhook configuration; default: the profile's organization_id)")
    .option('--stale-after <duration>', 'a device that has not reported for this long is stale (default 1h)')
    .option('--since <duration>', 'bulk runs of this machine this recent count as recent commands (default 24h)')
    .option('--report-time-field <name>', 'the device record member that holds its last report time (default: found from the service\'s document or records)')
    .option('--where <expression>', 'only the devices this condition selects, e.g. "fleet:North -has:wake_up" (fleetctl help select)')
    .addOption(new Option('--list <class>', 'list the devices of one class instead of the report, with their last report and its age').choices(Object.keys(DEVICE_CLASSES)))
    .option('--fail-if <threshold>', "exit 13 when a threshold is breached: 'stale>5%', 'never>0', 'reporting<95%', 'stale>=10' (repeatable)", collect)
    .option('--watch <interval>', 'report again every interval (at least 1s) and print one line per change, until Ctrl-C')
    .option('--on-breach <command>', 'with --watch and --fail-if: run this shell command (the report as JSON on its stdin) each time the report goes into breach')
    .option('--exit-on-breach', 'with --watch and --fail-if: exit 13 at the first breach (after --on-breach)')
    .option('--checkpoint <file>', 'with --watch: keep what the watch knows after each round; run again with it to go on from there');
  completeValues(command, { '--fleet-id': 'fleet-id', '--organization-id': 'organization-id', '--where': 'where', '--checkpoint': 'file' });
  describeVerb(command, {
    operationIds: ['listDevices', 'getWebhookConfig', 'getFleet'],
    output: 'document',
    notes: [
      'The devices list is required; a section the credentials cannot read (webhooks without webhooks_read) is shown',
      'as unavailable with why. Recent commands come from the journals of bulk runs in the config folder.',
      'Exit code: 0, or 13 when a --fail-if threshold is breached or cannot be judged (the report is printed first).',
      '--watch: one stdout line per change (a device stale or back, a threshold breached or cleared; -o ndjson: one',
      'JSON object each); --on-breach runs once each time the report goes into breach (30 s at most); Ctrl-C is exit 130.',
    ].join('\n'),
    examples: [
      { comment: 'the health of every device your credentials see', command: 'fleetctl status' },
      { comment: 'for monitoring: JSON, and exit 13 when a report time is unreadable or no device reported in a day', command: "fleetctl status -o json --stale-after 1d --fail-if 'unknown>0' --fail-if 'reporting<1'" },
      { comment: 'the stale devices, with their last report and its age, as NDJSON for a bulk verb', command: 'fleetctl --sandbox status --list stale -o ndjson' },
      { comment: 'watch every minute: a line per change, a command run on breach (the report on its stdin), exit 13 then', command: "fleetctl --sandbox status --watch 1m --fail-if 'never>0' --on-breach 'cat > breach.json' --exit-on-breach 2> watch.log || echo \"exit $?: $(tail -n 1 watch.log)\"" },
      { comment: 'one fleet, stale after two hours', command: 'fleetctl status --stale-after 2h --fleet-id $(fleetctl fleets list --limit 1 --columns id -o csv | tail -n 1)' },
    ],
  });
  command.action(async (flags: RawFlags) => run(deps, optionsFrom(flags)));
  return command;
}

export function optionsFrom(flags: RawFlags): StatusOptions {
  const fleetId = optionalUuid(flags.fleetId, '--fleet-id');
  const organizationId = optionalUuid(flags.organizationId, '--organization-id');
  if (fleetId !== undefined && organizationId !== undefined) throw new UsageError('give --fleet-id or --organization-id, not both');
  return {
    fleetId,
    organizationId,
    staleAfterMs: flags.staleAfter === undefined ? DEFAULT_STALE_AFTER_MS : parseDuration(flags.staleAfter, '--stale-after'),
    sinceMs: flags.since === undefined ? 24 * HOUR_MS : parseDuration(flags.since, '--since'),
    reportTimeField: flags.reportTimeField === undefined ? undefined : requireNonEmpty(flags.reportTimeField, '--report-time-field', 200),
    thresholds: (flags.failIf ?? []).map(parseThreshold),
    ...(flags.where === undefined ? {} : { where: flags.where }),
    ...(flags.list === undefined ? {} : { list: flags.list as DeviceClass }),
    ...watchFrom(flags),
  };
}

export async function statusRun(deps: StatusDeps, opts: StatusOptions): Promise<void> {
  if (opts.list !== undefined) {
    if (opts.thresholds.length > 0) throw new UsageError('--list prints devices, not the report: --fail-if judges the report; give one of them');
    const reportTime = opts.reportTimeField !== undefined ? { field: opts.reportTimeField, source: 'flag' as const } : await fromDocument(deps);
    return listDevicesOfClass(deps, { ...opts, list: opts.list }, reportTime);
  }
  if (opts.watch !== undefined) return watchStatus(deps, opts, opts.watch, opts.watch.checkpoint === undefined ? undefined : new WatchCheckpoint(opts.watch.checkpoint, opts));
  const report = await buildReport(deps, opts);
  const output = deps.output();
  // a person reads the summary; programs (and --jq) get the report
  if (output.isMachineReadable) await output.object(report);
  else output.text(summaryLines(report, deps.io.outTheme(), deps.io.columns ?? 80).join('\n'));
  for (const note of [report.devices.note, report.webhooks.state === 'unavailable' ? `webhooks: ${report.webhooks.note}` : null]) if (note && output.isMachineReadable) deps.io.warn(note);
  const breached = report.thresholds.filter((t) => t.breached);
  if (breached.length > 0) {
    throw breachError(breached);
  }
}
