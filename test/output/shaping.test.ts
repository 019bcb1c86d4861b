// Shaping output: --jq (real jq, item by item or --slurp), -o yaml, --sort, and a JSON array that stays valid
// when a later page fails.
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { Output } from '../../src/output/render.js';
import type { OutputFormat } from '../../src/output/writers/registry.js';
import { compileJq } from '../../src/output/jq.js';
import { HOLD_LIMIT, parseSort, sortRecords } from '../../src/output/sort.js';
import { batchesOf } from '../../src/output/batches.js';
import { viewOf } from '../../src/output/columns.js';
import { IOStreams } from '../../src/io/streams.js';
import { UsageError } from '../../src/errors.js';

const devices = [
  { hardware_id: 'HW-1', name: 'Truck', capabilities: ['reboot', 'wake_up'], stats: { km: 12, hours: [1, 2] }, fleet: { name: 'b' } },
  { hardware_id: 'HW-2', name: 'Van', capabilities: ['wake_up'], stats: { km: 3.5 }, fleet: { name: 'a' } },
  { hardware_id: 'HW-3', name: 'Car', capabilities: [], stats: null, fleet: { name: 'b' } },
];

function output(format: OutputFormat, opts: { tty?: boolean; jq?: string; slurp?: boolean } = {}) {
  const io = IOStreams.forTest({ tty: opts.tty ?? false });
  const jq = opts.jq === undefined ? undefined : compileJq(opts.jq);
  return { io, out: new Output(io, { format, jq, slurp: opts.slurp }) };
}

async function jqList(filter: string, records: unknown[] = devices, opts: { slurp?: boolean; tty?: boolean; format?: OutputFormat } = {}) {
  const { io, out } = output(opts.format ?? 'table', { jq: filter, slurp: opts.slurp, tty: opts.tty });
  await out.list(records, ['hardware_id']);
  return io;
}

