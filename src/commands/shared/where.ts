// `--where EXPR`: the selection language on the command line. The expression is read and checked before any
// request that acts (a mistake is exit 2 with what it may have meant), its names resolved against the service, and
// the selector handed to the list the command reads; devices it could not decide on are said, never dropped quietly.
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { readReportBefore } from '../../bulk/return-watcher.js';
import { PacedReads } from '../../bulk/paced-reads.js';
import { DEFAULT_STALE_AFTER_MS, waitReportTimeField, type ReportTimeField } from '../../records/report-time.js';
import { parseSelection, printSelection, type Selection } from '../../selection/grammar.js';
import { checkSelection } from '../../selection/check.js';
import { lookUpSaved } from '../../selection/saved.js';
import { deviceSelector, type DeviceSelector } from '../../selection/devices.js';
import type { TargetSelection } from '../../bulk/targets.js';
import { savedSelections, selectedProfile } from '../../config/settings.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { sampleOf } from '../../bulk/capability.js';

export type WhereDeps = Pick<Deps, 'api' | 'clock' | 'servedDocument' | 'signal' | 'io' | 'config' | 'globals' | 'env'>;

/** The expression read, its saved selections looked up, and checked against the members the service declares. */
export async function readWhere(deps: WhereDeps, expression: string, source = '--where', saving?: string): Promise<Selection> {
  const data = (await deps.config()).read();
  const profile = selectedProfile(deps.globals(), deps.env, data).value;
  // an expression about to be saved under a name is looked up as if saved, so that one using itself is refused
  const saved = saving === undefined ? savedSelections(data, profile) : { ...savedSelections(data, profile), [saving]: expression };
  const selection = lookUpSaved(parseSelection(saving === undefined ? expression : `@${saving}`, source), saved, source);
  const served = await deps.servedDocument({ quiet: true });
  // only the service's own document may refuse a member: the bundled one describes the sandbox, not this service
  const declared = served.source === 'bundled' ? undefined : await (await import('../../records/declared-fields.js')).declaredFieldsIn(async () => served)('listDevices');
  checkSelection(selection, declared === undefined ? undefined : [...declared], source);
  return selection;
}

export interface WhereOptions {
  /** What `stale` means: --stale-after where the command takes it, else as `fleetctl status` counts by default. */
  staleAfterMs?: number;
  reportTime?: ReportTimeField;
}

export async function selectorFor(deps: WhereDeps, selection: Selection, opts: WhereOptions): Promise<DeviceSelector> {
  const api = await deps.api();
  let lastReportedField: string | undefined;
  // made once a device's last-reported state is needed (the expression asks a report time its record lacks)
  let reads: PacedReads | undefined;
  const paced = () => (reads ??= new PacedReads(api, deps.clock));
  return deviceSelector(
    {
      list: api.list.bind(api),
      lastReport: async (hardwareId) => {
        lastReportedField ??= waitReportTimeField(await deps.servedDocument({ quiet: true }), undefined);
        return paced().read((client) => readReportBefore(client, lastReportedField!, hardwareId, deps.signal));
      },
      readsAtOnce: () => paced().limit,
    },
    selection,
    { nowMs: deps.clock.now().getTime(), staleAfterMs: opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS, signal: deps.signal, ...(opts.reportTime ? { reportTime: opts.reportTime } : {}) },
  );
}

/** One line for the devices the selection could not decide on (their report time or capabilities unreadable). */
export function sayUndecided(deps: Pick<Deps, 'io'>, selection: Selection, selector: DeviceSelector): void {
  const { count, examples } = selector.undecided;
  if (count === 0) return;
  const named = examples.length > 0 ? ` (${examples.join(', ')}${count > examples.length ? ', ...' : ''})` : '';
  const why = selector.reportTime?.note ? `; ${selector.reportTime.note}` : '';
  deps.io.warn(`${count} device${count === 1 ? '' : 's'}${named} left out: "${printSelection(selection)}" could not be decided for ${count === 1 ? 'it' : 'them'} (a report time or capabilities fleetctl cannot read${why})`);
}

/**
 * The API filters of a list: those its flags give, and the selection's own (a lone fleet:X) where the flags leave
 * the place free. A flag and the selection naming different fleets (organizations) select nothing: exit 2.
 */
export function listFilters(flags: { fleet_id?: string; organization_id?: string; hardware_id?: string }, selector: DeviceSelector): Record<string, string> {
  for (const [member, flag] of [['fleet_id', '--fleet-id'], ['organization_id', '--organization-id']] as const) {
    const fromWhere = selector.query[member];
    if (fromWhere !== undefined && flags[member] !== undefined && fromWhere !== flags[member]) {
      throw new UsageError(`${flag} ${flags[member]} and --where name different ${member === 'fleet_id' ? 'fleets' : 'organizations'} (${fromWhere}): no device is in both`, 'give one of them');
    }
  }
  const given = Object.entries(flags).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { ...selector.query, ...Object.fromEntries(given) };
}

/**
 * A bulk verb's --where (and @NAME targets) made ready for the engine (bulk/targets.ts): read and checked, its names
 * resolved, its filters merged with --fleet-id/--organization-id. `said` tells, once the list is read, how many
 * devices it could not decide on (they are not targets).
 */
export async function targetSelection(deps: WhereDeps, expression: string, flags: { fleetId?: string; organizationId?: string }): Promise<{ target: TargetSelection; said(): void }> {
  const selection = await readWhere(deps, expression);
  const selector = await selectorFor(deps, selection, {});
  const query = listFilters({ fleet_id: flags.fleetId, organization_id: flags.organizationId }, selector);
  return { target: { expression, query, keep: (page) => selector.keep(page) }, said: () => sayUndecided(deps, selection, selector) };
}

/** What a bulk verb's selection resolved to: how many devices it matched and the first of those it goes to. */
export function saySelected(deps: Pick<Deps, 'io'>, expression: string, matched: number, targets: readonly string[]): void {
  const first = targets.length > 0 ? ` (${sampleOf([...targets], 3)})` : '';
  deps.io.info(`--where ${quoteInput(expression)} selected ${matched} device${matched === 1 ? '' : 's'}${first}.`);
}
