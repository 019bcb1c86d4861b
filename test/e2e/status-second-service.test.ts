// Issue 25, must-show 3 and 6: `fleetctl status` against the second service double, whose device records have
// their own names (reported_at, no capabilities): the report time comes from its served document, or from its
// records when it serves none; coverage is "not stated", never 0%; without webhooks_read only that section goes.
import { describe, expect, it } from 'vitest';
import { BIG_FLEET_SIZE, seedUuid, type SecondService } from '../support/second-service.js';
import { ensureWebhookConfig, report, startSecondHarness, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

let h: SecondHarness;
let svc: SecondService;

useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

const ADMIN_DEVICES = BIG_FLEET_SIZE + 4;

describe('fleetctl status against the second service', { timeout: 120_000 }, () => {
  it('freshness from reported_at, which its document names; coverage not stated, as the records carry no capabilities', async () => {
    const args = ['status', '-o', 'json', '--stale-after', '1h'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    const out = JSON.parse(r.stdout);
    // seeded: device n reported n minutes ago (1, 2, 3, 100..219, 900)
    expect(out.devices).toEqual({ total: ADMIN_DEVICES, reporting: 3, stale: ADMIN_DEVICES - 3, never_reported: 0, unknown: 0, report_time_field: 'reported_at', report_time_source: 'document', note: null });
    expect(out.capabilities).toEqual({ stated_by: 0, coverage: null, note: 'not stated: the device records carry no capabilities' });
  });

  it('the terminal summary says "not stated", never 0%', async () => {
    const r = await h.cli(['status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Capabilities {2}not stated: the device records carry no capabilities$/m);
    // no coverage rows under it (a row would be a capability and a percentage)
    const lines = r.stdout.split('\n');
    expect(lines[lines.findIndex((l) => l.startsWith('Capabilities')) + 1]).toMatch(/^Commands /);
  });

  it('a webhook configuration shows its state, topics and delivery URLs', async () => {
    await ensureWebhookConfig(svc);
    const r = await h.cli(['status', '-o', 'json', '--fleet-id', seedUuid(0xf1, 1)]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.devices.total).toBe(3);
    expect(out.webhooks).toEqual({
      state: 'disabled',
      organization_id: svc.clients.admin.organization_id,
      topics: [
        { type: 'events', is_enabled: true, url: 'https://hooks.example.com/a' },
        { type: 'alarms', is_enabled: false, url: 'https://hooks.example.com/b' },
      ],
      note: null,
    });
  });

  it('a client without webhooks_read: the webhook section is unavailable, the rest stands (exit 0)', async () => {
    const r = await h.cli(['status', '-o', 'json'], { as: svc.clients.reader });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.webhooks.state).toBe('unavailable');
    expect(out.scopes.sections[1].state).toBe('refused');
    expect(out.devices.total).toBe(ADMIN_DEVICES);
  });

  it('--fail-if over its records: exit 13 naming the breach', async () => {
    const r = await h.cli(['status', '-o', 'json', '--fail-if', 'stale>50%']);
    expect(r.code).toBe(13);
    expect(r.stderr).toContain(`stale>50% breached (stale is ${Math.round(((ADMIN_DEVICES - 3) / ADMIN_DEVICES) * 10000) / 100}% (${ADMIN_DEVICES - 3} of ${ADMIN_DEVICES}), > 50%)`);
  });
});

describe('fleetctl status against a second service that serves no document', { timeout: 120_000 }, () => {
  it('reads the report time from the records themselves, and says where it came from', async () => {
    const bare = await startSecondHarness({ serveDocument: false });
    try {
      const r = await bare.cli(['status', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.devices).toMatchObject({ total: ADMIN_DEVICES, reporting: 3, report_time_field: 'reported_at', report_time_source: 'records' });
    } finally {
      await bare.close();
    }
  });
});