describe('--jq: real jq semantics', () => {
  it.each([
    ['..|numbers (recursion, type selectors)', '[..|numbers]', '[12,1,2]\n[3.5]\n[]\n'],
    ['string interpolation, printed raw like jq -r', '"\\(.name) has \\(.capabilities|length) capabilities"', 'Truck has 2 capabilities\nVan has 1 capabilities\nCar has 0 capabilities\n'],
    ['@csv', '[.hardware_id, .name, (.capabilities|join(" "))] | @csv', '"HW-1","Truck","reboot wake_up"\n"HW-2","Van","wake_up"\n"HW-3","Car",""\n'],
    ['try/catch', 'try (.stats.km + "x") catch "bad: \\(.)"', 'bad: number (12) and string ("x") cannot be added\nbad: number (3.5) and string ("x") cannot be added\nx\n'],
    ['limit', '[limit(1; .capabilities[])]', '["reboot"]\n["wake_up"]\n[]\n'],
    ['reduce without input', 'reduce (.stats.hours // [])[] as $h (0; . + $h)', '3\n0\n0\n'],
    ['$__loc__', '$__loc__.line', '1\n1\n1\n'],
    ['pick (jq 1.7)', 'pick(.fleet.name)', '{"fleet":{"name":"b"}}\n{"fleet":{"name":"a"}}\n{"fleet":{"name":"b"}}\n'],
    ['several results of one item, and none of another', '.capabilities[]', 'reboot\nwake_up\nwake_up\n'],
  ])('%s', async (_name, filter, expected) => {
    const io = await jqList(filter);
    expect(io.stdout()).toBe(expected);
    expect(io.stderr()).toBe('');
  });

  it('--slurp: group_by over the whole list', async () => {
    const io = await jqList('group_by(.fleet.name) | map({fleet: .[0].fleet.name, count: length})', devices, { slurp: true });
    expect(io.stdout()).toBe('[{"fleet":"a","count":1},{"fleet":"b","count":2}]\n');
  });

  it('--slurp on a stream: one array of every item', async () => {
    async function* pages() {
      yield* devices;
    }
    const { io, out } = output('ndjson', { jq: 'map(.hardware_id)', slurp: true });
    expect(await out.list(pages(), ['hardware_id'])).toBe(3);
    expect(io.stdout()).toBe('["HW-1","HW-2","HW-3"]\n');
  });

  it('indented on a terminal and with -o json (jq default), one line a value when piped', async () => {
    expect((await jqList('{n: .name}', devices.slice(0, 1), { tty: true })).stdout()).toBe('{\n  "n": "Truck"\n}\n');
    expect((await jqList('{n: .name}', devices.slice(0, 1), { format: 'json' })).stdout()).toBe('{\n  "n": "Truck"\n}\n');
    expect((await jqList('{n: .name}', devices.slice(0, 1), { format: 'ndjson', tty: true })).stdout()).toBe('{"n":"Truck"}\n');
  });

  it('raw strings keep their bytes when piped; on a terminal control characters are shown, not sent', async () => {
    const evil = [{ name: 'a\u001b]0;owned\u0007b\tc' }];
    expect((await jqList('.name', evil)).stdout()).toBe('a\u001b]0;owned\u0007b\tc\n');
    expect((await jqList('.name', evil, { tty: true })).stdout()).toBe('a\\x1b]0;owned\\x07b\tc\n');
  });

  it('one resource: the filter gets the object', async () => {
    const { io, out } = output('table', { jq: '.stats.km' });
    await out.object(devices[0]);
    expect(io.stdout()).toBe('12\n');
  });

  it('a bad expression: a usage error carrying jq\'s own message', async () => {
    await expect(compileJq('.a |')).rejects.toThrow(/^--jq: jq: error: syntax error, unexpected end of file/);
    const error = await compileJq('foo(1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('jq: error: foo/1 is not defined at <top-level>, line 1:');
  });

  it('a runtime error stops at the item: the results before it are printed, the error names the item', async () => {
    const { io, out } = output('table', { jq: '.stats.km * 2' });
    const failure = await out.list(devices, ['hardware_id']).catch((e: unknown) => e);
    expect(io.stdout()).toBe('24\n7\n');
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as UsageError).message).toBe('--jq: jq: error (at item 3): null (null) and number (2) cannot be multiplied');
  });

  it("leaves the process's exit code and console alone; jq's debug messages go to stderr", async () => {
    const before = process.exitCode;
    const warn = console.warn;
    await jqList('.stats.km * 2').catch(() => undefined);
    const io = await jqList('.name | debug | length', devices.slice(0, 1));
    expect(process.exitCode).toBe(before);
    expect(console.warn).toBe(warn);
    expect(io.stdout()).toBe('5\n');
    expect(io.stderr()).toContain('["DEBUG:","Truck"]');
  });

  it('thousands of items in batches give the same answers as one by one', async () => {
    const many = Array.from({ length: 2_345 }, (_, i) => ({ n: i }));
    const io = await jqList('select(.n % 1000 == 0) | .n', many);
    expect(io.stdout()).toBe('0\n1000\n2000\n');
  });
});

