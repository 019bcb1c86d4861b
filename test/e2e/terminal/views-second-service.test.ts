// Each view says what matters against the second service double (issue 36), whose members are named otherwise:
// its events' composite `ref` (and a per-device `id` 1, 2, 3 that repeats), its media's `media_ref` and `hw`, its
// devices' `reported_at`. The identifier a view declares is a part the record boundary finds for the service in
// use, never a sandbox name: at 80 and 160 columns in a pseudo-terminal, each table leads with that member, whole.
// Needs `npm run build` first.
import { describe, expect, it } from 'vitest';
import type { SecondService } from '../../support/second-service.js';
import { useSecondHarness, type SecondHarness } from '../../support/second-service/harness.js';
import { tableInPty } from '../../support/pty-table.js';

let h: SecondHarness;
let svc: SecondService;

useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

const json = async <T>(args: string[]): Promise<T> => {
  const r = await h.cli([...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

const seen = (args: string[], cols: number) => tableInPty(args, cols, { env: svc.envFor(svc.clients.admin, h.configDir) });

describe.each([80, 160])('at %i columns, against a service that names its members its own way', { timeout: 120_000 }, (cols) => {
  it.each([
    [['events', 'search', '--hardware-id', 'TLM-00001', '--since', '7d']],
    [['devices', 'events', 'TLM-00001', '--since', '7d']],
  ])('%j: the composite ref leads, whole, not the id that repeats across devices', async (args) => {
    const events = await json<{ ref: string }[]>(args);
    expect(events.length).toBeGreaterThan(1);
    const { code, text, header } = await seen(args, cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ REF +│/);
    for (const { ref } of events) expect(text).toMatch(new RegExp(`^│ ${ref} +│`, 'm'));
  });

  it('devices media: media_ref leads; the device, as `hw`, said once', async () => {
    const media = await json<{ media_ref: string }[]>(['devices', 'media', 'TLM-00001']);
    expect(media.length).toBeGreaterThan(1);
    const { code, text, header } = await seen(['devices', 'media', 'TLM-00001'], cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ MEDIA REF +│/);
    expect(text).toMatch(/^Every row: hw TLM-00001/m);
    for (const { media_ref } of media) expect(text).toMatch(new RegExp(`^│ ${media_ref} +│`, 'm'));
  });

  it('devices list: the hardware id first, and the report time the records carry (reported_at)', async () => {
    const { code, header } = await seen(['devices', 'list', '--limit', '5'], cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ HARDWARE ID +│.*REPORTED AT/);
  });

  it('a bulk run: status and code whole, the keys named once', async () => {
    // TLM-00003 cannot reboot: the service says so with its code
    const { text, header } = await seen(['devices', 'reboot', 'TLM-00001', 'TLM-00003', '--yes', '--idempotency-key', `views-second-${cols}`], cols);
    expect(header).toMatch(/^│ HARDWARE ID +│ STATUS +│.*CODE/);
    expect(text).toContain(`keys: views-second-${cols}:<hardware id>`);
    expect(text).toMatch(/^│ TLM-00003 +│ capability_missing +│.*device\.capability_missing/m);
  });
});
