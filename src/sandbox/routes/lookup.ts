// Finding a resource the caller may see. Another tenant's resource is reported as not found.
import { uuidParam } from '../common/params.js';
import type { ApiContext } from '../common/context.js';
import type { SandboxApp } from '../app.js';
import type { DeviceRecord } from '../common/records.js';
import type { SeqTable, Sequenced } from '../store/collection.js';

/** The record of the path's {id} in `table` (devices, drivers, fleets, vehicles); `what` names it when not found. */
export function byPathId<T extends Sequenced & { organization_id: string }>(ctx: ApiContext, table: SeqTable<T>, what: string): T {
  const id = uuidParam('id', ctx.params.id!);
  return ctx.auth.tenant.visible(table.get(id), `${what} ${id}`);
}

export function deviceByHardwareId(ctx: ApiContext, app: SandboxApp): DeviceRecord {
  const hardwareId = ctx.params.hardwareId!;
  return ctx.auth.tenant.visible(app.world.deviceByHardwareId(hardwareId), `Device ${hardwareId}`);
}

/** The organization named in the path ({organizationId}): unknown → 404, outside the tenant → 403 tenant.forbidden. */
export function organizationInPath(ctx: ApiContext, app: SandboxApp): string {
  const id = uuidParam('organizationId', ctx.params.organizationId!);
  ctx.auth.tenant.requireOrganization(id, app.world.organizations.has(id));
  return id;
}

/** An organization named by a filter or a body: anything not in the tenant (even unknown) → 403. */
export function requireOrganizationFilterInTenant(ctx: ApiContext, app: SandboxApp, organizationId: string): void {
  ctx.auth.tenant.requireOrganization(organizationId, app.world.organizations.has(organizationId), true);
}
