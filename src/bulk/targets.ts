// Which devices a bulk command goes to: hardware ids as arguments, from a file (or stdin), or a selection
// resolved through the devices list.
import type { ApiClient } from '../api/client.js';
import { InvalidResponseError, UsageError } from '../errors.js';
import { readFileOrStdin } from '../io/read-input.js';
import { quoteInput } from '../shared/terminal-text.js';
import { requireHardwareId } from '../shared/hardware-id.js';
import { MAX_LIMIT } from '../shared/page-limits.js';
import { devicesFromRun, type FromRun } from './from-run.js';
import { records } from '../records/resources.js';

export interface TargetSource {
  ids: string[];
  /** --from-file F; `-` is stdin. */
  fromFile?: string;
  fleetId?: string;
  organizationId?: string;
  /** Capabilities already read from the devices' records (a list the operator picked from). */
  known?: ReadonlyMap<string, readonly string[]>;
  /** --from-run RUN_ID --only OUTCOMES: the devices of an earlier run, by how they ended there. */
  fromRun?: FromRun;
  /** --where EXPR (or @NAME as a target): the devices a selection keeps of the devices list, read through it. */
  where?: TargetSelection;
}

/** A selection made ready by the command layer (commands/shared/where.ts): its list filters and what it keeps of a page. */
export interface TargetSelection {
  /** As given, for messages and the journal. */
  expression: string;
  /** The list's API filters: --fleet-id/--organization-id and the selection's own. */
  query: Record<string, string>;
  keep(page: readonly unknown[]): Promise<unknown[]>;
}

export function hasSelection(source: TargetSource): boolean {
  return source.fleetId !== undefined || source.organizationId !== undefined || source.where !== undefined;
}

export function isEmptySource(source: TargetSource): boolean {
  return source.ids.length === 0 && source.fromFile === undefined && source.fromRun === undefined && !hasSelection(source);
}

/**
 * One hardware id a line; blank lines and # comments (whole-line or trailing) are ignored. A line that is a JSON
 * object (NDJSON from `devices list -o ndjson`, `status --list`), or a whole text that is a JSON array (`-o json`),
 * gives the hardware id its record carries. Each id is checked before anything is sent, and a bad one is named
 * with its line number.
 */
export function parseIdList(text: string, source = '--from-file'): string[] {
  const listed = jsonArray(text);
  if (listed !== undefined) return listed.map((item, index) => idOfItem(item, `item ${index + 1} of ${source}`));
  const ids: string[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!.replace(/\r$/, '').trim();
    const record = raw.startsWith('{') ? jsonValue(raw) : undefined;
    if (record !== undefined) {
      ids.push(idOfItem(record, `line ${index + 1} of ${source}`));
      continue;
    }
    // trim() keeps NUL and escapes: a line holding one is refused, with its number, not skipped as blank
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line.length > 0) ids.push(requireHardwareId(line, 'hardware id', `line ${index + 1} of ${source}`));
  }
  return ids;
}

/** A hardware id as a string, or the one a record carries (records/: hardware_id, hardwareId, hw ...). */
function idOfItem(item: unknown, where: string): string {
  const id = typeof item === 'string' ? item : records.device.hardwareIdOf(item);
  if (id === undefined) throw new UsageError(`${where} is a record with no hardware id`, 'give one hardware id a line, or records that carry hardware_id');
  return requireHardwareId(id, 'hardware id', where);
}

function jsonArray(text: string): unknown[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  const value = jsonValue(text);
  return Array.isArray(value) ? value : undefined;
}

function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface ResolvedTargets {
  /** Every target, in order of first appearance, without duplicates. */
  ids: string[];
  /** The capabilities of the devices whose record was fetched (a selection) and lists them in a form fleetctl reads; unknown for the others. */
  capabilities: Map<string, readonly string[]>;
  /** How many devices --fleet-id / --organization-id matched (0 when there is no selection). */
  selected: number;
  /** Devices of the selection whose record does not list capabilities in a form fleetctl reads. */
  unstated: Set<string>;
}

/** The selection as typed, to name it in a message: `--fleet-id X and --organization-id Y`. */
export function selectionText(source: TargetSource): string {
  const parts: string[] = [];
  if (source.fleetId !== undefined) parts.push(`--fleet-id ${source.fleetId}`);
  if (source.organizationId !== undefined) parts.push(`--organization-id ${source.organizationId}`);
  if (source.where !== undefined) parts.push(`--where ${quoteInput(source.where.expression)}`);
  return parts.join(' and ');
}

export async function resolveTargets(
  deps: { api: () => Promise<ApiClient>; stdin: NodeJS.ReadableStream; signal?: AbortSignal; configDir?: () => string },
  source: TargetSource,
): Promise<ResolvedTargets> {
  const all = [...source.ids];
  const capabilities = new Map<string, readonly string[]>(source.known ?? []);
  let selected = 0;
  const unstated = new Set<string>();
  if (source.fromFile !== undefined) {
    const name = source.fromFile === '-' ? '--from-file (stdin)' : `--from-file ${quoteInput(source.fromFile)}`;
    // a loop, not push(...ids): a list of a million ids would overflow the call stack as arguments
    for (const id of parseIdList(await readFileOrStdin(source.fromFile, deps.stdin, '--from-file', { signal: deps.signal }), name)) all.push(id);
  }
  if (source.fromRun !== undefined) {
    if (!deps.configDir) throw new Error('--from-run needs the config folder');
    for (const id of await devicesFromRun(deps.configDir(), source.fromRun)) all.push(id);
  }
  if (hasSelection(source)) {
    const api = await deps.api();
    const query = source.where?.query ?? { organization_id: source.organizationId, fleet_id: source.fleetId };
    const select = source.where ? { select: (page: readonly unknown[]) => source.where!.keep(page) } : {};
    const pager = api.list('listDevices', { query, signal: deps.signal }, { limit: MAX_LIMIT, all: true, ...select });
    for await (const device of pager) {
      selected++;
      const hardwareId = records.device.hardwareIdOf(device);
      // a device that cannot be named is not left out quietly: the run stops before anything is sent
      if (hardwareId === undefined) throw new InvalidResponseError(`a device of ${selectionText(source)} carries no hardware id in its record`, 'name the devices by hardware id, or with --from-file');
      all.push(hardwareId);
      const listed = records.device.capabilitiesOf(device);
      if (listed !== undefined) capabilities.set(hardwareId, listed);
      else unstated.add(hardwareId);
    }
  }
  return { ids: [...new Set(all)], capabilities, selected, unstated };
}
