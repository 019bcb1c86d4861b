// The scopes and the seeded OAuth clients. Client ids are fixed; secrets are derived from the seed:
//   client_secret = "sbx_" + base64url(HMAC-SHA256(key = "fleetctl-sandbox:<seed>", data = client_id))[0..32]
// so the same --seed always yields the same secrets (embedded mode and the docs rely on it).
import { createHmac } from 'node:crypto';
import type { SeedOrganizations } from '../seed/world.js';

import { SCOPES } from '../../openapi/operations.js';

export const SCOPE_PREFIX = 'thirdparty.api.';

/** All 19 scopes, full names, as the OpenAPI document declares them. */
export const ALL_SCOPES: readonly string[] = SCOPES;
export const READ_SCOPES: readonly string[] = ALL_SCOPES.filter((s) => s.endsWith('_read'));

export interface SandboxClient {
  client_id: string;
  client_secret: string;
  scopes: string[];
  organization_id: string;
}

export function clientSecret(seed: number, clientId: string): string {
  const mac = createHmac('sha256', `fleetctl-sandbox:${seed}`).update(clientId).digest('base64url');
  return `sbx_${mac.slice(0, 32)}`;
}

export function seedClients(seed: number, orgs: SeedOrganizations): SandboxClient[] {
  const make = (clientId: string, scopes: readonly string[], organizationId: string): SandboxClient => ({
    client_id: clientId,
    client_secret: clientSecret(seed, clientId),
    scopes: [...scopes],
    organization_id: organizationId,
  });
  return [
    make('sandbox-admin', ALL_SCOPES, orgs.root.id),
    make('sandbox-reader', READ_SCOPES, orgs.root.id),
    // one child organization and its descendants (north has the North Depot below it)
    make('sandbox-child', ALL_SCOPES, orgs.north.id),
    make('sandbox-reboot-only', [SCOPE_PREFIX + 'devices_read', SCOPE_PREFIX + 'device_commands_reboot'], orgs.root.id),
  ];
}
