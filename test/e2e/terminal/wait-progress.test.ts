// The progress of a reboot with --wait in a real terminal of 80 columns: one line on stderr that names the wave and
// counts sent, back, waiting and timed out as the run goes, redrawn in place (never wrapped), cleared once the run
// ends (the summary says what was done); sampled while devices are rebooting, it moves with every device sent, answered, back or timed out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty } from '../../support/pty.js';

const NEVER_BACK = 'HW-000004';
let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({
    devices: 24,
    scenario: { name: 'progress', device_reporting: { reboot_downtime_ms: 400, reboot_jitter_ms: 1200, never_back: [NEVER_BACK] } },
    // each reboot answered 150 ms late: the devices of a wave are seen going out one by one
    faults: [{ match: { operation_id: 'rebootDevice' }, respond: { delay_ms: 150 } }],
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('--wait progress at 80 columns', { timeout: 60_000 }, () => {
  it('counts back, waiting and timed out on one line that fits, then the results and the summary', async () => {
    const ids = ['HW-000001', 'HW-000003', NEVER_BACK, 'HW-000005', 'HW-000006', 'HW-000007'];
    const session = startPty(['devices', 'reboot', ...ids, '--canary', '2', '--wait', '--wait-timeout', '3s', '--yes'], { sandbox: h, cols: 80, rows: 40 });
    // while the canary is away: sent, none back yet, waiting
    await session.waitForText(/reboot wave 1\/2: 2\/6 sent, 0 back, 2 waiting, 0 timed out/);
    // sampled as it runs: the progress line (and what replaced it in place) never runs on to a second row
    let drawn = 0;
    let ended = false;
    void session.exit.then(() => (ended = true));
    while (!ended) {
      const lines = session.lines();
      for (const [i, line] of lines.entries()) {
        if (!line.text.includes(' timed out ')) continue;
        drawn++;
        expect(lines[i + 1]?.wrapped ?? false, line.text).toBe(false);
        expect(line.text.length).toBeLessThan(80);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await session.exit).code).toBe(12);
    expect(drawn).toBeGreaterThan(0);
    // its last figures were drawn, then the line was cleared: the summary says what was done
    expect(session.raw()).toMatch(/reboot wave 2\/2: 6\/6 sent, 5 back, 0 waiting, 1 timed out/);
    const screen = session.screen().join('\n');
    expect(screen).not.toMatch(/^reboot wave/m);
    expect(screen).toContain('Canary sent to 2 devices: waiting until they are back before the waves.');
    expect(screen).toMatch(/^Back: 5 of 6 reported again \(the slowest after \d+s\); not back: 1$/m);
    expect(screen).toContain(`  not back: ${NEVER_BACK}`);
  });

  it('moves while devices are rebooting: each wave, each device sent, back or timed out', async () => {
    const ids = ['HW-000001', 'HW-000003', 'HW-000005', 'HW-000006', 'HW-000007', NEVER_BACK, 'HW-000009', 'HW-000010'];
    // --concurrency 1: the devices of a wave go out one by one, so each is seen sent
    const session = startPty(['devices', 'reboot', ...ids, '--canary', '1', '--wave', '4', '--concurrency', '1', '--wait', '--wait-timeout', '4s', '--yes'], { sandbox: h, cols: 80, rows: 40 });
    const seen: string[] = [];
    let ended = false;
    void session.exit.then(() => (ended = true));
    while (!ended) {
      const line = session.screen().find((l) => /^reboot wave \d\/\d: /.test(l));
      const label = line && /^(reboot wave \d\/\d: .*timed out)/.exec(line)?.[1];
      if (label && seen.at(-1) !== label) seen.push(label);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await session.exit).code).toBe(12);
    const parsed = seen.map((l) => /^reboot wave (\d)\/3: (\d)\/8 sent, (\d) back, (\d) waiting, (\d) timed out$/.exec(l)!.slice(1).map(Number));
    expect(parsed.every(Boolean), seen.join('\n')).toBe(true);
    // every wave shown, in order; the counts only grow; devices waiting while others are sent and come back
    expect([...new Set(parsed.map((p) => p[0]))], seen.join('\n')).toEqual([1, 2, 3]);
    for (let i = 1; i < parsed.length; i++) for (const k of [1, 2, 4]) expect(parsed[i]![k]!, seen.join('\n')).toBeGreaterThanOrEqual(parsed[i - 1]![k]!);
    expect(new Set(parsed.map((p) => p[1])).size, seen.join('\n')).toBeGreaterThanOrEqual(6);
    expect(new Set(parsed.map((p) => p[2])).size, seen.join('\n')).toBeGreaterThanOrEqual(5);
    expect(parsed.some((p) => p[3]! >= 2), seen.join('\n')).toBe(true);
    // the last figures are drawn before the line is cleared (sampling may miss them: the raw output has them)
    expect(session.raw()).toMatch(/reboot wave 3\/3: 8\/8 sent, 7 back, 0 waiting, 1 timed out/);
    expect(session.screen().filter((l) => /^reboot wave/.test(l))).toEqual([]);
  });
});
