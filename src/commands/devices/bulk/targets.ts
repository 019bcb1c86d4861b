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

/** Every target, in order of first appearance, without duplicates. */
export async function resolveTargets(
  deps: { api: () => Promise<ApiClient>; stdin: NodeJS.ReadableStream; signal?: AbortSignal },
  source: TargetSource,
): Promise<string[]> {
  const all = [...source.ids];
  if (source.fromFile !== undefined) all.push(...parseIdList(await readFileOrStdin(source.fromFile, deps.stdin, '--from-file')));
  if (hasSelection(source)) {
    const api = await deps.api();
    const query = { organization_id: source.organizationId, fleet_id: source.fleetId };
    const pager = api.list<{ hardware_id: string }>('listDevices', { query, signal: deps.signal }, { limit: 500, all: true });
    for await (const device of pager) all.push(device.hardware_id);
  }
  return [...new Set(all)];
}
