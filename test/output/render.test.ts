// The output layer: table (TTY: box drawing and colour; piped: TSV with a header), json, ndjson, csv.
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/output/render.js';
import { parseOutputFormat, type OutputFormat } from '../../src/output/writers/registry.js';
import { IOStreams, type TerminalEnv } from '../../src/io/streams.js';
import { ANSI } from '../support/cli.js';

const fleets = [
  { id: 'f1', name: 'North', organization: { id: 'o1', name: 'Acme' }, tags: ['a', 'b'] },
  { id: 'f2', name: 'South, "big"', organization: { id: 'o2' }, extra_field: 42 },
];
const COLUMNS = ['id', 'name', 'organization.name'];

function output(format: OutputFormat, opts: { tty: boolean; env?: TerminalEnv; columns?: string[]; noColor?: boolean }) {
  const io = IOStreams.forTest({ tty: opts.tty, env: opts.env });
  io.noColor = opts.noColor ?? false;
  return { io, out: new Output(io, { format, columns: opts.columns }) };
}

async function* pages<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

describe('lists', () => {
  it('piped table: TSV with a header, no ANSI, no truncation, missing fields empty', async () => {
    const { io, out } = output('table', { tty: false });
    const long = 'x'.repeat(300);
    expect(await out.list([...fleets, { id: 'f3', name: long }], COLUMNS)).toBe(3);
    expect(io.stdout()).toBe(`id\tname\torganization.name\nf1\tNorth\tAcme\nf2\tSouth, "big"\t\nf3\t${long}\t\n`);
    expect(io.stderr()).toBe('');
  });

  it('piped table of nothing: just the header', async () => {
    const { io, out } = output('table', { tty: false });
    await out.list([], COLUMNS);
    expect(io.stdout()).toBe('id\tname\torganization.name\n');
  });

  it('TTY table: box drawing and a coloured header', async () => {
    const { io, out } = output('table', { tty: true });
    await out.list(fleets, COLUMNS);
    expect(io.stdout()).toMatch(/[┌─┬┐│└┘]/);
    expect(io.stdout()).toContain('\u001b[1mORGANIZATION NAME\u001b[22m');
    expect(io.stdout()).toContain('Acme');
  });

  it('TTY table of nothing: "No results." on stderr, stdout empty', async () => {
    const { io, out } = output('table', { tty: true });
    await out.list([], COLUMNS);
    expect(io.stdout()).toBe('');
    expect(io.stderr()).toBe('No results.\n');
  });

  it.each([
    ['NO_COLOR', { env: { NO_COLOR: '1' } }],
    ['--no-color', { noColor: true }],
    ['TERM=dumb', { env: { TERM: 'dumb' } }],
  ])('TTY table with %s: box drawing, no ANSI', async (_name, opts) => {
    const { io, out } = output('table', { tty: true, ...opts });
    await out.list(fleets, COLUMNS);
    expect(io.stdout()).toMatch(/┌/);
    expect(io.stdout()).not.toMatch(ANSI);
  });

  it.each([true, false])('json (tty %s): an array of whole items, fields the table does not show included', async (tty) => {
    const { io, out } = output('json', { tty, columns: ['id'] });
    await out.list(pages(fleets), COLUMNS);
    expect(JSON.parse(io.stdout())).toEqual(fleets);
    expect(io.stdout()).not.toMatch(ANSI);
  });

  it.each(['json', 'ndjson'] as const)('%s piped: C1 controls, DEL and bidi overrides in a record are escaped, the value unchanged', async (format) => {
    // JSON.stringify leaves these raw; a record from outside may carry them (0x9b is a CSI to many terminals)
    const hostile = [{ id: 'f1', name: 'a\u009b31mb\u007f\u202ec' }];
    const { io, out } = output(format, { tty: false });
    await out.list(hostile, COLUMNS);
    expect(io.stdout()).not.toMatch(/[\u007f-\u009f\u202e]/);
    expect(io.stdout()).toContain('\\u009b31m');
    expect(io.stdout().trim().split('\n').length > 0 && (format === 'json' ? JSON.parse(io.stdout()) : [JSON.parse(io.stdout())])).toEqual(hostile);
  });

  it('json of an empty list is []', async () => {
    const { io, out } = output('json', { tty: false });
    await out.list([], COLUMNS);
    expect(JSON.parse(io.stdout())).toEqual([]);
  });

  it.each([true, false])('ndjson (tty %s): one item a line', async (tty) => {
    const { io, out } = output('ndjson', { tty });
    await out.list(pages(fleets), COLUMNS);
    expect(io.stdout().trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(fleets);
  });

  it.each([true, false])('csv (tty %s): header, quoting, dotted paths, missing fields empty', async (tty) => {
    const { io, out } = output('csv', { tty, columns: ['id', 'name', 'organization.name', 'tags', 'nope.deeper'] });
    // no columns named (an api answer): a name no record carries is only warned of
    await out.list(fleets, []);
    expect(io.stdout()).toBe('id,name,organization.name,tags,nope.deeper\nf1,North,Acme,"a,b",\nf2,"South, ""big""",,,\n');
  });

  it('--columns picks dotted paths in a piped table', async () => {
    const { io, out } = output('table', { tty: false, columns: ['organization.id', 'name'] });
    await out.list(fleets, COLUMNS);
    expect(io.stdout()).toBe('organization.id\tname\no1\tNorth\no2\tSouth, "big"\n');
  });

  it('cells with tabs or newlines stay on one TSV row', async () => {
    const { io, out } = output('table', { tty: false });
    await out.list([{ id: 'a\tb', name: 'line1\nline2' }], ['id', 'name']);
    expect(io.stdout()).toBe('id\tname\na b\tline1 line2\n');
  });
});

describe('one resource', () => {
  const device = { id: 'd1', name: 'Van', capabilities: ['reboot'], vehicle: { id: 'v1', plate: 'AB-12' }, last_seen_at: null };

  it('json: the object itself', async () => {
    const { io, out } = output('json', { tty: false });
    await out.object(device);
    expect(JSON.parse(io.stdout())).toEqual(device);
  });

  it('piped table: FIELD<TAB>VALUE rows with dotted keys', async () => {
    const { io, out } = output('table', { tty: false });
    await out.object(device);
    expect(io.stdout()).toBe('id\td1\nname\tVan\ncapabilities\treboot\nvehicle.id\tv1\nvehicle.plate\tAB-12\nlast_seen_at\t\n');
  });

  it('TTY table: box drawing', async () => {
    const { io, out } = output('table', { tty: true });
    await out.object(device);
    expect(io.stdout()).toMatch(/┌/);
    expect(io.stdout()).toContain('AB-12');
  });

  it('csv and ndjson', async () => {
    const csv = output('csv', { tty: false, columns: ['id', 'vehicle.plate', 'missing'] });
    await csv.out.object(device);
    expect(csv.io.stdout()).toBe('id,vehicle.plate,missing\nd1,AB-12,\n');
    const nd = output('ndjson', { tty: false });
    await nd.out.object(device);
    expect(nd.io.stdout()).toBe(`${JSON.stringify(device)}\n`);
  });
});

it('an unknown format is a usage error', () => {
  expect(() => parseOutputFormat('xml')).toThrow(/invalid output format "xml"/);
});

describe('a reader slower than the API', () => {
  it('streams wait for the reader: items are not pulled (nor buffered) ahead of what it has taken', async () => {
    const { Writable, PassThrough } = await import('node:stream');
    const pending: (() => void)[] = [];
    let received = '';
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.toString();
        pending.push(() => done());
      },
    });
    const io = new IOStreams({ out: slow, err: new PassThrough(), in: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, env: {} });
    let pulled = 0;
    async function* many(): AsyncIterable<unknown> {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield { id: `d${i}`, name: 'x'.repeat(100) };
      }
    }
    for (const format of ['ndjson', 'json', 'csv', 'table'] as const) {
      pulled = 0;
      received = '';
      const listing = new Output(io, { format }).list(many(), ['id', 'name']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(pulled, format).toBeLessThan(5);
      while (pending.length > 0 || pulled < 1000) {
        pending.splice(0).forEach((release) => release());
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await listing).toBe(1000);
      pending.splice(0).forEach((release) => release());
      expect(received).toContain('d999');
    }
  });
});

