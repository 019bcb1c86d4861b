// A selection applied to the device list of a service: names resolved, API filters used where the expression
// allows, the rest decided page by page as the records stream (one page of memory, whatever the fleet's size).
import type { ApiClient } from '../api/client.js';
import { UsageError } from '../errors.js';
import { records } from '../records/resources.js';
import { recordNames } from '../records/members.js';
import { reportInstantOf, reportTimeFromRecords, type ReportTimeField } from '../records/report-time.js';
import { didYouMeanSuffix } from '../shared/did-you-mean.js';
import { quoteInput } from '../shared/terminal-text.js';
import { MAX_LIMIT } from '../shared/page-limits.js';
import type { Instant } from '../shared/rfc3339.js';
import { eachWithin } from '../bulk/paced-reads.js';
import { evaluateSelection, type DeviceFacts } from './evaluate.js';
import type { Selection, Term } from './grammar.js';

/** What a selection asks of the service: the lists it reads and, when device records carry no report time, each device's last report. */
export interface SelectionService {
  list: ApiClient['list'];
  /** A device's last report read from its last-reported state: null never reported, undefined unreadable. */
  lastReport(hardwareId: string): Promise<Instant | null | undefined>;
  /** How many lastReport reads may be in flight now (their pace is the service's business: bulk/paced-reads.ts). */
  readsAtOnce(): number;
}

export interface SelectorOptions {
  nowMs: number;
  staleAfterMs: number;
  /** The device record's report-time member when a flag or the service's document names it; else read from the first page. */
  reportTime?: ReportTimeField;
  signal: AbortSignal;
}

/** Why devices were left out though they might match: counted, so the caller says so instead of dropping them in silence. */
export interface Undecided {
  count: number;
  /** The first few hardware ids (or identifiers) left out. */
  examples: string[];
}

export interface DeviceSelector {
  /** API filters every selected device satisfies: sent with the list request, so fewer pages come back. */
  query: { fleet_id?: string; organization_id?: string };
  /** The devices of a page that the selection selects, in order. */
  keep(page: readonly unknown[]): Promise<unknown[]>;
  readonly undecided: Undecided;
  /** The report-time member used, once known (undefined until a page needed it, or when last-reported was read). */
  readonly reportTime: ReportTimeField | undefined;
  /** The last report the selection read for a device of the page last kept: null never, undefined unknown. */
  reportOf(device: unknown): Instant | null | undefined;
}

type Scope = 'fleet' | 'org';
const LISTS = { fleet: { operation: 'listFleets', filter: 'fleet_id', noun: 'fleet' }, org: { operation: 'listOrganizations', filter: 'organization_id', noun: 'organization' } } as const;

