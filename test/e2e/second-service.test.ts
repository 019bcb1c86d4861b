// Issue 23, must-show 7: the built CLI against a second service double (test/support/second-service.ts), written
// from the spec alone with its own record shapes. What holds today: every list and get in every output format,
// --jq, paging across standard-base64 cursors, a bulk reboot of a fleet whose records say nothing of
// capabilities, token refresh without expires_in, Retry-After as an HTTP-date, weak ETags sent back verbatim,
// problem documents with members of their own, and the exit codes of README's "Exit codes".
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { eventRef, seedUuid, type SecondService } from '../support/second-service.js';
import { csvRows, expectFailure, expectOk, report, startSecondHarness, tsv, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

let h: SecondHarness;
let svc: SecondService;
const FLEET_1 = seedUuid(0xf1, 1);
const FLEET_2 = seedUuid(0xf1, 2);
const DEVICE_1 = seedUuid(0xde, 1);
const DRIVER_1 = seedUuid(0xd7, 1);
const EVENT = eventRef('TLM-00001', 'ev00');
const FROM = new Date(Date.now() - 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
const TO = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
const WINDOW = `date_from=${FROM}&date_to=${TO}`;

useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

/** What the service itself answers to a GET, as the admin client. */
async function served(path: string): Promise<any> {
  const answer = await svc.call(svc.clients.admin, 'GET', path);
  expect(answer.status, path).toBe(200);
  return answer.body;
}

const LISTS: { args: string[]; path: string }[] = [
  { args: ['devices', 'list', '--limit', '5'], path: '/v1/devices?limit=5' },
  { args: ['fleets', 'list'], path: '/v1/fleets' },
  { args: ['drivers', 'list'], path: '/v1/drivers' },
  { args: ['devices', 'events', 'TLM-00001', '--from', FROM, '--to', TO], path: `/v1/devices/TLM-00001/events?${WINDOW}` },
  { args: ['devices', 'media', 'TLM-00001'], path: '/v1/devices/TLM-00001/media' },
  { args: ['events', 'search', '--hardware-id', 'TLM-00001', '--from', FROM, '--to', TO], path: `/v1/events?hardware_id=TLM-00001&${WINDOW}` },
  { args: ['events', 'media', EVENT], path: `/v1/events/${EVENT}/media` },
];

describe('lists against the second service, every output format', { timeout: 180_000 }, () => {
  it.each(LISTS)('$args.0 $args.1: json, ndjson and yaml carry every record as the service sent it', async ({ args, path }) => {
    const { data } = await served(path);
    expect(data.length).toBeGreaterThan(0);
    // the three formats at once: each is its own process against the same unchanging data
    const [json, ndjson, yaml] = await Promise.all(['json', 'ndjson', 'yaml'].map((format) => h.cli([...args, '-o', format])));
    expectOk(args, json);
    expect(JSON.parse(json!.stdout)).toEqual(data);
    expectOk(args, ndjson!);
    expect(ndjson!.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(data);
    expectOk(args, yaml!);
    expect(parseYaml(yaml!.stdout)).toEqual(data);
  });

  it.each(LISTS)('$args.0 $args.1: piped table and csv have one row per record, and --jq reads the service\'s own fields', async ({ args, path }) => {
    const { data } = await served(path);
    // the first field of the service's own record, whatever it is named
    const field = Object.keys(data[0])[0]!;
    const [table, csv, jq] = await Promise.all([h.cli(args), h.cli([...args, '-o', 'csv']), h.cli([...args, '--jq', `.${field}`])]);
    expectOk(args, table!);
    expect(tsv(table!.stdout).rows).toHaveLength(data.length);
    expectOk(args, csv!);
    expect(csvRows(csv!.stdout)).toHaveLength(data.length + 1);
    expectOk(args, jq);
    expect(jq.stdout.trimEnd().split('\n')).toEqual(data.map((item: Record<string, unknown>) => String(item[field])));
  });

  it('--jq reaches nested members of the service\'s records (firmware.version)', async () => {
    const { data } = await served('/v1/devices?limit=3');
    const args = ['devices', 'list', '--limit', '3', '--jq', '.firmware.version'];
    const r = await h.cli(args);
    expectOk(args, r);
    expect(r.stdout).toBe(data.map((d: any) => `${d.firmware.version}\n`).join(''));
  });
});

const GETS: { args: string[]; path: string }[] = [
  { args: ['devices', 'get', DEVICE_1], path: `/v1/devices/${DEVICE_1}` },
  { args: ['devices', 'get', 'TLM-00001'], path: `/v1/devices/${DEVICE_1}` },
  { args: ['fleets', 'get', FLEET_1], path: `/v1/fleets/${FLEET_1}` },
  { args: ['drivers', 'get', DRIVER_1], path: `/v1/drivers/${DRIVER_1}` },
  { args: ['events', 'get', EVENT], path: `/v1/events/${EVENT}` },
  { args: ['devices', 'last-reported', 'TLM-00001'], path: '/v1/devices/TLM-00001/last-reported' },
  { args: ['devices', 'last-position', 'TLM-00001'], path: '/v1/devices/TLM-00001/last-position' },
];

/** Every string, number and boolean in a record, however deep. */
function leaves(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [String(value)];
}

describe('gets against the second service, every output format', { timeout: 180_000 }, () => {
  it.each(GETS)('$args.0 $args.1 $args.2: json, ndjson and yaml are the record unchanged', async ({ args, path }) => {
    const record = await served(path);
    const [json, ndjson, yaml] = await Promise.all(['json', 'ndjson', 'yaml'].map((format) => h.cli([...args, '-o', format])));
    expectOk(args, json!);
    expect(JSON.parse(json!.stdout)).toEqual(record);
    expectOk(args, ndjson!);
    expect(JSON.parse(ndjson!.stdout)).toEqual(record);
    expectOk(args, yaml!);
    expect(parseYaml(yaml!.stdout)).toEqual(record);
  });

  it.each(GETS)('$args.0 $args.1 $args.2: the piped view and csv show every value the service sent', async ({ args, path }) => {
    const record = await served(path);
    const [table, csv] = await Promise.all([h.cli(args), h.cli([...args, '-o', 'csv'])]);
    expectOk(args, table!);
    for (const leaf of leaves(record)) expect(table!.stdout, report(args, table!)).toContain(leaf);
    expectOk(args, csv!);
    expect(csvRows(csv!.stdout).length).toBeGreaterThan(0);
  });

  it('a device that never reported, and one without a live position: exit 5 with the service\'s problem', async () => {
    for (const args of [['devices', 'last-reported', 'TLM-00002'], ['devices', 'last-position', 'TLM-00002']]) {
      const r = await h.cli(args);
      expectFailure(args, r, 5);
      expect(r.stderr).toMatch(/\((device\.never_reported|position\.unavailable), HTTP 404\)/);
    }
  });
});

describe('paging with cursors in standard base64', { timeout: 120_000 }, () => {
  it('--all follows every cursor (with "+", "/" and "=") through a fleet of 120 devices', async () => {
    const before = svc.requests.length;
    const args = ['devices', 'list', '--fleet-id', FLEET_2, '--all', '-o', 'ndjson'];
    const r = await h.cli(args);
    expectOk(args, r);
    const expected = svc.state.devices.filter((d) => d.fleet_ref === FLEET_2).map((d) => JSON.parse(JSON.stringify(d)));
    expect(r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(expected);
    const pages = svc.requests.slice(before).filter((q) => q.path === '/v1/devices');
    expect(pages.map((q) => q.status)).toEqual([200, 200, 200]);
    const cursors = pages.map((q) => q.query.get('cursor')).filter((c): c is string => c !== null);
    expect(cursors).toHaveLength(2);
    for (const cursor of cursors) expect(cursor).toMatch(/^\+\/\+\/.*=$/);
  });

  it("the service's next_cursor, passed back with --cursor, gives the next page", async () => {
    // the paging hint that names it is for a terminal; a script reads next_cursor from the answer (api)
    const first = await h.cli(['api', 'GET', '/v1/devices', '-f', 'limit=2']);
    expectOk(['api', 'GET', '/v1/devices'], first);
    const cursor = (JSON.parse(first.stdout) as { next_cursor: string }).next_cursor;
    expect(cursor, first.stdout).toMatch(/^\+\/\+\/.*=$/);
    const args = ['devices', 'list', '--limit', '2', '--cursor', cursor!, '-o', 'json'];
    const second = await h.cli(args);
    expectOk(args, second);
    const page2 = await served(`/v1/devices?limit=2&cursor=${encodeURIComponent(cursor!)}`);
    expect(JSON.parse(second.stdout)).toEqual(page2.data);
  });

  it('a limit outside 1..500 is refused before anything is sent (exit 2)', async () => {
    const args = ['devices', 'list', '--limit', '501'];
    expectFailure(args, await h.cli(args), 2);
  });
});

describe('the served document, or none', { timeout: 120_000 }, () => {
  it('`api --list` reads the operations of the document this service serves (its own operation ids)', async () => {
    const args = ['api', '--list', '-o', 'json'];
    const r = await h.cli(args);
    expectOk(args, r);
    const operations = JSON.parse(r.stdout) as Record<string, string>[];
    expect(operations).toContainEqual(expect.objectContaining({ method: 'GET', path: '/v1/devices', operation_id: 'devicesIndex', scope: 'thirdparty.api.devices_read' }));
    expect(operations.map((o) => o.operation_id)).not.toContain('listDevices');
  });

  it('with no document served (404), lists still carry every record the service sent, and `api --list` says it fell back', async () => {
    const bare = await startSecondHarness({ serveDocument: false });
    try {
      const list = ['devices', 'list', '--limit', '3', '-o', 'json'];
      const r = await bare.cli(list);
      expectOk(list, r);
      const raw = await bare.svc.call(bare.svc.clients.admin, 'GET', '/v1/devices?limit=3');
      expect(JSON.parse(r.stdout)).toEqual(raw.body.data);
      const api = ['api', '--list'];
      const listed = await bare.cli(api);
      expectOk(api, listed);
      expect(listed.stderr).toContain('HTTP 404');
      expect(listed.stderr).toContain('using the one bundled with fleetctl');
    } finally {
      await bare.close();
    }
  });
});