describe('--columns naming a field no record has', () => {
  it('rows in columns fleetctl names: a name that is none of them is refused before any byte, with the closest one', async () => {
    for (const format of ['csv', 'table'] as const) {
      const { io, out } = output(format, { tty: false, columns: ['id', 'nmae', 'organization.name'] });
      await expect(out.list(pages(fleets), COLUMNS)).rejects.toThrow('--columns: these rows have no field "nmae" (did you mean name?)');
      expect(io.stdout()).toBe('');
    }
  });

  it('records with no columns named (an api answer): the column stays empty and stderr warns once, naming it', async () => {
    const { io, out } = output('csv', { tty: false, columns: ['id', 'nmae', 'organization.name'] });
    expect(await out.list(pages(fleets), [])).toBe(2);
    expect(io.stdout()).toBe('id,nmae,organization.name\nf1,,Acme\nf2,,\n');
    expect(io.stderr()).toBe('Warning: --columns: no record has a field "nmae"; check the spelling (nested fields are dotted, such as delivery.url; -o json shows every field)\n');
  });

  it('lists: a field that only some records have, or that is null, is not warned about; nor is an empty list', async () => {
    const { io, out } = output('table', { tty: false, columns: ['id', 'extra_field'] });
    await out.list([...fleets, { id: 'f3', extra_field: null }], COLUMNS);
    await out.list([], COLUMNS);
    expect(io.stderr()).toBe('');
  });

  it('one object: warns about each absent field', async () => {
    const { io, out } = output('table', { tty: false, columns: ['id', 'x', 'y.z'] });
    await out.object(fleets[0]);
    expect(io.stderr()).toContain('no record has fields "x", "y.z"');
  });

  it('json and ndjson ignore --columns, so they never warn', async () => {
    const { io, out } = output('ndjson', { tty: false, columns: ['nmae'] });
    await out.list(fleets, COLUMNS);
    expect(io.stderr()).toBe('');
  });
});
