import { describe, expect, it, onTestFinished } from 'vitest';
import http from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { newDevicesLastPositionCommand, devicesLastPositionRun, type DevicesLastPositionOptions } from '../../../src/commands/devices/last-position.js';
import { newDevicesMediaCommand } from '../../../src/commands/devices/media.js';
import { newDevicesMediaDownloadCommand, devicesMediaDownloadRun, type DevicesMediaDownloadOptions } from '../../../src/commands/devices/media-download.js';
import { createTransport } from '../../../src/http/transport.js';
import { silentTracer } from '../../../src/http/trace.js';
import type { Clock } from '../../../src/io/clock.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';
import { renderScreen } from '../../support/pty-screen.js';
import { tempDir as newTempDir } from '../../support/temp-dir.js';

const problem = (status: number, code: string, detail: string) => ({ type: 'about:blank', title: code, status, detail, code });
const pos = (lat: number) => ({ hardware_id: 'HW-1', latitude: lat, longitude: 2, heading: 0, speed_kph: 0, recorded_at: '2024-06-01T12:00:00Z', is_valid_gps: true });
const POSITION_PATH = '/v1/devices/HW-1/last-position';

describe('devices last-position: parse', () => {
  const cases: { argv: string[]; want?: DevicesLastPositionOptions; error?: string }[] = [
    { argv: ['HW-1'], want: { hardwareId: 'HW-1', watch: false, intervalMs: 5000 } },
    { argv: ['HW-1', '--watch', '--interval', '2s'], want: { hardwareId: 'HW-1', watch: true, intervalMs: 2000 } },
    { argv: ['HW-1', '--watch', '--interval', 'soon'], error: '--interval must be a duration such as 5s, 30m, 24h or 7d, got "soon"' },
    { argv: ['HW-1', '--interval', '2s'], error: '--interval only applies with --watch' },
  ];
  for (const c of cases) {
    it(c.argv.join(' '), async () => {
      const { run, calls } = recordRun<DevicesLastPositionOptions>();
      const promise = parseVerb(newDevicesLastPositionCommand(fakeDeps().deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls).toEqual([c.want]);
    });
  }
});

describe('devices last-position: run', () => {
  it('404 device.no_live_position reads "no live position for HW", exit 5', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: POSITION_PATH, status: 404, body: problem(404, 'device.no_live_position', 'none') }] });
    await expect(devicesLastPositionRun(f.deps, { hardwareId: 'HW-1', watch: false, intervalMs: 5000 })).rejects.toMatchObject({
      detail: 'no live position for HW-1',
      exitCode: 5,
    });
  });

  it('a 404 with a code of its own and no other member: both meanings the spec gives it; one with a detail keeps it', async () => {
    const bare = fakeDeps({ answers: [{ method: 'GET', path: POSITION_PATH, status: 404, body: { code: 'position.unavailable' } }] });
    await expect(devicesLastPositionRun(bare.deps, { hardwareId: 'HW-1', watch: false, intervalMs: 5000 })).rejects.toMatchObject({
      message: 'no live position for HW-1, or no such device',
      code: 'position.unavailable',
      exitCode: 5,
    });
    const said = fakeDeps({ answers: [{ method: 'GET', path: POSITION_PATH, status: 404, body: problem(404, 'position.unavailable', 'HW-1 has no fix yet') }] });
    await expect(devicesLastPositionRun(said.deps, { hardwareId: 'HW-1', watch: false, intervalMs: 5000 })).rejects.toMatchObject({ message: 'HW-1 has no fix yet' });
  });

  /** A clock whose sleeps record the interval; Ctrl-C (abort) comes after `polls` polls. */
  function watchDeps(tty: boolean, answers: { status?: number; body: unknown }[]) {
    const f = fakeDeps({ tty, answers: answers.map((a) => ({ method: 'GET', path: POSITION_PATH, ...a })) });
    const controller = new AbortController();
    const sleeps: number[] = [];
    const clock: Clock = {
      now: () => new Date('2024-06-01T12:00:00Z'),
      sleep: async (ms, signal) => {
        sleeps.push(ms);
        if (sleeps.length === answers.length) controller.abort(new Error('Ctrl-C'));
        if (signal?.aborted) throw signal.reason;
      },
    };
    return { f, deps: { ...f.deps, clock, signal: controller.signal }, sleeps };
  }

  it('piped: one NDJSON line per change, until Ctrl-C; a missing position is waited for', async () => {
    const { f, deps, sleeps } = watchDeps(false, [
      { status: 404, body: problem(404, 'device.no_live_position', 'none') },
      { body: pos(1) },
      { body: pos(1) },
      { body: pos(3) },
    ]);
    await devicesLastPositionRun(deps, { hardwareId: 'HW-1', watch: true, intervalMs: 2000 });
    expect(f.io.stdout()).toBe(`${JSON.stringify(pos(1))}\n${JSON.stringify(pos(3))}\n`);
    expect(f.io.stderr()).toBe('No live position for HW-1 yet; waiting.\n');
    expect(sleeps).toEqual([2000, 2000, 2000, 2000]);
    f.assertAllAnswered();
  });

  it('on a TTY: redraws the position on each change', async () => {
    const { f, deps } = watchDeps(true, [{ body: pos(1) }, { body: pos(2) }]);
    await devicesLastPositionRun(deps, { hardwareId: 'HW-1', watch: true, intervalMs: 5000 });
    const out = f.io.stdout();
    // top left, then everything below cleared (readline's cursorTo and clearScreenDown)
    expect(out.split('\u001b[1;1H\u001b[0J').length).toBe(3);
    expect(out).toContain('latitude');
    expect(f.io.stderr()).toContain('Watching HW-1 every 5 s; Ctrl-C to stop.');
  });

  it('an unknown device ends the watch with its error', async () => {
    const { deps } = watchDeps(false, [{ status: 404, body: problem(404, 'resource.not_found', 'Device HW-1 was not found.') }]);
    await expect(devicesLastPositionRun(deps, { hardwareId: 'HW-1', watch: true, intervalMs: 5000 })).rejects.toMatchObject({ exitCode: 5 });
  });
});

