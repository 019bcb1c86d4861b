// Tables fit the terminal: at 80 and 160 columns no line of `devices list` is wider than the screen, and no
// row is wrapped onto a second line (each device's row holds its hardware id between the two side borders).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty, type RenderedLine } from '../../support/pty.js';
import { tempDir } from '../../support/temp-dir.js';

let h: SandboxHarness;
let hardwareIds: string[];

beforeAll(async () => {
  h = await startHarness({ devices: 30 });
  const listed = await h.cli(['devices', 'list', '--limit', '10', '-o', 'json']);
  expect(listed.code).toBe(0);
  hardwareIds = (JSON.parse(listed.stdout) as { hardware_id: string }[]).map((d) => d.hardware_id);
  expect(hardwareIds).toHaveLength(10);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** The rendered rows from the top border to the bottom one, with the rows the terminal wrapped them onto. */
function tableRows(lines: RenderedLine[]): RenderedLine[] {
  const top = lines.findIndex((line) => line.text.startsWith('┌'));
  const bottom = lines.findIndex((line, i) => i > top && line.text.startsWith('└'));
  expect(top, 'a table top border').toBeGreaterThanOrEqual(0);
  expect(bottom, 'a table bottom border').toBeGreaterThan(top);
  let end = bottom + 1;
  while (lines[end]?.wrapped) end++;
  return lines.slice(top, end);
}

/** The table's lines as the CLI wrote them (before the terminal wrapped anything), colour removed. */
function writtenTableLines(raw: string): string[] {
  const lines = stripVTControlCharacters(raw).split(/\r?\n/);
  const top = lines.findIndex((line) => line.startsWith('┌'));
  const bottom = lines.findIndex((line, i) => i > top && line.startsWith('└'));
  return lines.slice(top, bottom + 1);
}

describe('devices list fits the terminal', { timeout: 60_000 }, () => {
  for (const [cols, rows] of [
    [80, 24],
    [160, 40],
  ] as const) {
    it(`at ${cols}x${rows}: no table line wider than ${cols}, no row wrapped`, async () => {
      const session = startPty(['devices', 'list', '--limit', '10'], { sandbox: h, cols, rows });
      expect((await session.waitForExit()).code).toBe(0);

      const written = writtenTableLines(session.raw());
      const tooWide = written.filter((line) => stringWidth(line) > cols);
      expect.soft(tooWide.map((line) => `${stringWidth(line)}: ${line}`), `table lines wider than ${cols} columns`).toEqual([]);

      const table = tableRows(session.lines());
      expect.soft(table.filter((line) => line.wrapped).map((line) => line.text), 'rows the terminal wrapped').toEqual([]);
      for (const id of hardwareIds) {
        const row = table.find((line) => line.text.includes(id));
        expect.soft(row?.text, `the row of ${id}`).toMatch(/^│.*│$/);
      }
    });
  }
});

describe('identifiers are never cut, at 80 and 160 columns', { timeout: 90_000 }, () => {
  for (const cols of [80, 160]) {
    it(`at ${cols}: event ids in events search, and the drivers table has its ids`, async () => {
      const fleet = JSON.parse((await h.cli(['fleets', 'list', '--limit', '1', '-o', 'json'])).stdout)[0].id as string;
      const events = JSON.parse((await h.cli(['events', 'search', '--fleet-id', fleet, '--since', '30d', '--limit', '3', '-o', 'json'])).stdout) as { event_id: string }[];
      expect(events.length).toBeGreaterThan(0);
      const search = startPty(['events', 'search', '--fleet-id', fleet, '--since', '30d', '--limit', '3', '--columns', 'event_id,hardware_id,triggered_at,event_types'], { sandbox: h, cols, rows: 30 });
      expect((await search.waitForExit()).code).toBe(0);
      const screen = search.lines().map((line) => line.text).join('\n');
      for (const { event_id } of events) expect(screen, `event id ${event_id} whole`).toContain(event_id);
      expect(screen).not.toContain('…');

      const drivers = JSON.parse((await h.cli(['drivers', 'list', '--limit', '3', '-o', 'json'])).stdout) as { id: string }[];
      const table = startPty(['drivers', 'list', '--limit', '3'], { sandbox: h, cols, rows: 30 });
      expect((await table.waitForExit()).code).toBe(0);
      const driversScreen = table.lines().map((line) => line.text).join('\n');
      for (const { id } of drivers) expect(driversScreen).toContain(id);
    });
  }

  it('at 80: a bulk results table keeps statuses whole and names its idempotency keys once, whole', async () => {
    const session = startPty(['devices', 'reboot', ...hardwareIds.slice(0, 3), '--yes', '--idempotency-key', 'pty-identifiers-whole-run-2026'], { sandbox: h, cols: 80, rows: 30 });
    await session.waitForExit();
    const screen = session.lines().map((line) => line.text).join('\n');
    for (const id of hardwareIds.slice(0, 3)) expect(screen).toMatch(new RegExp(`^│ ${id} +│ accepted +│`, 'm'));
    expect(screen).toMatch(/^keys: pty-identifiers-whole-run-2026:<hardware id>$/m);
    const cutCells = screen.split('\n').filter((line) => line.startsWith('│') && line.includes('…'));
    expect(cutCells).toEqual([]);
  });
});

describe('extension list on a terminal', { timeout: 60_000 }, () => {
  it("at 80: a path too long for its column keeps its end, the executable's name, and the name stays whole", async () => {
    const folder = path.join(tempDir('fleetctl-a-rather-long-folder-name-for-extension-paths-'), 'of', 'some', 'depth', 'bin');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'fleetctl-hello'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    expect(`${folder}/fleetctl-hello`.length).toBeGreaterThan(80);
    const session = startPty(['extension', 'list'], { cols: 80, rows: 24, env: { PATH: `${folder}:/usr/bin:/bin` } });
    expect((await session.waitForExit()).code).toBe(0);
    const row = session.lines().map((line) => line.text).find((line) => line.startsWith('│ hello '));
    expect(row).toMatch(/^│ hello +│ …[^│]*\/depth\/bin\/fleetctl-hello +│$/);
    expect(stringWidth(row!)).toBeLessThanOrEqual(80);
  });
});

describe('auth status on a terminal', { timeout: 60_000 }, () => {
  it('at 80: scopes without the prefix they all share, each whole', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-auth-status-'));
    try {
      // two tokens whose scopes differ only after thirdparty.api.webhooks_
      for (const args of [['webhook-config', 'get'], ['webhook-config', 'create', '--url', 'https://hooks.example.com/status', '--topics', 'events']]) await h.cli(args, { env: { FLEETCTL_CONFIG_DIR: dir } });
      const session = startPty(['auth', 'status'], { sandbox: h, cols: 80, rows: 40, env: { FLEETCTL_CONFIG_DIR: dir } });
      expect((await session.waitForExit()).code).toBe(0);
      const screen = session.lines().map((line) => line.text).join('\n');
      expect(screen).toMatch(/│ webhooks_read +│/);
      expect(screen).toMatch(/│ webhooks_write +│/);
      expect(screen).not.toContain('thirdparty.api.webhooks');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
