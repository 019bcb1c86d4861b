// --follow --checkpoint against the second service double: its events are {ref, id, device_hw, occurred_at}, an id
// 1, 2, 3 on every device and no event_id or triggered_at. The checkpoint keeps what the record boundary makes of
// them (the composite ref, the time occurred_at names), so runs stopped after every two events, while the service
// gains events (some stamped before the last one written), write every event of the window once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventRef, seedUuid } from '../support/second-service.js';
import { expectOk, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';
import { tempDir } from '../support/temp-dir.js';

let h: SecondHarness;
useSecondHarness((started) => (h = started));
const FLEET_1 = seedUuid(0xf1, 1);

/** A new event of the fleet's first device, stamped `agoMs` before now: the shape of the service's own. */
function addEvent(n: number, agoMs: number): string {
  const model = h.svc.state.events.find((e) => e.fleet_ref === FLEET_1)!;
  const ref = eventRef(model.device_hw, `new${n}`);
  h.svc.state.events.push({ ...model, ref, id: 100 + n, occurred_at: new Date(Date.now() - agoMs).toISOString() });
  return ref;
}

describe('--follow --checkpoint over events named otherwise', { timeout: 120_000 }, () => {
  it('runs of two events each, the service gaining events between them: every event of the window once', async () => {
    const dir = tempDir('fleetctl-feed-second-');
    const checkpoint = path.join(dir, 'feed.checkpoint');
    const window = ['events', 'search', '--fleet-id', FLEET_1, '--from', new Date(Date.now() - 30 * 86_400_000).toISOString()];
    const follow = [...window, '--follow', '--interval', '1s', '--checkpoint', checkpoint, '-o', 'ndjson'];
    const printed: string[] = [];
    const added: string[] = [];
    for (let run = 0; run < 12; run++) {
      const r = await h.cli([...follow, '--max-events', '2'], { timeoutMs: 20_000 });
      expectOk(follow, r);
      printed.push(...r.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { ref: string }).ref));
      // while it is stopped: one event now, and one stamped two minutes back (a report that came late)
      added.push(addEvent(2 * run, 0), addEvent(2 * run + 1, 120_000));
    }
    // the rest, to a window end after the last event added
    const until = new Date(Date.now() + 1_000).toISOString();
    const last = await h.cli([...follow, '--until', until], { timeoutMs: 20_000 });
    expectOk(follow, last);
    printed.push(...last.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { ref: string }).ref));
    const listed = await h.cli([...window, '--to', until, '--all', '-o', 'json']);
    const refs = (JSON.parse(listed.stdout) as { ref: string }[]).map((e) => e.ref);
    expect(refs).toHaveLength(9 + 24);
    expect(refs).toEqual(expect.arrayContaining(added));
    expect(printed.filter((ref, i) => printed.indexOf(ref) !== i)).toEqual([]);
    expect([...printed].sort()).toEqual([...refs].sort());
    // what the checkpoint keeps are the service's composite refs, found by what they decode to
    const saved = JSON.parse(readFileSync(checkpoint, 'utf8')) as { written: [string, number | null][] };
    expect(saved.written.length).toBeGreaterThan(0);
    for (const [key] of saved.written) expect(refs).toContain(key);
  });
});