export async function deviceSelector(service: SelectionService, selection: Selection, opts: SelectorOptions): Promise<DeviceSelector> {
  const ids = { fleet: await resolveNames(service, 'fleet', namesIn(selection, 'fleet'), opts.signal), org: await resolveNames(service, 'org', namesIn(selection, 'org'), opts.signal) };
  const query: DeviceSelector['query'] = {};
  const filtered = new Set<string>();
  // a lone, positive fleet:X (or org:X) at the top holds for every selected device: the service filters by it
  for (const scope of ['fleet', 'org'] as const) {
    const lone = selection.terms.find((term): term is Extract<Term, { kind: 'qualifier' }> => term.kind === 'qualifier' && !term.negated && term.name === scope && term.values.length === 1);
    const operand = lone?.values[0]?.op === 'eq' ? lone.values[0].operand : undefined;
    if (operand === undefined) continue;
    query[LISTS[scope].filter] = ids[scope].get(operand)!;
    filtered.add(`${scope}:${operand}`);
  }
  const members = new Map<string, Set<string>>();
  for (const scope of ['fleet', 'org'] as const) {
    for (const [operand, id] of ids[scope]) {
      if (filtered.has(`${scope}:${operand}`)) continue;
      members.set(`${scope}:${operand}`, await hardwareIdsWith(service, { [LISTS[scope].filter]: id }, opts.signal));
    }
  }
  const member = (scope: Scope, device: unknown, operand: string) => {
    if (filtered.has(`${scope}:${operand}`)) return true;
    const hardwareId = records.device.hardwareIdOf(device);
    return hardwareId === undefined ? undefined : members.get(`${scope}:${operand}`)!.has(hardwareId);
  };
  const needsReports = usesReportTime(selection);
  let reportTime = opts.reportTime;
  const undecided: Undecided = { count: 0, examples: [] };
  let reports = new Map<unknown, Instant | null | undefined>();
  const reportOf = (device: unknown) => (reportTime?.field !== undefined ? reportInstantOf(device, reportTime.field) : reports.get(device));
  return {
    reportOf,
    query,
    undecided,
    get reportTime() {
      return reportTime;
    },
    async keep(page) {
      if (needsReports && reportTime === undefined && page.length > 0) reportTime = reportTimeFromRecords(page);
      reports = new Map();
      if (needsReports && reportTime?.field === undefined) {
        // the device records carry no report time: each device's last-reported state says it, as many at once as
        // the service lets through
        await eachWithin(page, () => service.readsAtOnce(), async (device) => {
          const hardwareId = records.device.hardwareIdOf(device);
          reports.set(device, hardwareId === undefined ? undefined : await service.lastReport(hardwareId));
        });
      }
      const facts: DeviceFacts = {
        nowMs: opts.nowMs,
        staleAfterMs: opts.staleAfterMs,
        reportInstant: reportOf,
        hasCapability: (device, capability) => records.device.hasCapability(device, capability),
        inFleet: (device, fleet) => member('fleet', device, fleet),
        inOrganization: (device, org) => member('org', device, org),
      };
      return page.filter((device) => {
        const truth = evaluateSelection(selection, device, facts);
        if (truth === undefined) {
          undecided.count++;
          const named = records.device.hardwareIdOf(device) ?? records.device.idOf(device);
          if (named !== undefined && undecided.examples.length < 3) undecided.examples.push(named);
        }
        return truth === true;
      });
    },
  };
}

/** Every fleet: (or org:) value of the selection, saved selections included. */
function namesIn(selection: Selection, scope: Scope): string[] {
  const found = new Set<string>();
  const visit = (terms: readonly Term[]) => {
    for (const term of terms) {
      if (term.kind === 'group') visit(term.selection.terms);
      if (term.kind === 'qualifier' && term.name === scope) for (const value of term.values) if (value.op === 'eq') found.add(value.operand);
    }
  };
  visit(selection.terms);
  return [...found];
}

function usesReportTime(selection: Selection): boolean {
  return selection.terms.some((term) => (term.kind === 'group' ? usesReportTime(term.selection) : term.kind === 'keyword' || (term.kind === 'qualifier' && term.name === 'seen')));
}

/** Each name or id given to fleet: (org:) and the id it names: an id as given, a name of exactly one record. */
async function resolveNames(service: SelectionService, scope: Scope, given: string[], signal: AbortSignal): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  if (given.length === 0) return resolved;
  const { operation, noun } = LISTS[scope];
  const known: { id: string; names: string[] }[] = [];
  for await (const record of service.list(operation, { signal }, { limit: MAX_LIMIT, all: true })) {
    const id = records[noun].idOf(record);
    if (id !== undefined) known.push({ id, names: recordNames(record) });
  }
  for (const text of given) {
    const byId = known.find((record) => record.id === text);
    const byName = known.filter((record) => record.names.some((name) => name.toLowerCase() === text.toLowerCase()));
    if (byId) resolved.set(text, byId.id);
    else if (byName.length === 1) resolved.set(text, byName[0]!.id);
    else if (byName.length > 1) {
      throw new UsageError(`${scope}:${quoteInput(text)} names ${byName.length} ${noun}s (${byName.map((r) => r.id).join(', ')})`, `give the id instead: ${scope}:${byName[0]!.id}`);
    } else {
      const names = known.flatMap((record) => record.names);
      throw new UsageError(`${scope}: no ${noun} named ${quoteInput(text)}${didYouMeanSuffix(text, names)}`, `fleetctl ${noun === 'fleet' ? 'fleets' : 'organizations'} list shows their names and ids`);
    }
  }
  return resolved;
}

async function hardwareIdsWith(service: SelectionService, query: Record<string, string>, signal: AbortSignal): Promise<Set<string>> {
  const found = new Set<string>();
  for await (const device of service.list('listDevices', { query, signal }, { limit: MAX_LIMIT, all: true })) {
    const hardwareId = records.device.hardwareIdOf(device);
    if (hardwareId !== undefined) found.add(hardwareId);
  }
  return found;
}
