// Resource views: a person's columns on a terminal, a script's columns when piped (both preferences, kept when the
// records carry them), every field the records carry with -o wide, --columns checked against the records and the
// API document, and hostile records made harmless by every renderer.
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/output/render.js';
import type { OutputFormat } from '../../src/output/writers/registry.js';
import { IOStreams } from '../../src/io/streams.js';
import { viewOf } from '../../src/output/columns.js';
import { closestNames } from '../../src/shared/did-you-mean.js';
import { UsageError } from '../../src/errors.js';
import { displayWidth } from '../../src/output/text-width.js';

const device = {
  id: '2e7f6c1f-1dae-45ed-a366-adae182c1269',
  hardware_id: 'HW-000001',
  organization_id: '0aa6a1c2-de0e-40a9-adff-8a4f5a043fc9',
  fleet_id: 'a82784ac-01c6-42cf-869c-62428c14904b',
  vehicle_id: null,
  name: 'Truck 0001 unit',
  model: 'FT-310 Dashcam',
  firmware_version: '4.1.0',
  capabilities: ['reboot', 'wake_up'],
  last_seen_at: '2026-11-21T03:36:00.000Z',
  created_at: '2024-01-01T00:00:00.000Z',
};

function output(format: OutputFormat, opts: { tty: boolean; columns?: string[]; width?: number; declared?: string[] }) {
  const io = IOStreams.forTest({ tty: opts.tty });
  (io as { columns: number | undefined }).columns = opts.width ?? 80;
  const declaredFields = opts.declared ? async () => new Set(opts.declared) : undefined;
  return { io, out: new Output(io, { format, columns: opts.columns, declaredFields }) };
}

const ESC = '\u001b';

