import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';
import { ALL_SCOPES } from '../../src/sandbox/index.js';
import { clientSecret } from '../../src/sandbox/auth/clients.js';

describe('seed', () => {
  it('is deterministic for a seed (ids, names, secrets) and differs between seeds', async () => {
    const [a, b, c] = await Promise.all([startHarness({ seed: 11 }), startHarness({ seed: 11 }), startHarness({ seed: 12 })]);
    try {
      const page = async (h: typeof a) => (await h.call('GET', '/v1/devices?limit=20')).body.data.map((d: any) => ({ ...d, last_seen_at: null }));
      expect(await page(a)).toEqual(await page(b));
      expect(a.sb.clients).toEqual(b.sb.clients);
      expect(a.sb.organizations).toEqual(b.sb.organizations);
      expect(c.sb.organizations[0]!.id).not.toBe(a.sb.organizations[0]!.id);
      expect(c.sb.clients[0]!.client_secret).not.toBe(a.sb.clients[0]!.client_secret);
      // documented derivation of the secrets
      expect(a.sb.clients[0]!.client_secret).toBe(clientSecret(11, 'sandbox-admin'));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('seeds the four documented clients', async () => {
    const h = await startHarness();
    try {
      const byId = Object.fromEntries(h.sb.clients.map((c) => [c.client_id, c]));
      expect(Object.keys(byId).sort()).toEqual(['sandbox-admin', 'sandbox-child', 'sandbox-reader', 'sandbox-reboot-only']);
      expect(ALL_SCOPES).toHaveLength(19);
      expect(byId['sandbox-admin']!.scopes).toEqual([...ALL_SCOPES]);
      expect(byId['sandbox-reader']!.scopes.every((s) => s.endsWith('_read'))).toBe(true);
      expect(byId['sandbox-reader']!.scopes).toHaveLength(9);
      expect(byId['sandbox-child']!.scopes).toEqual([...ALL_SCOPES]);
      expect(byId['sandbox-child']!.organization_id).toBe(h.org('Acme Logistics North').id);
      expect(byId['sandbox-reboot-only']!.scopes.sort()).toEqual(['thirdparty.api.device_commands_reboot', 'thirdparty.api.devices_read']);
      expect(byId['sandbox-admin']!.organization_id).toBe(h.org('Acme Logistics').id);
    } finally {
      await h.close();
    }
  });

  it('scales the device count with the devices option', async () => {
    const h = await startHarness({ devices: 30 });
    try {
      const visible = await h.all('/v1/devices?limit=500');
      expect(visible.length).toBeGreaterThan(10);
      expect(visible.length).toBeLessThanOrEqual(30);
      expect(visible.every((d) => Number(d.hardware_id.slice(3)) <= 30)).toBe(true);
      expect((await h.call('GET', '/v1/devices?hardware_id=HW-000031')).body.data).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
