// The list operations over seeded collections (devices, drivers, fleets, vehicles): optional
// organization_id and fleet_id filters, the caller's tenant, seq order, opaque cursors.
import { optionalUuid } from '../common/params.js';
import { isSeq, readPage } from '../paging.js';
import { requireOrganizationFilterInTenant } from './lookup.js';
import type { ApiContext } from '../common/context.js';
import type { Reply } from '../common/reply.js';
import type { SandboxApp } from '../app.js';
import type { SeqTable, Sequenced } from '../store/collection.js';

type Owned = Sequenced & { organization_id: string; fleet_id?: string };

export interface ListOptions<T> {
  /** Whether the operation takes a fleet_id filter (the collection then has a 'fleet' index). */
  fleetFilter: boolean;
  /** A narrower starting set and its condition (e.g. devices by hardware_id). */
  narrow?: { seqs: readonly number[]; accept: (item: T) => boolean };
}

export function pageOfTenantCollection<T extends Owned>(
  ctx: ApiContext, app: SandboxApp, collection: SeqTable<T>, view: (item: T) => unknown, opts: ListOptions<T>,
): Reply {
  const { tenant } = ctx.auth;
  const organizationId = optionalUuid(ctx.query, 'organization_id');
  if (organizationId) requireOrganizationFilterInTenant(ctx, app, organizationId);
  const fleetId = opts.fleetFilter ? optionalUuid(ctx.query, 'fleet_id') : undefined;
  const page = readPage(ctx, app.cursors, isSeq);
  // start from the most selective index; `accept` applies every filter and the tenant
  let sources: (readonly number[])[];
  if (opts.narrow) sources = [opts.narrow.seqs];
  else if (fleetId) sources = [collection.seqs('fleet', fleetId)];
  else sources = (organizationId ? [organizationId] : tenant.organizationIds).map((org) => collection.seqs('org', org));
  const accept = (item: T) =>
    tenant.includes(item.organization_id) &&
    (!organizationId || item.organization_id === organizationId) &&
    (!fleetId || item.fleet_id === fleetId) &&
    (!opts.narrow || opts.narrow.accept(item));
  const { items, hasMore } = collection.scan(sources, page.after ?? -1, page.limit, accept);
  return page.reply(items.map(view), hasMore, items.at(-1)?.seq);
}
