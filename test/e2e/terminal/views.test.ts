// Each view says what matters (issue 36), where a person sees it: the built CLI in a pseudo-terminal of 80 and 160
// columns against a sandbox. Every list's table shows the identifier the next command takes, whole; a bulk run
// keeps its status and code (and back_after_s with --wait) and names its keys once; one device's list says its
// hardware id once; a device that never reported reads "never"; no table line is wider than the terminal; one
// line names what the table leaves out. Needs `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { tableInPty } from '../../support/pty-table.js';

let h: SandboxHarness;
let fleet: string;

beforeAll(async () => {
  h = await startHarness({ devices: 24, scenario: { name: 'views', device_reporting: { reboot_downtime_ms: 300, reboot_jitter_ms: 200 } } });
  fleet = (JSON.parse((await h.cli(['fleets', 'list', '--limit', '1', '-o', 'json'])).stdout) as { id: string }[])[0]!.id;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const json = async <T>(args: string[]): Promise<T> => {
  const r = await h.cli([...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

const seen = (args: string[], cols: number) => tableInPty(args, cols, { sandbox: h });

const LEFT_OUT = (cols: number) => new RegExp(`^Not shown at ${cols} columns: .+; -o wide shows them$`, 'm');

describe.each([80, 160])('at %i columns', { timeout: 120_000 }, (cols) => {
  it('events search: the event ids whole, first; what is left out named', async () => {
    const args = ['events', 'search', '--fleet-id', fleet, '--since', '30d', '--limit', '3'];
    const events = await json<{ event_id: string }[]>(args);
    expect(events.length).toBeGreaterThan(0);
    const { code, text, header } = await seen(args, cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ EVENT ID +│/);
    for (const { event_id } of events) expect(text).toMatch(new RegExp(`^│ ${event_id} +│`, 'm'));
    expect(text).toMatch(LEFT_OUT(cols));
  });

  it('devices events: the event ids whole; the one device said once, not on every row', async () => {
    const args = ['devices', 'events', 'HW-000001', '--since', '30d', '--limit', '3'];
    const events = await json<{ event_id: string }[]>(args);
    expect(events.length).toBeGreaterThan(1);
    const { code, text, header } = await seen(args, cols);
    expect(code).toBe(0);
    expect(text).toMatch(/^Every row: hardware_id HW-000001/m);
    expect(header).not.toContain('HARDWARE ID');
    for (const { event_id } of events) expect(text).toMatch(new RegExp(`^│ ${event_id} +│`, 'm'));
  });

  it('devices media: the media ids whole; the device (and what every file shares) said once', async () => {
    const args = ['devices', 'media', 'HW-000001', '--limit', '3'];
    const media = await json<{ id: string }[]>(args);
    expect(media.length).toBeGreaterThan(1);
    const { code, text, header } = await seen(args, cols);
    expect(code).toBe(0);
    expect(text).toMatch(/^Every row: hardware_id HW-000001/m);
    expect(header).toMatch(/^│ ID +│/);
    expect(header).not.toContain('HARDWARE ID');
    for (const { id } of media) expect(text).toMatch(new RegExp(`^│ ${id} +│`, 'm'));
  });

  it.each([
    [['vehicles', 'list', '--limit', '3']],
    [['drivers', 'list', '--limit', '3']],
    [['fleets', 'list', '--limit', '3']],
    [['organizations', 'list', '--limit', '3']],
  ])('%j: the ids devices assign, drivers get and fleets get take, whole and first', async (args) => {
    const records = await json<{ id: string }[]>(args);
    expect(records.length).toBeGreaterThan(0);
    const { code, text, header } = await seen(args, cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ ID +│/);
    for (const { id } of records) expect(text).toMatch(new RegExp(`^│ ${id} +│`, 'm'));
  });

  it('devices list: hardware ids first; a device that never reported reads never', async () => {
    const devices = await json<{ hardware_id: string; last_seen_at: string | null }[]>(['devices', 'list', '--limit', '24']);
    const silent = devices.find((d) => d.last_seen_at === null);
    expect(silent, 'a seeded device that never reported').toBeDefined();
    const { code, text, header } = await seen(['devices', 'list', '--limit', '24'], cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ HARDWARE ID +│.*LAST SEEN AT/);
    expect(text).toMatch(new RegExp(`^│ ${silent!.hardware_id} +│.*│ never +│$`, 'm'));
    expect(text).toMatch(LEFT_OUT(cols));
  });

  it('a bulk run: status and code whole, the keys named once, no key column', async () => {
    const key = `views-bulk-${cols}`;
    const { text, header } = await seen(['devices', 'reboot', 'HW-000001', 'HW-000003', 'HW-999999', '--yes', '--idempotency-key', key], cols);
    expect(header).toMatch(/^│ HARDWARE ID +│ STATUS +│.*CODE/);
    expect(header).not.toContain('IDEMPOTENCY KEY');
    expect(text).toContain(`keys: ${key}:<hardware id>`);
    expect(text).toMatch(/^│ HW-999999 +│ not_found +│.*resource\.not_found/m);
    expect(text).not.toMatch(new RegExp(`^│.*${key}`, 'm'));
  });

  it('a bulk run with --wait: status, code and back_after_s whole', async () => {
    const { text, header } = await seen(['devices', 'reboot', 'HW-000005', 'HW-999999', '--yes', '--wait', '--wait-timeout', '20s'], cols);
    expect(header).toMatch(/^│ HARDWARE ID +│ STATUS +│.*BACK AFTER S +│.*CODE/);
    expect(text).toMatch(/^│ HW-000005 +│ accepted +│.*│ \d+(\.\d)? +│/m);
    expect(text).toMatch(/^keys: fleetctl-run-\S+:<hardware id>$/m);
  });

  it('sandbox emit: every row on one line; the event ids whole', async () => {
    const { code, text, header } = await seen(['sandbox', 'emit', 'alarm.triggered', '--count', '2'], cols);
    expect(code).toBe(0);
    expect(header).toMatch(/^│ ID +│ TYPE +│/);
    expect(text.split('\n').filter((line) => /^│ [0-9a-f]{8}-[0-9a-f-]{27} │/.test(line))).toHaveLength(2);
  });

  it('sandbox requests: method and status stay; an empty fault column does not', async () => {
    const { code, text, header } = await seen(['sandbox', 'requests', '--limit', '4'], cols);
    expect(code).toBe(0);
    expect(header).toMatch(/METHOD .*PATH .*STATUS/);
    expect(header).not.toContain('FAULT');
    expect(text).toMatch(/^│ \d+ +│(.*│)? (GET|POST) +│/m);
  });
});
