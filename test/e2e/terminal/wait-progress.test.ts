// The progress of a reboot with --wait in a real terminal of 80 columns: one line on stderr that counts sent,
// back, waiting and timed out as the run goes, redrawn in place (never wrapped), left with its final figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty } from '../../support/pty.js';

const NEVER_BACK = 'HW-000004';
let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 24, scenario: { name: 'progress', device_reporting: { reboot_downtime_ms: 400, never_back: [NEVER_BACK] } } });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('--wait progress at 80 columns', { timeout: 60_000 }, () => {
  it('counts back, waiting and timed out on one line that fits, then the results and the summary', async () => {
    const ids = ['HW-000001', 'HW-000003', NEVER_BACK, 'HW-000005', 'HW-000006', 'HW-000007'];
    const session = startPty(['devices', 'reboot', ...ids, '--canary', '2', '--wait', '--wait-timeout', '3s', '--yes'], { sandbox: h, cols: 80, rows: 40 });
    // while the canary is away: sent, none back yet, waiting
    await session.waitForText(/reboot: 2\/6 sent, 0 back, 2 waiting, 0 timed out/);
    const exit = await session.waitForExit();
    expect(exit.code).toBe(12);
    const lines = session.lines();
    // the progress line (and what replaced it in place) never ran on to a second row
    const progress = lines.flatMap((l, i) => (l.text.includes(' timed out ') ? [i] : []));
    expect(progress.length).toBeGreaterThan(0);
    for (const i of progress) expect(lines[i + 1]?.wrapped ?? false, lines[i]!.text).toBe(false);
    for (const i of progress) expect(lines[i]!.text.length).toBeLessThan(80);
    const screen = session.screen().join('\n');
    expect(screen).toMatch(/^reboot: 6\/6 sent, 5 back, 0 waiting, 1 timed out +.*6\/6/m);
    expect(screen).toContain('Canary sent to 2 devices: waiting until they are back before the waves.');
    expect(screen).toMatch(/^Back: 5 of 6 reported again \(the slowest after 1s\); not back: 1$/m);
    expect(screen).toContain(`  not back: ${NEVER_BACK}`);
  });
});
