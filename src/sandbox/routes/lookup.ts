// Finding a resource the caller may see. Another tenant's resource is reported as not found.
import { uuidParam } from '../http/params.js';
import type { ApiContext } from '../http/context.js';
import type { SandboxApp } from '../app.js';
import type { DeviceRecord } from '../store/records.js';

export function deviceById(ctx: ApiContext, app: SandboxApp): DeviceRecord {
  const id = uuidParam('id', ctx.params.id!);
  return ctx.auth.tenant.visible(app.world.devices.get(id), `Device ${id}`);
}

export function deviceByHardwareId(ctx: ApiContext, app: SandboxApp): DeviceRecord {
  const hardwareId = ctx.params.hardwareId!;
  return ctx.auth.tenant.visible(app.world.deviceByHardwareId(hardwareId), `Device ${hardwareId}`);
}

/** An organization named in a path: unknown → 404, outside the tenant → 403 tenant.forbidden. */
export function requireOrganizationInTenant(ctx: ApiContext, app: SandboxApp, organizationId: string): void {
  ctx.auth.tenant.requireOrganization(organizationId, app.world.organizations.has(organizationId));
}

/** An organization named by a filter or a body: anything not in the tenant (even unknown) → 403. */
export function requireOrganizationFilterInTenant(ctx: ApiContext, app: SandboxApp, organizationId: string): void {
  ctx.auth.tenant.requireOrganization(organizationId, app.world.organizations.has(organizationId), true);
}
