// status --watch's text lines: one a change, each within 80 columns with a hardware id of the usual length (a line
// a terminal or a journal viewer wraps reads as two), times to the second whatever their offset.
import { describe, expect, it } from 'vitest';
import { changeLine } from '../../../src/commands/status/watch-output.js';
import { parseThreshold } from '../../../src/commands/status/thresholds.js';
import type { StatusChange } from '../../../src/commands/status/status-changes.js';

const time = '2026-11-27T16:29:11.190Z';
const device = (from: string, to: string, last: string | null): StatusChange =>
  ({ time, kind: 'device', hardware_id: 'HW-000001', id: 'id-1', from, to, last_report: last }) as StatusChange;
const thresholds = [parseThreshold('stale>90%')];

describe('status --watch lines', () => {
  it('says each change within 80 columns, to the second', () => {
    const lines = [
      changeLine(device('stale', 'reporting', '2026-11-27T16:29:09.111Z'), thresholds),
      changeLine(device('never_reported', 'reporting', '2026-11-27T18:29:09.5+02:00'), thresholds),
      changeLine(device('unknown', 'reporting', '2026-11-27T16:29:09.111Z'), thresholds),
      changeLine(device('reporting', 'stale', '2026-11-27T16:28:50.000Z'), thresholds),
      changeLine({ time, kind: 'threshold', threshold: 'stale>90%', from: 'clear', to: 'breached', actual: 94.29, reason: 'stale is 94.29% (33 of 35), > 90%' }, thresholds),
      changeLine({ time, kind: 'threshold', threshold: 'stale>90%', from: 'breached', to: 'clear', actual: 85.71, reason: null }, thresholds),
    ];
    expect(lines).toEqual([
      '2026-11-27T16:29:11Z  HW-000001  came back at 2026-11-27T16:29:09Z',
      '2026-11-27T16:29:11Z  HW-000001  first report at 2026-11-27T18:29:09+02:00',
      '2026-11-27T16:29:11Z  HW-000001  reporting again at 2026-11-27T16:29:09Z',
      '2026-11-27T16:29:11Z  HW-000001  went stale (last report 2026-11-27T16:28:50Z)',
      '2026-11-27T16:29:11Z  stale>90% breached: stale is 94.29% (33 of 35), > 90%',
      '2026-11-27T16:29:11Z  stale>90% cleared (now 85.71%)',
    ]);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
