// Issue 36, point 6: a bulk run's progress line, in a real terminal of 80 and 160 columns, is drawn while the run
// goes and cleared when it ends, as `status` clears its own: the summary says what was done, and no line of the
// progress (no bar, no rate) is left on the screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty } from '../../support/pty.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({
    devices: 12,
    // each command answered 150 ms late: the run lasts long enough for the line to be drawn more than once
    faults: [
      { match: { operation_id: 'rebootDevice' }, respond: { delay_ms: 150 } },
      { match: { operation_id: 'wakeUpDevice' }, respond: { delay_ms: 150 } },
    ],
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const IDS = ['HW-000001', 'HW-000003', 'HW-000005', 'HW-000006'];
const CASES = [80, 160].flatMap((cols) => [
  { verb: 'reboot', summary: /^Reboot, run \S+: 4 devices: /, cols },
  { verb: 'wake-up', summary: /^Wake up, run \S+: 4 devices: /, cols },
]);

describe('bulk progress in a terminal', { timeout: 60_000 }, () => {
  it.each(CASES)('devices $verb at $cols columns: the progress line is drawn, then gone once the run ends', async ({ verb, summary, cols }) => {
    const session = startPty(['devices', verb, ...IDS, '--concurrency', '1', '--yes'], { sandbox: h, cols, rows: 40 });
    expect((await session.waitForExit()).code).toBe(0);
    // it was drawn (the label, then its count out of four) ...
    expect(session.raw()).toMatch(new RegExp(`${verb}(\\u001b\\[[\\d;]*m)*  .*[0-4]/4`));
    // ... and cleared: no line of it is left, whatever came after it
    const lines = session.lines().map((l) => l.text);
    expect(lines.filter((l) => l.startsWith(`${verb}  `) || /\d\/4\b.*\d\/s\b|\bin \d+s$/.test(l)), lines.join('\n')).toEqual([]);
    expect(lines.some((l) => summary.test(l)), lines.join('\n')).toBe(true);
    // the line the progress held is now the run's table or its summary, not a blank left where it was
    const summaryAt = lines.findIndex((l) => summary.test(l));
    expect(lines[summaryAt - 1]?.trim(), lines.join('\n')).not.toBe('');
  });
});
