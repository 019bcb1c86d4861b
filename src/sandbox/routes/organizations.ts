// Organizations (sandbox design): the caller's tenant, one organization, and its descendants.
import { isSeq, readPage } from '../paging.js';
import { Tenant } from '../common/tenancy.js';
import { organizationInPath } from './lookup.js';
import { organizationView } from './views.js';
import type { ApiContext } from '../common/context.js';
import type { Reply } from '../common/reply.js';
import type { ApiRoute, SandboxApp } from '../app.js';

export const organizationRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/organizations',
    operationId: 'listOrganizations',
    handler: (ctx, app) => pageOfOrganizations(ctx, app, ctx.auth.tenant.organizationIds),
  },
  {
    method: 'GET',
    path: '/v1/organizations/{organizationId}',
    operationId: 'getOrganization',
    handler: (ctx, app) => ({ status: 200, json: organizationView(app.world.organizations.get(organizationInPath(ctx, app))!) }),
  },
  {
    method: 'GET',
    path: '/v1/organizations/{organizationId}/descendants',
    operationId: 'listOrganizationDescendants',
    handler(ctx, app) {
      const subtree = new Tenant(organizationInPath(ctx, app), app.world.organizations.values()).organizationIds;
      return pageOfOrganizations(ctx, app, subtree.slice(1));
    },
  },
];

/** Organizations in tree order (breadth first); the cursor holds the position in that order. */
function pageOfOrganizations(ctx: ApiContext, app: SandboxApp, ids: readonly string[]): Reply {
  const page = readPage(ctx, app.cursors, isSeq);
  const start = page.after === undefined ? 0 : page.after + 1;
  const slice = ids.slice(start, start + page.limit);
  const hasMore = start + page.limit < ids.length;
  return page.reply(
    slice.map((id) => organizationView(app.world.organizations.get(id)!)),
    hasMore,
    slice.length ? start + slice.length - 1 : undefined,
  );
}