describe('which columns', () => {
  it('a terminal shows the person columns, with times to the minute', async () => {
    const { io, out } = output('table', { tty: true });
    await out.list([device], viewOf('device'));
    const text = io.stdout();
    expect(text).toContain('HARDWARE ID');
    expect(text).toContain('2026-11-21 03:36');
    expect(text).not.toContain(device.id);
    expect(text).not.toContain('FLEET ID');
  });

  it('a pipe keeps the script columns, exact values', async () => {
    const { io, out } = output('table', { tty: false });
    await out.list([device], viewOf('device'));
    const [header, row] = io.stdout().split('\n');
    expect(header).toBe('id\thardware_id\tname\tmodel\tfleet_id\tvehicle_id\tcapabilities\tlast_seen_at');
    expect(row).toContain('2026-11-21T03:36:00.000Z');
  });

  it('csv keeps the script columns', async () => {
    const { io, out } = output('csv', { tty: true });
    await out.list([device], viewOf('device'));
    expect(io.stdout().split('\n')[0]).toBe('id,hardware_id,name,model,fleet_id,vehicle_id,capabilities,last_seen_at');
  });

  it('-o wide shows every field the records carry, uuids included', async () => {
    const { io, out } = output('wide', { tty: false });
    await out.list([device], viewOf('device'));
    expect(io.stdout().split('\n')[0]).toBe(Object.keys(device).join('\t'));
  });

  it.each([80, 120, 200])('a terminal table fits %i columns', async (width) => {
    const { io, out } = output('wide', { tty: true, width });
    await out.list([device, { ...device, name: '東京のトラック🚚'.repeat(4) }], viewOf('device'));
    for (const line of io.stdout().trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(width);
  });
});

describe('--columns is checked against the records and the document', () => {
  it('names the fields no record carries and the document does not describe, with the closest ones', async () => {
    const { io, out } = output('csv', { tty: false, columns: ['hw', 'nme'], declared: [] });
    const listing = out.list([device], viewOf('device'));
    await expect(listing).rejects.toThrow('--columns: no record has the fields "hw" (did you mean hardware_id?), "nme" (did you mean name?)');
    await listing.catch((error: UsageError) => {
      expect(error).toBeInstanceOf(UsageError);
      expect(error.hint).toContain('fields these records carry: id, hardware_id');
    });
    // refused on the first records, before the header: a script gets data or nothing
    expect(io.stdout()).toBe('');
  });

  it.each(['csv', 'table'] as const)('piped %s: refused on the first page, before any byte of it, though more pages follow', async (format) => {
    const { io, out } = output(format, { tty: false, columns: ['hardware_id', 'nosuchcol'], declared: [] });
    // the first page (what is there at once) decides: a later page is not waited for
    async function* pages() {
      yield { ...device, hardware_id: 'HW-1' };
      yield { ...device, hardware_id: 'HW-2' };
      await new Promise((resolve) => setTimeout(resolve, 20));
      yield { ...device, hardware_id: 'HW-3', nosuchcol: 'late' };
    }
    await expect(out.list(pages(), viewOf('device'))).rejects.toThrow(/--columns: no record has the field "nosuchcol"/);
    expect(io.stdout()).toBe('');
  });

  it('accepts a field the records carry that the document does not know', async () => {
    const { io, out } = output('csv', { tty: false, columns: ['hardware_id', 'serial'], declared: ['hardware_id'] });
    await out.list([{ hardware_id: 'HW-1', serial: 'S-9' }], viewOf('device'));
    expect(io.stdout()).toBe('hardware_id,serial\nHW-1,S-9\n');
  });

  it('accepts a field the document describes that these records leave out', async () => {
    const { io, out } = output('csv', { tty: false, columns: ['hardware_id', 'vin'], declared: ['hardware_id', 'vin'] });
    await out.list([{ hardware_id: 'HW-1' }], viewOf('device'));
    expect(io.stdout()).toBe('hardware_id,vin\nHW-1,\n');
  });

  it('a terminal table refuses an unknown field before drawing anything', async () => {
    const { io, out } = output('table', { tty: true, columns: ['nmae'], declared: [] });
    await expect(out.list([device], viewOf('device'))).rejects.toThrow(/"nmae" \(did you mean name\?\)/);
    expect(io.stdout()).toBe('');
  });

  it('one record: a field it carries is shown, an unknown one refused before printing', async () => {
    const shown = output('table', { tty: false, columns: ['serial'], declared: [] });
    await shown.out.object({ id: device.id, serial: 'S-9' }, viewOf('device'));
    expect(shown.io.stdout()).toBe('serial\tS-9\n');
    const refused = output('table', { tty: false, columns: ['serail'], declared: [] });
    await expect(refused.out.object({ id: device.id, serial: 'S-9' }, viewOf('device'))).rejects.toThrow(/did you mean serial\?/);
    expect(refused.io.stdout()).toBe('');
  });

  it('suggests by edits and by letters in order', () => {
    expect(closestNames('last_seen', ['last_seen_at', 'name'])).toEqual(['last_seen_at']);
    expect(closestNames('capabilites', ['capabilities', 'name'])).toEqual(['capabilities']);
    expect(closestNames('zzz', ['capabilities', 'name'])).toEqual([]);
  });
});

describe('records shaped otherwise than fleetctl guessed', () => {
  const fleets = [
    { id: 'a82784ac-01c6-42cf-869c-62428c14904b', title: 'HQ Delivery', org: { ref: 'o-1', region: 'eu' }, opened_at: '2024-03-01T10:00:00Z' },
    { id: '7c15271b-0dbd-475c-bb7b-eb84cf965290', title: 'Long Haul', org: { ref: 'o-2', region: 'us' }, opened_at: '2024-04-01T10:00:00Z' },
  ];

  it('a terminal table leaves out the columns no record carries and fills from the records', async () => {
    const { io, out } = output('table', { tty: true });
    await out.list(fleets, viewOf('fleet'));
    const [, header] = io.stdout().replace(/\u001b\[\d+m/g, '').split('\n');
    expect(header!.split('│').map((cell) => cell.trim()).filter(Boolean)).toEqual(['ID', 'TITLE', 'OPENED AT']);
    expect(io.stdout()).toContain('2024-03-01 10:00');
    expect(io.stdout()).toContain(fleets[1]!.id);
  });

  it('piped, the script columns the records carry come first, then the rule', async () => {
    const { io, out } = output('table', { tty: false });
    await out.list(fleets, viewOf('fleet'));
    expect(io.stdout().split('\n')[0]).toBe('id\ttitle\topened_at\torg');
    expect(io.stdout()).not.toMatch(/undefined|\[object Object\]/);
    expect(io.stdout()).toContain('{"ref":"o-1","region":"eu"}');
  });

  it('-o wide shows every field any record carries, nested members dotted', async () => {
    const { io, out } = output('wide', { tty: false });
    await out.list([fleets[0], { ...fleets[1], extra: true }], viewOf('fleet'));
    expect(io.stdout().split('\n')[0]).toBe('id\ttitle\torg.ref\torg.region\topened_at\textra');
  });

  it('-o wide wider than the terminal shows one block per record, identifiers whole', async () => {
    const wide = { ...fleets[0], notes: 'n'.repeat(60), key: 'k'.repeat(70) };
    const { io, out } = output('wide', { tty: true, width: 80 });
    await out.list([wide, fleets[1]], viewOf('fleet'));
    const text = io.stdout().replace(/\u001b\[\d+m/g, '');
    expect(text).toContain('-[ RECORD 1 ]');
    expect(text).toContain('-[ RECORD 2 ]');
    expect(text).toContain('k'.repeat(70));
    for (const line of text.trimEnd().split('\n')) if (!line.includes('k'.repeat(70))) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it('nothing is cut: the run key is said once, status and code whole', async () => {
    const { io, out } = output('table', { tty: true, width: 80 });
    const results = [{ hardware_id: 'HW-000001', status: 'failed', http_status: 422, code: 'device.capability_missing', idempotency_key: 'fleetctl-run-2026-11-25T21-08-00Z-abcdef-HW-000001' }];
    await out.list(results, viewOf('deviceCommandResult'));
    expect(io.stdout()).toContain('device.capability_missing');
    expect(io.stdout()).not.toContain('…');
    expect(io.stderr()).toContain('keys: fleetctl-run-2026-11-25T21-08-00Z-abcdef-<hardware id>');
  });
});

describe('hostile records are made harmless by every renderer', () => {
  const hostile = { ...device, name: `${ESC}]0;pwned\u0007 ${ESC}[2J\u009b31m\u007f`, model: 'line\nbreak\ttab' };

  it.each([
    ['table', true],
    ['table', false],
    ['wide', true],
    ['csv', false],
  ] as const)('%s (tty %s) list shows escapes, never sends them', async (format, tty) => {
    const { io, out } = output(format, { tty, width: 400 });
    await out.list([hostile], viewOf('device'));
    const text = io.stdout().replace(/\u001b\[(1|22)m/g, '');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('\\x1b]0;pwned\\x07');
  });

  it.each([
    ['table', true],
    ['table', false],
    ['csv', false],
  ] as const)('%s (tty %s) record shows escapes, never sends them', async (format, tty) => {
    const { io, out } = output(format, { tty });
    await out.object(hostile);
    const text = io.stdout().replace(/\u001b\[(2|22)m/g, '');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('\\x1b[2J');
  });

  it.each(['json', 'ndjson'] as const)('%s keeps them as JSON escapes', async (format) => {
    const { io, out } = output(format, { tty: false });
    await out.list([hostile], viewOf('device'));
    expect(io.stdout()).not.toContain(ESC);
    expect(io.stdout()).toContain('\\u001b]0;pwned\\u0007');
    const parsed = JSON.parse(format === 'json' ? io.stdout() : io.stdout().trim());
    expect((Array.isArray(parsed) ? parsed[0] : parsed).name).toBe(hostile.name);
  });
});
