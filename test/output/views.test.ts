// Resource views: a person's columns on a terminal, a script's columns when piped, every field with -o wide,
// --columns checked against the OpenAPI document, and hostile records made harmless by every renderer.
import { describe, expect, it } from 'vitest';
import { Output, type OutputFormat } from '../../src/output/render.js';
import { IOStreams } from '../../src/io/streams.js';
import { checkColumns, closestNames, viewOf, wideColumns } from '../../src/output/columns.js';
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

function output(format: OutputFormat, opts: { tty: boolean; columns?: string[]; width?: number }) {
  const io = IOStreams.forTest({ tty: opts.tty });
  (io as { columns: number | undefined }).columns = opts.width ?? 80;
  return { io, out: new Output(io, { format, columns: opts.columns }) };
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

  it('-o wide shows every field of the schema, uuids included', async () => {
    expect(wideColumns(viewOf('device'))).toEqual(Object.keys(device));
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

describe('--columns is checked against the document', () => {
  it('names the unknown columns and the closest valid ones', () => {
    expect(() => checkColumns(['hw', 'nme'], viewOf('device'))).toThrow(
      '--columns: unknown columns "hw" (did you mean hardware_id?), "nme" (did you mean name?)',
    );
    try {
      checkColumns(['constructor'], viewOf('device'));
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).hint).toContain('valid columns: id, hardware_id');
    }
  });

  it('accepts schema fields, nested paths and fields fleetctl adds', () => {
    expect(() => checkColumns(['firmware_version', 'created_at'], viewOf('device'))).not.toThrow();
    expect(() => checkColumns(['etag', 'auth_key_hint'], viewOf('webhookConfig'))).not.toThrow();
  });

  it('suggests by edits and by letters in order', () => {
    expect(closestNames('last_seen', ['last_seen_at', 'name'])).toEqual(['last_seen_at']);
    expect(closestNames('capabilites', ['capabilities', 'name'])).toEqual(['capabilities']);
    expect(closestNames('zzz', ['capabilities', 'name'])).toEqual([]);
  });

  it('a list refuses an unknown column before reading any record', async () => {
    const { out } = output('csv', { tty: false, columns: ['nmae'] });
    let pulled = false;
    async function* records() {
      pulled = true;
      yield device;
    }
    await expect(out.list(records(), viewOf('device'))).rejects.toThrow(/unknown column "nmae" \(did you mean name\?\)/);
    expect(pulled).toBe(false);
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