describe('batches for jq', () => {
  it('items already fetched are handed over before a slow page is waited for', async () => {
    let release!: () => void;
    const slowPage = new Promise<void>((resolve) => (release = resolve));
    async function* source() {
      yield 1;
      yield 2;
      await slowPage;
      yield 3;
    }
    const seen: number[][] = [];
    const consuming = (async () => {
      for await (const batch of batchesOf(source(), 500)) seen.push(batch);
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([[1, 2]]);
    release();
    await consuming;
    expect(seen).toEqual([[1, 2], [3]]);
  });

  it('a source that fails at once: the items before the failure are still handed over, then the failure', async () => {
    async function* failing() {
      yield 1;
      yield 2;
      throw new Error('page 2 failed');
    }
    const seen: number[][] = [];
    await expect((async () => {
      for await (const batch of batchesOf(failing(), 500)) seen.push(batch);
    })()).rejects.toThrow('page 2 failed');
    expect(seen).toEqual([[1, 2]]);
  });

  it('never more than the maximum at once', async () => {
    const sizes: number[] = [];
    for await (const batch of batchesOf(Array.from({ length: 1_201 }, (_, i) => i), 500)) sizes.push(batch.length);
    expect(sizes).toEqual([500, 500, 201]);
  });
});

describe('-o yaml', () => {
  it('a list is one YAML sequence; strings a YAML 1.1 reader would misread are quoted', async () => {
    const { io, out } = output('yaml');
    await out.list([...devices, { hardware_id: 'yes', name: '2024-05-01T08:00:00Z' }], ['hardware_id']);
    expect(io.stdout()).toMatch(/^- hardware_id: HW-1\n  name: Truck\n  capabilities:\n    - reboot\n/);
    expect(io.stdout()).toContain('- hardware_id: "yes"\n  name: "2024-05-01T08:00:00Z"\n');
    expect(parse(io.stdout())).toEqual([...devices, { hardware_id: 'yes', name: '2024-05-01T08:00:00Z' }]);
  });

  it('--all: one document per item, separated by ---, read as they come', async () => {
    const { io, out } = output('yaml');
    await out.list(devices, ['hardware_id'], { all: true });
    const docs = parseAllDocuments(io.stdout()) as { toJS(): unknown }[];
    expect(docs.map((d) => d.toJS())).toEqual(devices);
    expect(io.stdout().startsWith('---\nhardware_id: HW-1\n')).toBe(true);
  });

  it('an empty list, and one resource', async () => {
    const empty = output('yaml');
    await empty.out.list([], ['hardware_id']);
    expect(empty.io.stdout()).toBe('[]\n');
    const one = output('yaml');
    await one.out.object({ organization_id: 'o1', topics: [{ type: 'events', delivery: { url: 'https://x' } }] });
    expect(one.io.stdout()).toBe('organization_id: o1\ntopics:\n  - type: events\n    delivery:\n      url: https://x\n');
  });

  it('on a terminal control characters are escaped', async () => {
    const { io, out } = output('yaml', { tty: true });
    await out.object({ name: 'a\u001b[2Jb\u202ec' });
    expect(io.stdout()).not.toMatch(/[\u001b\u202e]/);
  });
});

describe('--sort', () => {
  it('parses fields, - for descending; refuses empty parts', () => {
    expect(parseSort('fleet_id,-last_seen_at')).toEqual([
      { field: 'fleet_id', descending: false },
      { field: 'last_seen_at', descending: true },
    ]);
    expect(() => parseSort('a,,b')).toThrow(/--sort must be fields separated by commas/);
    expect(() => parseSort('-')).toThrow(UsageError);
  });

  it('dotted paths, descending, stable, missing and null last either way, numbers as numbers', () => {
    const rows = [
      { id: 1, f: { n: 'b' }, km: 10 },
      { id: 2, f: { n: 'a' }, km: 9 },
      { id: 3, f: null, km: 100 },
      { id: 4, f: { n: 'b' }, km: null },
      { id: 5, f: { n: 'a' }, km: 9 },
    ];
    const ids = (keys: string) => sortRecords(rows, parseSort(keys)!).map((r) => r.id);
    expect(ids('f.n')).toEqual([2, 5, 1, 4, 3]);
    expect(ids('-f.n')).toEqual([1, 4, 2, 5, 3]);
    expect(ids('km')).toEqual([2, 5, 1, 3, 4]);
    expect(ids('-km')).toEqual([3, 1, 2, 5, 4]);
    expect(ids('f.n,-km')).toEqual([2, 5, 1, 4, 3]);
  });

  it('date-times sort by the instant they name: any offset, any fraction length, lower-case t and z', () => {
    const rows = [
      { id: 'a', at: '2024-05-01T12:00:00+05:30' }, // 06:30Z
      { id: 'b', at: '2024-05-01T08:00:00.3Z' },
      { id: 'c', at: '2024-05-01t08:00:00.299999999z' },
      { id: 'd', at: '2024-05-01T01:00:00-08:00' }, // 09:00Z
      { id: 'e', at: null },
      { id: 'f', at: '2024-05-01T08:00:00.300000000Z' }, // the same instant as b: ties keep the API's order
    ];
    const ids = (keys: string) => sortRecords(rows, parseSort(keys)!).map((r) => r.id);
    expect(ids('at')).toEqual(['a', 'c', 'b', 'f', 'd', 'e']);
    expect(ids('-at')).toEqual(['d', 'b', 'f', 'c', 'a', 'e']);
  });

  it('a field with any value that is not a date-time sorts as text, as before', () => {
    const rows = [{ id: 1, at: '2024-05-01T12:00:00+05:30' }, { id: 2, at: 'soon' }, { id: 3, at: '2024-05-01T08:00:00Z' }];
    expect(sortRecords(rows, parseSort('at')!).map((r) => r.id)).toEqual([3, 1, 2]);
  });

  it('a field the document declares a date-time sorts by instant though some values name none: those after every instant, in the order they came', () => {
    const rows = [
      { id: 1, at: 'unknown' },
      { id: 2, at: '2024-05-01T12:00:00+05:30' }, // 06:30Z
      { id: 3, at: null },
      { id: 4, at: '2024-05-01T08:00:00Z' },
      { id: 5, at: '' },
      { id: 6, at: '2024-05-01T01:00:00-08:00' }, // 09:00Z
    ];
    const declared = (field: string) => (field === 'at' ? true : undefined);
    const ids = (keys: string) => sortRecords(rows, parseSort(keys)!, declared).map((r) => r.id);
    expect(ids('at')).toEqual([2, 4, 6, 1, 5, 3]);
    expect(ids('-at')).toEqual([6, 4, 2, 1, 5, 3]);
    // the rule of the values alone sorts this field as text (one value is not a date-time)
    expect(sortRecords(rows, parseSort('at')!).map((r) => r.id)).toEqual([5, 6, 4, 2, 1, 3]);
  });

  it('a field the document declares as text is not sorted as instants, even when every value reads as one', () => {
    const rows = [{ id: 1, ref: '2024-05-01T12:00:00+05:30' }, { id: 2, ref: '2024-05-01T08:00:00Z' }];
    // as text 08:00Z comes first; as instants 12:00+05:30 (06:30Z) would
    expect(sortRecords(rows, parseSort('ref')!, (field) => (field === 'ref' ? false : undefined)).map((r) => r.id)).toEqual([2, 1]);
    expect(sortRecords(rows, parseSort('ref')!, () => undefined).map((r) => r.id)).toEqual([1, 2]);
  });

  it('asks the document in use which fields are times, for the view\'s operation, also when --max-items cuts while reading', async () => {
    const asked: string[] = [];
    const io = IOStreams.forTest({ tty: false });
    const declaredTimes = async (operation: string) => {
      asked.push(operation);
      return (field: string) => (field === 'seen' ? true : field === 'code' ? false : undefined);
    };
    const out = new Output(io, { format: 'ndjson', declaredTimes });
    const rows = [
      { hardware_id: 'a', seen: 'never', code: '2024-05-01T12:00:00+05:30' },
      { hardware_id: 'b', seen: '2024-05-01T12:00:00+05:30', code: '2024-05-01T08:00:00Z' },
      { hardware_id: 'c', seen: '2024-05-01T08:00:00Z', code: '2024-05-01T09:00:00Z' },
    ];
    const order = async (sort: string, maxItems?: number) => {
      const before = io.stdout().length;
      await out.list(rows, viewOf('device'), { sort: parseSort(sort), maxItems });
      return io.stdout().slice(before).trim().split('\n').map((line) => JSON.parse(line).hardware_id);
    };
    expect(await order('seen')).toEqual(['b', 'c', 'a']);
    // declared text: by code point, though as instants a (06:30Z) would come first
    expect(await order('code')).toEqual(['b', 'c', 'a']);
    expect(await order('-seen', 2)).toEqual(['c', 'b']);
    expect(asked).toEqual(['listDevices', 'listDevices', 'listDevices']);
  });

  it('a list printed in order; a field no item carries nor the document describes is refused before any is printed', async () => {
    const { io, out } = output('ndjson');
    await out.list(devices, ['hardware_id'], { sort: parseSort('-fleet.name,hardware_id') });
    expect(io.stdout().trim().split('\n').map((line) => JSON.parse(line).hardware_id)).toEqual(['HW-1', 'HW-3', 'HW-2']);
    const refused = output('ndjson');
    await expect(refused.out.list(devices, viewOf('device'), { sort: parseSort('last_sen_at') })).rejects.toThrow(/--sort: no record has the field "last_sen_at" \(did you mean last_seen_at\?\)/);
    expect(refused.io.stdout()).toBe('');
  });

  it('with --all: says on stderr that it holds every item; refuses beyond the limit without --max-items', async () => {
    async function* endless() {
      for (let i = 0; ; i++) yield { n: i };
    }
    const { io, out } = output('ndjson');
    const failure = await out.list(endless(), ['n'], { sort: parseSort('-n'), all: true }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as UsageError).message).toBe('--sort stopped after 100,000 items: it holds every item in memory, and this list has more');
    expect((failure as UsageError).hint).toContain('--max-items N');
    expect(io.stdout()).toBe('');
    expect(io.stderr()).toBe('--sort holds every item in memory before printing the first (stops beyond 100,000 items unless --max-items N is given).\n');
    const bounded = output('ndjson');
    const many = Array.from({ length: HOLD_LIMIT + 5 }, (_, i) => ({ n: i }));
    expect(await bounded.out.list(many, ['n'], { sort: parseSort('-n'), all: true, maxItems: HOLD_LIMIT + 5 })).toBe(HOLD_LIMIT + 5);
    expect(bounded.io.stdout().slice(0, 20)).toBe('{"n":100004}\n{"n":10');
  });
});

describe('-o json when a later page fails', () => {
  it('the array is closed on what was printed, and the failure is passed on', async () => {
    async function* failingAfterTwo() {
      yield devices[0];
      yield devices[1];
      throw new Error('page 2 failed');
    }
    const { io, out } = output('json');
    await expect(out.list(failingAfterTwo(), ['hardware_id'])).rejects.toThrow('page 2 failed');
    expect(JSON.parse(io.stdout())).toEqual(devices.slice(0, 2));
  });

  it('nothing printed when the first page fails: stdout stays empty', async () => {
    async function* failing(): AsyncIterable<unknown> {
      throw new Error('down');
    }
    const { io, out } = output('json');
    await expect(out.list(failing(), ['hardware_id'])).rejects.toThrow('down');
    expect(io.stdout()).toBe('');
  });
});

describe('the flags, checked before the command runs', () => {
  // the API of these settings does not exist: any request would fail with exit 9, not 2
  const env = { FLEETCTL_BASE_URL: 'http://127.0.0.1:1', FLEETCTL_AUTH_URL: 'http://127.0.0.1:1', FLEETCTL_CLIENT_ID: 'c', FLEETCTL_CLIENT_SECRET: 's' };

  it.each([
    [['--slurp', 'devices', 'list'], '--slurp only applies with --jq'],
    [['--jq', '.id', '-o', 'csv', 'devices', 'list'], '--jq prints JSON values and raw strings, not csv'],
    [['--jq', '.id', '-o', 'yaml', 'fleets', 'list'], '--jq prints JSON values and raw strings, not yaml'],
    [['--jq', 'map(', 'devices', 'list'], '--jq: jq: error: syntax error'],
    [['devices', 'list', '--sort', 'name,,id'], '--sort must be fields separated by commas'],
    [['devices', 'events', 'HW-1', '--follow', '--interval', '500ms'], '--interval must be a duration'],
    [['events', 'search', '--hardware-id', 'HW-1', '--follow', '--to', '1h'], '--follow cannot be combined with --to'],
  ])('%j: exit 2, no request', async (args, message) => {
    const { runCli, tempConfigDir } = await import('../support/cli.js');
    const r = await runCli(args, { env: { ...env, FLEETCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