describe('devices media download', () => {
  it('parse: ids or --all, not both, not neither', async () => {
    const calls: DevicesMediaDownloadOptions[] = [];
    const run = async (_d: unknown, o: DevicesMediaDownloadOptions) => void calls.push(o);
    await parseVerb(newDevicesMediaDownloadCommand(fakeDeps().deps, run), ['HW-1', 'm1', 'm2', 'm1', '--dir', 'out']);
    expect(calls[0]).toMatchObject({ hardwareId: 'HW-1', mediaIds: ['m1', 'm2'], all: false, dir: 'out' });
    await expect(parseVerb(newDevicesMediaDownloadCommand(fakeDeps().deps, run), ['HW-1', 'm1', '--all'])).rejects.toThrow('give media ids or --all, not both');
    await expect(parseVerb(newDevicesMediaDownloadCommand(fakeDeps().deps, run), ['HW-1'])).rejects.toThrow('name the media ids to download, or pass --all');
    expect(newDevicesMediaCommand(fakeDeps().deps).commands.map((c) => c.name())).toEqual(['download']);
  });

  async function downloadServer() {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers);
      if (req.url?.startsWith('/_sandbox/media/m1')) {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        res.end(Buffer.alloc(70_000, 7));
      } else if (req.url?.startsWith('/_sandbox/media/cut')) {
        // the connection drops half way through the file
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '70000' });
        res.write(Buffer.alloc(1000, 7), () => res.socket?.destroy());
      } else if (req.url?.startsWith('/_sandbox/media/m2')) {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end('jpeg-bytes');
      } else {
        res.writeHead(403, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify(problem(403, 'media.signature_invalid', 'The download link has expired.')));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { origin, seen };
  }

  const tempDir = () => newTempDir('media-');

  const item = (id: string, name: string, origin: string) => ({
    id,
    hardware_id: 'HW-1',
    file_name: name,
    mime_type: 'video/mp4',
    size_bytes: 70_000,
    download_url: `${origin}/_sandbox/media/${id}?expires=1&signature=abc`,
  });

  it.each([true, false])('streams each file to a temp name then renames; no Authorization reaches the download host (tty %s)', async (tty) => {
    const { origin, seen } = await downloadServer();
    const dir = path.join(tempDir(), 'nested');
    const f = fakeDeps({
      tty,
      answers: [
        { method: 'GET', path: '/v1/devices/HW-1/media?limit=500', body: { data: [item('m1', '../../evil.mp4', origin), item('m3', 'x.mp4', origin), item('m2', 'b.jpg', origin)], next_cursor: null, has_more: false } },
      ],
    });
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    await devicesMediaDownloadRun({ ...f.deps, transport: async () => transport }, { hardwareId: 'HW-1', mediaIds: ['m1', 'm2'], all: false, dir, window: {} });
    expect(readdirSync(dir).sort()).toEqual(['b.jpg', 'evil.mp4']);
    expect(readFileSync(path.join(dir, 'evil.mp4')).length).toBe(70_000);
    expect(readFileSync(path.join(dir, 'b.jpg'), 'utf8')).toBe('jpeg-bytes');
    expect(seen).toHaveLength(2);
    for (const headers of seen) {
      expect(headers.authorization).toBeUndefined();
      expect(headers.cookie).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain('test-token');
    }
    // the API call itself did carry the token
    expect(f.sent[0]!.headers.authorization).toBe('Bearer test-token');
    if (!tty) {
      expect(f.io.stdout()).toBe(`media_id\tpath\tsize_bytes\nm1\t${path.join(dir, 'evil.mp4')}\t70000\nm2\t${path.join(dir, 'b.jpg')}\t10\n`);
      expect(f.io.stderr()).toBe(`Downloaded 2 files to ${dir}.\n`);
    } else {
      // one finished line per file, as a terminal shows them
      const finished = await renderScreen(f.io.stderr(), { cols: 120, rows: 10 });
      expect(finished[0]).toMatch(/^evil\.mp4 {2}█{30} {2}100% {2}68\.4 KiB\/68\.4 KiB( {2}[\d.]+ [KM]?i?B\/s)? {2}in \ds$/); // a rate once a second has passed
      expect(finished[1]).toMatch(/^b\.jpg {2}[█░]{30} {2}\d+% {2}10 B\/68\.4 KiB /); // the record's size_bytes: no Content-Length
      expect(finished[2]).toBe(`Downloaded 2 files to ${dir}.`);
    }
  });

  it('items shaped otherwise: the id, the signed URL (nested too) and the file name are read from the records', async () => {
    const { origin, seen } = await downloadServer();
    const dir = tempDir();
    const data = [
      // a reference for an id, the link nested under its own object, no file name: the URL's last segment
      { media_ref: 'md-1', hw: 'HW-1', thumbnail_url: `${origin}/thumb/md-1.png`, signed_url: { href: `${origin}/_sandbox/media/m1/clip%20one.mp4?sig=x`, valid_until: '2026-11-26T06:00:00Z' } },
      // camelCase, as webhook payloads are
      { mediaId: 'md-2', fileName: 'still.jpg', downloadUrl: `${origin}/_sandbox/media/m2?sig=y` },
    ];
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-1/media?limit=500', body: { data, next_cursor: null, has_more: false } }] });
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    await devicesMediaDownloadRun({ ...f.deps, transport: async () => transport }, { hardwareId: 'HW-1', mediaIds: ['md-1', 'md-2'], all: false, dir, window: {} });
    expect(readdirSync(dir).sort()).toEqual(['clip one.mp4', 'still.jpg']);
    expect(readFileSync(path.join(dir, 'clip one.mp4')).length).toBe(70_000);
    // the thumbnail was never fetched: two downloads, the two links
    expect(seen).toHaveLength(2);
    expect(f.io.stdout()).toBe(`media_id\tpath\tsize_bytes\nmd-1\t${path.join(dir, 'clip one.mp4')}\t70000\nmd-2\t${path.join(dir, 'still.jpg')}\t10\n`);
  });

  it('a signed URL answering 302 to another origin (a blob store) is followed, and no Authorization reaches either host', async () => {
    const blobSeen: http.IncomingHttpHeaders[] = [];
    const blob = http.createServer((req, res) => {
      blobSeen.push(req.headers);
      res.writeHead(req.url === '/blob/abc?sas=1' ? 200 : 404, { 'content-type': 'video/mp4' });
      res.end(req.url === '/blob/abc?sas=1' ? Buffer.alloc(5000, 3) : '');
    });
    await new Promise<void>((resolve) => blob.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => blob.close(() => resolve())));
    const blobOrigin = `http://127.0.0.1:${(blob.address() as AddressInfo).port}`;
    const seen: http.IncomingHttpHeaders[] = [];
    const signer = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(302, { location: `${blobOrigin}/blob/abc?sas=1` });
      res.end();
    });
    await new Promise<void>((resolve) => signer.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => signer.close(() => resolve())));
    const origin = `http://127.0.0.1:${(signer.address() as AddressInfo).port}`;
    const dir = tempDir();
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-1/media?limit=500', body: { data: [item('m1', 'moved.mp4', origin)], next_cursor: null, has_more: false } }] });
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    await devicesMediaDownloadRun({ ...f.deps, transport: async () => transport }, { hardwareId: 'HW-1', mediaIds: ['m1'], all: false, dir, window: {} });
    expect(readFileSync(path.join(dir, 'moved.mp4'))).toEqual(Buffer.alloc(5000, 3));
    expect([seen.length, blobSeen.length]).toEqual([1, 1]);
    for (const headers of [...seen, ...blobSeen]) expect(headers.authorization).toBeUndefined();
    expect(f.sent[0]!.headers.authorization).toBe('Bearer test-token');
  });

  it('an item with no URL at all is an invalid answer (exit 9) before anything is downloaded', async () => {
    const { origin, seen } = await downloadServer();
    const data = [item('m1', 'a.mp4', origin), { id: 'm9', file_name: 'b.mp4', note: 'not ready' }];
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-1/media?limit=500', body: { data, next_cursor: null, has_more: false } }] });
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    await expect(devicesMediaDownloadRun({ ...f.deps, transport: async () => transport }, { hardwareId: 'HW-1', mediaIds: [], all: true, dir: tempDir(), window: {} })).rejects.toMatchObject({
      name: 'InvalidResponseError',
      message: 'media item "m9" carries no download URL',
      exitCode: 9,
    });
    expect(seen).toHaveLength(0);
  });

  it('an unknown media id fails before any download (exit 5); a refused link leaves no partial file', async () => {
    const { origin, seen } = await downloadServer();
    const dir = tempDir();
    const list = { method: 'GET', path: '/v1/devices/HW-1/media?limit=500', body: { data: [item('m1', 'a.mp4', origin), item('m4', 'gone.mp4', origin)], next_cursor: null, has_more: false } };
    const f = fakeDeps({ answers: [list, list] });
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    const deps = { ...f.deps, transport: async () => transport };
    await expect(devicesMediaDownloadRun(deps, { hardwareId: 'HW-1', mediaIds: ['m1', 'nope'], all: false, dir, window: {} })).rejects.toMatchObject({
      exitCode: 5,
      detail: 'no media "nope" for device HW-1',
    });
    expect(seen).toHaveLength(0);
    await expect(devicesMediaDownloadRun(deps, { hardwareId: 'HW-1', mediaIds: [], all: true, dir, window: {} })).rejects.toMatchObject({
      exitCode: 4,
      detail: 'download of media m4 failed with HTTP 403: The download link has expired.',
    });
    expect(readdirSync(dir)).toEqual(['a.mp4']);
  });

  it('a connection cut mid-file is a network failure (exit 9) and leaves no partial file', async () => {
    const { origin } = await downloadServer();
    const dir = tempDir();
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/v1/devices/HW-1/media?limit=500', body: { data: [item('cut', 'c.mp4', origin)], next_cursor: null, has_more: false } }] });
    const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer });
    await expect(devicesMediaDownloadRun({ ...f.deps, transport: async () => transport }, { hardwareId: 'HW-1', mediaIds: ['cut'], all: false, dir, window: {} })).rejects.toMatchObject({
      exitCode: 9,
      message: expect.stringContaining('download of media cut to '),
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a --dir that is a file is refused before any request (exit 2)', async () => {
    const file = path.join(tempDir(), 'not-a-dir');
    writeFileSync(file, '');
    const f = fakeDeps();
    const { run, calls } = recordRun<DevicesMediaDownloadOptions>();
    await expect(parseVerb(newDevicesMediaDownloadCommand(f.deps, run), ['HW-1', '--all', '--dir', file])).rejects.toMatchObject({
      exitCode: 2,
      message: `--dir ${file} is not a directory`,
    });
    await expect(parseVerb(newDevicesMediaDownloadCommand(f.deps, run), ['HW-1', '--all', '--dir', path.join(file, 'sub')])).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^--dir .*not-a-dir\/sub cannot be used: ENOTDIR/),
    });
    expect(calls).toEqual([]);
    // and a directory that cannot be created, found only once the run starts, is exit 2 too, before any download
    await expect(devicesMediaDownloadRun(f.deps, { hardwareId: 'HW-1', mediaIds: [], all: true, dir: path.join(file, 'sub'), window: {} })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^cannot use --dir .*not-a-dir\/sub: cannot create .*not-a-dir\/sub: .*not-a-dir exists and is not a directory$/),
    });
    expect(f.sent).toEqual([]);
  });
});
