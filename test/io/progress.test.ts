import { describe, expect, it } from 'vitest';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { formatBytes, progressLine, startProgress, type ProgressState } from '../../src/io/progress.js';
import { formatDuration } from '../../src/shared/duration.js';
import { IOStreams } from '../../src/io/streams.js';
import { createTheme } from '../../src/io/theme.js';
import type { ShowSpinner } from '../../src/io/spinner.js';
import { renderScreen } from '../support/pty-screen.js';

const plain = createTheme(0);
const line = (state: Partial<ProgressState>, columns = 120, theme = plain) =>
  progressLine({ label: 'reboot', done: 0, unit: 'items', elapsedMs: 0, finished: false, ...state }, { columns, theme, width: stringWidth });

describe('the progress line', () => {
  it('bar, percentage, count, failures, rate and time left', () => {
    expect(line({ done: 12, total: 40, failed: 2, elapsedMs: 4000 })).toBe(
      `reboot  ${'█'.repeat(9)}${'░'.repeat(21)}  30%  12/40  2 failed  3.0/s  ETA 10s`,
    );
  });

  it('at 0: an empty bar, no rate and no time yet', () => {
    expect(line({ done: 0, total: 40, failed: 0 })).toBe(`reboot  ${'░'.repeat(30)}  0%  0/40  0 failed`);
  });

  it('finished: the full bar and how long it took', () => {
    expect(line({ done: 40, total: 40, failed: 1, elapsedMs: 65_000, finished: true })).toBe(
      `reboot  ${'█'.repeat(30)}  100%  40/40  1 failed  0.6/s  in 1m05s`,
    );
  });

  it('bytes: sizes and a byte rate; an unknown total has no bar and no time left', () => {
    expect(line({ label: 'clip.mp4', unit: 'bytes', done: 512 * 1024, total: 2 * 1024 * 1024, elapsedMs: 1000 })).toBe(
      `clip.mp4  ${'█'.repeat(8)}${'░'.repeat(22)}  25%  512.0 KiB/2.0 MiB  512.0 KiB/s  ETA 3s`,
    );
    expect(line({ label: 'clip.mp4', unit: 'bytes', done: 3000, elapsedMs: 2000 })).toBe('clip.mp4  2.9 KiB  1.5 KiB/s');
  });

  it.each([200, 120, 80, 60, 40, 30, 20])('fits %i columns (the last one left free)', (columns) => {
    const text = line({ label: 'wake-up', done: 1234, total: 5000, failed: 17, elapsedMs: 61_000 }, columns);
    expect(stringWidth(text)).toBeLessThanOrEqual(columns - 1);
    expect(text).toContain('1234/5000');
  });

  it('gives way in order: the bar shrinks, then goes, then the rate, the time, the percentage, the failures; the label is cut last', () => {
    const state = { label: 'wake-up', done: 1234, total: 5000, failed: 17, elapsedMs: 61_000 };
    expect(line(state, 80)).toMatch(/^wake-up {2}[█░]{24} {2}24% {2}1234\/5000 {2}17 failed {2}20\.2\/s {2}ETA 3m07s$/);
    expect(line(state, 60)).toBe('wake-up  24%  1234/5000  17 failed  20.2/s  ETA 3m07s');
    expect(line(state, 50)).toBe('wake-up  24%  1234/5000  17 failed  ETA 3m07s');
    expect(line(state, 40)).toBe('wake-up  24%  1234/5000  17 failed');
    expect(line(state, 34)).toBe('wake-up  1234/5000  17 failed');
    expect(line(state, 28)).toBe('wake-up  1234/5000');
    expect(line(state, 15)).toBe('wa…  1234/5000');
  });

  it('a long or wide label is cut with an ellipsis by display width, never inside a surrogate pair', () => {
    const text = line({ label: '車両の映像ファイル-2024-06-01-😀😀😀.mp4', unit: 'bytes', done: 10, total: 100, elapsedMs: 1000 }, 30);
    expect(stringWidth(text)).toBeLessThanOrEqual(29);
    expect(text).toBe('車両の映像ファイ…  10 B/100 B');
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('a label from outside cannot move the cursor', () => {
    expect(line({ label: 'evil\u001b[2J.mp4', unit: 'bytes', done: 1 })).toMatch(/^evil\\x1b\[2J\.mp4 {2}1 B/);
  });

  it('painted by the palette when colour is on: the bar cyan, failures red, the rest of the bar dim', () => {
    const coloured = line({ done: 1, total: 2, failed: 1, elapsedMs: 1000 }, 120, createTheme(1));
    expect(coloured).toContain(`\u001b[36m${'█'.repeat(15)}\u001b[39m`);
    expect(coloured).toContain('\u001b[31m1 failed\u001b[39m');
    expect(coloured).toContain('\u001b[1mreboot\u001b[22m');
    expect(line({ done: 0, total: 2, failed: 0 }, 120, createTheme(1))).toContain(' 0 failed');
  });

  it('sizes and durations read naturally', () => {
    expect([0, 1023, 1024, 5 * 1024 * 1024, 3 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '1023 B', '1.0 KiB', '5.0 MiB', '3.0 GiB']);
    expect([0, 400, 42_000, 185_000, 7_620_000].map(formatDuration)).toEqual(['0s', '1s', '42s', '3m05s', '2h07m']);
  });
});

describe('startProgress on stderr', () => {
  const frames = (stderr: string) => stderr.split('\u001b[1G\u001b[2K').slice(1).map(stripVTControlCharacters);

  it('draws at once, redraws at most every 100 ms (the last count always), ends with its final figures and a newline', async () => {
    const io = IOStreams.forTest({ tty: true });
    let now = 0;
    const progress = await startProgress(io, { label: 'reboot', total: 4, now: () => now });
    now = 50;
    progress.update(1, 0); // too soon after the first drawing
    now = 150;
    progress.update(2, 1);
    now = 160;
    progress.update(3, 1); // too soon
    now = 170;
    progress.update(4, 1); // the last one always is
    now = 2000;
    progress.finish();
    const drawn = frames(io.stderr());
    expect(drawn).toHaveLength(4);
    expect(drawn[0]).toBe(`reboot  ${'░'.repeat(30)}  0%  0/4`);
    // 150 ms in: too soon for a rate or a time left (2 in 150 ms is no pace to tell)
    expect(drawn[1]).toBe(`reboot  ${'█'.repeat(15)}${'░'.repeat(15)}  50%  2/4  1 failed`);
    expect(drawn[2]).toMatch(/  100%  4\/4  1 failed$/);
    expect(drawn[3]).toBe(`reboot  ${'█'.repeat(30)}  100%  4/4  1 failed  2.0/s  in 2s\n`);
    expect(io.stdout()).toBe('');
    expect(await renderScreen(io.stderr())).toEqual([`reboot  ${'█'.repeat(30)}  100%  4/4  1 failed  2.0/s  in 2s`]);
  });

  it('a rate and a time left only after a second: not "466.7/s" for 56 items in 120 ms', async () => {
    const io = IOStreams.forTest({ tty: true });
    let now = 0;
    const progress = await startProgress(io, { label: 'devices', total: 500, now: () => now });
    now = 120;
    progress.update(56);
    now = 1500;
    progress.update(300);
    const drawn = frames(io.stderr());
    expect(drawn[1]).toBe(`devices  ${'█'.repeat(3)}${'░'.repeat(27)}  11%  56/500`);
    expect(drawn[2]).toMatch(/  60%  300\/500  200\.0\/s  ETA 1s$/);
    progress.finish();
  });

  it("leave: 'nothing' (status counting devices): the line is cleared when done, nothing is left on the screen", async () => {
    const io = IOStreams.forTest({ tty: true });
    let now = 0;
    const progress = await startProgress(io, { label: 'devices', now: () => now, leave: 'nothing' });
    now = 200;
    progress.update(56);
    progress.finish();
    io.err.write('Devices: 56\n');
    expect(await renderScreen(io.stderr())).toEqual(['Devices: 56']);
  });

  it('fits the width of stderr', async () => {
    const io = IOStreams.forTest({ tty: true, columns: 40 });
    const progress = await startProgress(io, { label: 'wake-up', total: 300, now: () => 0 });
    progress.finish();
    for (const frame of frames(io.stderr())) expect(stringWidth(frame.trimEnd())).toBeLessThanOrEqual(39);
  });

  it('while shown, no spinner draws: it owns the line, and gives it back when finished', async () => {
    const shown: string[] = [];
    const showSpinner: ShowSpinner = async (text) => {
      shown.push(text);
      return { setText() {}, stop() {} };
    };
    const io = IOStreams.forTest({ tty: true, showSpinner });
    const progress = await startProgress(io, { label: 'reboot', total: 1 });
    await io.activity.during('POST /v1/devices/HW-1/commands/reboot', () => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(shown).toEqual([]);
    progress.finish();
    await io.activity.during('GET /v1/devices', () => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(shown).toEqual(['GET /v1/devices']);
  });

  it('above(): a streamed result on a terminal stdout comes out on its own line, the progress line below it', async () => {
    const io = IOStreams.forTest({ tty: true });
    const progress = await startProgress(io, { label: 'reboot', total: 2, now: () => 0 });
    // stdout and stderr are one screen on a terminal: write both to the same emulator in order
    let screen = '';
    const out = io.out.write.bind(io.out);
    const err = io.err.write.bind(io.err);
    io.out.write = ((chunk: string) => ((screen += chunk), out(chunk))) as typeof io.out.write;
    io.err.write = ((chunk: string) => ((screen += chunk), err(chunk))) as typeof io.err.write;
    progress.above(() => io.out.write('{"hardware_id":"HW-1"}\n'));
    progress.update(1, 0);
    progress.finish();
    const lines = await renderScreen(screen);
    expect(lines[0]).toBe('{"hardware_id":"HW-1"}');
    expect(lines[1]).toMatch(/^reboot .* 1\/2/);
    expect(lines).toHaveLength(2);
  });

  it.each([
    { name: 'piped', opts: { tty: false } },
    { name: 'CI', opts: { tty: true, env: { CI: 'true' } } },
    { name: 'NO_COLOR', opts: { tty: true, env: { NO_COLOR: '1' } } },
    { name: 'TERM=dumb', opts: { tty: true, env: { TERM: 'dumb' } } },
  ])('nothing at all when $name', async ({ opts }) => {
    const io = IOStreams.forTest(opts);
    const progress = await startProgress(io, { label: 'reboot', total: 2, now: () => 5000 });
    progress.update(2, 0);
    let wrote = false;
    progress.above(() => (wrote = true));
    progress.finish();
    expect(wrote).toBe(true);
    expect(io.stderr()).toBe('');
  });
});
