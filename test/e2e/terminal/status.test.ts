// Issue 25, must-show 3 and 6: the `fleetctl status` summary as a person sees it in a real terminal of 80
// columns: no line wraps, freshness in colour (reporting green, stale yellow, never red), and with NO_COLOR not
// one escape sequence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty } from '../../support/pty.js';

const [RED, GREEN, YELLOW] = [1, 2, 3];
let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 20 });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const colours = (cells: { fg: unknown }[]) => [...new Set(cells.map((cell) => cell.fg))];

describe('the status summary in a terminal', { timeout: 60_000 }, () => {
  it('fits 80 columns, every section on the screen, freshness in colour', async () => {
    const session = startPty(['status', '--stale-after', '2h', '--fail-if', 'stale>=0'], { sandbox: h, cols: 80, rows: 40 });
    expect((await session.waitForExit()).code).toBe(13);
    const lines = session.lines();
    expect(lines.filter((l) => l.wrapped)).toEqual([]);
    const screen = session.screen();
    for (const heading of ['Fleet status', 'Devices', 'Capabilities', 'Commands', 'Webhooks', 'Scopes', 'Thresholds']) {
      expect(screen.some((l) => l.startsWith(heading)), `${heading} in\n${screen.join('\n')}`).toBe(true);
    }
    expect(screen.some((l) => /^Devices +\d+ · stale after 2h · report time last_seen_at \(document\)$/.test(l)), screen.join('\n')).toBe(true);
    expect(screen.every((l) => l.length <= 80)).toBe(true);
    expect(colours(session.styleOf('reporting'))).toEqual([GREEN]);
    expect(colours(session.styleOf('stale       '))).toEqual([YELLOW]);
    expect(colours(session.styleOf('never       '))).toEqual([RED]);
    expect(screen.some((l) => /^ {2}stale>=0 +breached stale is \d+, >= 0$/.test(l)), screen.join('\n')).toBe(true);
  });

  it.each([80, 160])('at %i columns, the progress line of the devices counted is gone once the summary is out', async (cols) => {
    const session = startPty(['status'], { sandbox: h, cols, rows: 40 });
    expect((await session.waitForExit()).code).toBe(0);
    // it was drawn (the label, then its count) ...
    expect(session.raw()).toMatch(/devices(\u001b\[[\d;]*m)*  \d+/);
    // ... and cleared: no line of it is left, and no rate of the first milliseconds
    const lines = session.lines().map((l) => l.text);
    expect(lines.filter((l) => /^devices\b|\d\/s\b/.test(l)), lines.join('\n')).toEqual([]);
    expect(lines.find((l) => l.trim() !== '')).toMatch(/^Fleet status/);
  });

  it('with NO_COLOR the same summary, without one escape sequence on stdout', async () => {
    const session = startPty(['status'], { sandbox: h, cols: 80, rows: 40, env: { NO_COLOR: '1' } });
    expect((await session.waitForExit()).code).toBe(0);
    expect(session.screen().some((l) => l.startsWith('Scopes'))).toBe(true);
    expect(colours(session.styleOf('reporting'))).toEqual(['default']);
  });
});
