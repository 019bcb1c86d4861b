// Ids for completion, from the API: the first pages of a list (cached a minute), narrowed by what was typed.
// Loaded only when a live value is asked for, so the rest of completion never pays for the HTTP stack.
import type { Deps } from '../factory.js';
import type { ApiClient } from '../api/client.js';
import { lookupPaging, type Pager } from '../api/paginate.js';
import { MAX_LIMIT } from '../shared/page-limits.js';
import type { Candidate } from './candidates.js';
import { CompletionCache, type CachedListing } from './cache.js';
import type { LookedUpValue } from './values.js';
import { recordLabel } from '../output/record-fields.js';
// the member rules alone (records/members.ts), not every resource's: completion loads no more than it reads
import { hardwareIdOf, recordId } from '../records/members.js';
import { RECORD_VIEWS, type ResourceView } from '../records/views.js';

export type ApiValue = Exclude<LookedUpValue, 'profile' | 'selection' | 'alias' | 'alias-or-extension' | 'where'>;
export type LookupDeps = Pick<Deps, 'api' | 'settings' | 'configDir' | 'clock'>;

/** Enough for most tenants in a few requests; beyond it, a hardware id is checked with the API's own filter. */
export const MAX_LISTED = 4 * MAX_LIMIT;

interface Listing {
  pages(api: ApiClient, signal: AbortSignal): Pager<unknown>;
  toCandidate(item: unknown): Candidate | undefined;
}

const FIRST_PAGES = { limit: MAX_LIMIT, all: true, maxItems: MAX_LISTED };

// The description says what the record is, as its picker line does: the view's picker fields (records/views.ts)
// the record carries, identifiers aside, else its own fields by the tables' rule (output/record-fields.ts).
const candidate = (value: unknown, record: unknown, view: ResourceView): Candidate | undefined =>
  typeof value === 'string' ? { value, description: recordLabel(record, view.picker ?? view.person) } : undefined;

const LISTINGS: Record<ApiValue, Listing> = {
  'hardware-id': { pages: (api, signal) => api.list('listDevices', { signal }, FIRST_PAGES), toCandidate: (d) => candidate(hardwareIdOf(d), d, RECORD_VIEWS.device) },
  'fleet-id': { pages: (api, signal) => api.list('listFleets', { signal }, FIRST_PAGES), toCandidate: (f) => candidate(recordId(f, 'fleet'), f, RECORD_VIEWS.fleet) },
  'organization-id': {
    pages: (api, signal) => api.list('listOrganizations', { signal }, FIRST_PAGES),
    toCandidate: (o) => candidate(recordId(o, 'organization'), o, RECORD_VIEWS.organization),
  },
};

/**
 * The values of a kind that start with the prefix. Every request follows `signal` (the completion's budget): when
 * it runs out, what was read so far is the answer, and it is not cached.
 */
export async function lookUp(deps: LookupDeps, kind: ApiValue, prefix: string, signal: AbortSignal): Promise<Candidate[]> {
  const settings = await deps.settings();
  const key = [settings.base_url.value, settings.client_id.value, settings.organization_id.value, kind];
  const cache = CompletionCache.in(deps.configDir(), deps.clock);
  // A cached answer needs no token and no HTTP stack: the client is built only when a request is due.
  let listing = await cache.get(key);
  let cutShort = false;
  if (!listing) {
    const read = await firstPages(await deps.api(), LISTINGS[kind], signal);
    if (read.finished) await cache.put(key, { candidates: read.candidates, complete: read.complete }).catch(() => undefined);
    listing = read;
    cutShort = !read.finished;
  }
  const matches = listing.candidates.filter((c) => c.value.startsWith(prefix));
  // a listing cut short (refused, failed, out of time) is not followed by a lookup that would fare the same
  if (matches.length > 0 || listing.complete || cutShort || kind !== 'hardware-id' || prefix === '') return matches;
  return exactHardwareId(await deps.api(), prefix, signal);
}

async function firstPages(api: ApiClient, listing: Listing, signal: AbortSignal): Promise<CachedListing & { finished: boolean }> {
  const candidates: Candidate[] = [];
  const pager = listing.pages(api, signal);
  try {
    for await (const item of pager) {
      const found = listing.toCandidate(item);
      if (found) candidates.push(found);
    }
  } catch {
    // Out of time or refused: the pages read so far still help.
    return { candidates, complete: false, finished: false };
  }
  return { candidates, complete: !pager.hasMore, finished: true };
}

/** Beyond the first pages: the API's hardware_id filter is exact, so it confirms one typed in full. */
async function exactHardwareId(api: ApiClient, prefix: string, signal: AbortSignal): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for await (const device of api.list('listDevices', { query: { hardware_id: prefix }, signal }, lookupPaging(1))) {
    const candidate = LISTINGS['hardware-id'].toCandidate(device);
    if (candidate !== undefined && candidate.value.startsWith(prefix)) found.push(candidate);
  }
  return found;
}
