// Which devices a bulk command goes to: hardware ids as arguments, from a file (or stdin), or a selection
// resolved through the devices list.
import type { ApiClient } from '../../../api/client.js';
import { readFileOrStdin } from '../../../io/read-input.js';

export interface TargetSource {
  ids: string[];
  /** --from-file F; `-` is stdin. */
  fromFile?: string;
  fleetId?: string;
  organizationId?: string;
}

export function hasSelection(source: TargetSource): boolean {
  return source.fleetId !== undefined || source.organizationId !== undefined;
}

export function isEmptySource(source: TargetSource): boolean {
  return source.ids.length === 0 && source.fromFile === undefined && !hasSelection(source);
}

/** One hardware id a line; blank lines and # comments (whole-line or trailing) are ignored. */
export function parseIdList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

export interface ResolvedTargets {
  /** Every target, in order of first appearance, without duplicates. */
  ids: string[];
  /** The capabilities of the devices whose record was fetched (a selection); unknown for the others. */
  capabilities: Map<string, readonly string[]>;
}

export async function resolveTargets(
  deps: { api: () => Promise<ApiClient>; stdin: NodeJS.ReadableStream; signal?: AbortSignal },
  source: TargetSource,
): Promise<ResolvedTargets> {
  const all = [...source.ids];
  const capabilities = new Map<string, readonly string[]>();
  if (source.fromFile !== undefined) all.push(...parseIdList(await readFileOrStdin(source.fromFile, deps.stdin, '--from-file')));
  if (hasSelection(source)) {
    const api = await deps.api();
    const query = { organization_id: source.organizationId, fleet_id: source.fleetId };
    const pager = api.list<{ hardware_id: string; capabilities?: unknown }>('listDevices', { query, signal: deps.signal }, { limit: 500, all: true });
    for await (const device of pager) {
      all.push(device.hardware_id);
      const listed = device.capabilities;
      if (Array.isArray(listed)) capabilities.set(device.hardware_id, listed.filter((c): c is string => typeof c === 'string'));
    }
  }
  return { ids: [...new Set(all)], capabilities };
}
