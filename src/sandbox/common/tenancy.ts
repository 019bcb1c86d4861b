// spec: credentials are scoped to the caller's organization and its descendant tenants. A request for an
// organization outside it is 403 tenant.forbidden; a resource of another tenant asked for by id is 404
// (its existence is not leaked); lists never contain another tenant's data.
import { problem, notFound } from './problems.js';
import type { OrganizationRecord } from './records.js';

export class Tenant {
  /** The caller's organization first, then its descendants (breadth first). */
  readonly organizationIds: readonly string[];
  private readonly set: ReadonlySet<string>;

  constructor(readonly rootId: string, organizations: Iterable<OrganizationRecord>) {
    const children = new Map<string, string[]>();
    for (const org of organizations) {
      if (org.parent_id === null) continue;
      const list = children.get(org.parent_id) ?? [];
      list.push(org.id);
      children.set(org.parent_id, list);
    }
    const ids = [rootId];
    for (let i = 0; i < ids.length; i++) ids.push(...(children.get(ids[i]!) ?? []));
    this.organizationIds = ids;
    this.set = new Set(ids);
  }

  includes(organizationId: string | null | undefined): boolean {
    return organizationId != null && this.set.has(organizationId);
  }

  /**
   * For an organization named by the request. In a path (the resource itself): unknown → 404, outside →
   * 403. In a filter or a body (`unknownIsForbidden`): any organization not in the tenant → 403.
   */
  requireOrganization(organizationId: string, known: boolean, unknownIsForbidden = false): void {
    if (!known && !unknownIsForbidden) throw notFound(`Organization ${organizationId}`);
    if (!this.includes(organizationId)) {
      throw problem(403, 'tenant.forbidden', `Organization ${organizationId} is outside your tenant.`);
    }
  }

  /** A resource looked up by id: another tenant's resource is reported exactly as an unknown one. */
  visible<T extends { organization_id: string }>(resource: T | undefined, what: string): T {
    if (!resource || !this.includes(resource.organization_id)) throw notFound(what);
    return resource;
  }
}

/** Tenants by organization id, built once per organization (the tree does not change). */
export class TenantDirectory {
  private readonly cache = new Map<string, Tenant>();

  constructor(private readonly organizations: () => Iterable<OrganizationRecord>) {}

  forOrganization(organizationId: string): Tenant {
    let tenant = this.cache.get(organizationId);
    if (!tenant) {
      tenant = new Tenant(organizationId, this.organizations());
      this.cache.set(organizationId, tenant);
    }
    return tenant;
  }
}
