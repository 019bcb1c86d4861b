// --follow on a terminal: a table that grows as events come, lined up and no wider than the screen, at 80 and
// 160 columns, each row led by its event id (what `events get` takes); Ctrl-C ends it with exit 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty } from '../../support/pty.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 20 });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function emitForDevice(count: number): Promise<void> {
  const res = await fetch(`${h.sandbox.baseUrl}/_sandbox/emit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'event.generic', count, organization_id: h.envFor().FLEETCTL_ORGANIZATION_ID }),
  });
  expect(res.status).toBe(202);
}

describe('devices events --follow on a terminal', { timeout: 90_000 }, () => {
  for (const [cols, rows] of [
    [80, 30],
    [160, 40],
  ] as const) {
    it(`at ${cols}x${rows}: the header once, rows added as events come, lined up, nothing wrapped`, async () => {
      const session = startPty(['events', 'search', '--fleet-id', await firstFleet(), '--since', '30d', '--follow', '--interval', '1s'], { sandbox: h, cols, rows });
      await session.waitForText('Ctrl-C to stop.');
      await session.waitForText(/^EVENT ID /m);
      const before = rowsOf(session.lines().map((l) => l.text)).length;
      await emitForDevice(40);
      await expect.poll(() => rowsOf(session.lines().map((l) => l.text)).length, { timeout: 20_000 }).toBeGreaterThan(before);
      session.press('Ctrl-C');
      expect((await session.waitForExit()).code).toBe(0);
      const lines = session.lines();
      expect(lines.filter((l) => l.wrapped).map((l) => l.text), 'lines the terminal wrapped').toEqual([]);
      const texts = lines.map((l) => l.text);
      expect(texts.filter((t) => /^EVENT ID /.test(t))).toHaveLength(1);
      const header = texts.find((t) => /^EVENT ID /.test(t))!;
      expect(header).toMatch(/^EVENT ID +TRIGGERED AT/);
      // lined up: each row's time under its header
      const timeAt = header.indexOf('TRIGGERED AT');
      for (const row of rowsOf(texts)) expect(row.slice(timeAt), row).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
      if (cols === 160) {
        const hardwareAt = header.indexOf('HARDWARE ID');
        for (const row of rowsOf(texts)) expect(row.slice(hardwareAt, hardwareAt + 3), row).toBe('HW-');
      }
    });
  }
});

function rowsOf(texts: string[]): string[] {
  // a row starts with its event id: the composite, base64url
  return texts.filter((t) => /^[A-Za-z0-9_-]{40,} +\d{4}-/.test(t));
}

async function firstFleet(): Promise<string> {
  const r = await h.cli(['fleets', 'list', '--limit', '1', '--jq', '.id']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}
