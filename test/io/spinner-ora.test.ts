// The real spinner (ora) on a stream that is a terminal, rendered by a terminal emulator: what a person sees.
import { describe, expect, it } from 'vitest';
import { setTimeout as wait } from 'node:timers/promises';
import { oraSpinner, SpinnerActivity } from '../../src/io/spinner.js';
import { createTheme } from '../../src/io/theme.js';
import { FakeTerminalStream, renderScreen } from '../support/pty-screen.js';

const FRAME = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe('the ora spinner on a terminal', () => {
  it('spins with its text, then leaves a blank line and the cursor at its start', async () => {
    const stream = new FakeTerminalStream(60, 10);
    const view = await oraSpinner(() => stream, () => createTheme(0))('GET /v1/devices');
    await wait(250);
    const spinning = await renderScreen(stream.raw, { cols: 60, rows: 10 });
    expect(spinning).toHaveLength(1);
    expect(spinning[0]).toMatch(FRAME);
    expect(spinning[0]).toContain(' GET /v1/devices');
    view.setText('Requesting an access token');
    await wait(120);
    expect((await renderScreen(stream.raw, { cols: 60, rows: 10 }))[0]).toMatch(/ Requesting an access token$/);
    view.stop();
    stream.write('TABLE\n');
    expect(await renderScreen(stream.raw, { cols: 60, rows: 10 })).toEqual(['TABLE']);
  });

  it('a line written while it spins (a --debug trace) is never mixed with a frame', async () => {
    const stream = new FakeTerminalStream(60, 10);
    const view = await oraSpinner(() => stream, () => createTheme(0))('GET /v1/devices');
    await wait(100);
    stream.write('> GET https://api.example.test/v1/devices\n');
    await wait(100);
    const screen = await renderScreen(stream.raw, { cols: 60, rows: 10 });
    expect(screen[0]).toBe('> GET https://api.example.test/v1/devices');
    expect(screen[1]).toMatch(FRAME);
    view.stop();
    expect(await renderScreen(stream.raw, { cols: 60, rows: 10 })).toEqual(['> GET https://api.example.test/v1/devices']);
  });

  it('frames are painted by the palette: cyan with colour on, no colour codes with colour off', async () => {
    const coloured = new FakeTerminalStream();
    (await oraSpinner(() => coloured, () => createTheme(1))('x')).stop();
    expect(coloured.raw).toContain('\u001b[36m');
    const plain = new FakeTerminalStream();
    (await oraSpinner(() => plain, () => createTheme(0))('x')).stop();
    expect(plain.raw).not.toMatch(/\u001b\[\d*m/);
  });

  it('through the activity: a slow wait shows it, the result finds a clean screen', async () => {
    const stream = new FakeTerminalStream(80, 10);
    const activity = new SpinnerActivity({ enabled: () => true, show: oraSpinner(() => stream, () => createTheme(1)), delayMs: 20 });
    const rows = await activity.during('GET /v1/devices', async () => {
      await wait(250);
      return 'ID  NAME';
    });
    stream.write(`${rows}\n`);
    expect(stream.raw).toMatch(/GET \/v1\/devices/);
    expect(await renderScreen(stream.raw, { cols: 80, rows: 10 })).toEqual(['ID  NAME']);
  });
});
