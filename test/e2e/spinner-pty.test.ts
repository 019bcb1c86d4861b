// The spinner as a person sees it: the built CLI in a real pseudo-terminal, against a sandbox that answers slowly,
// its output rendered by a terminal emulator. Run `npm run build` first.
import { writeFileSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';
import { runInPty } from '../support/pty-screen.js';

const LATENCY_MS = 500;
const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';

let h: SandboxHarness;
let scratch: string;

beforeAll(async () => {
  h = await startHarness({ latencyMs: LATENCY_MS });
  scratch = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-pty-'));
});

afterAll(async () => {
  await h?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A person's terminal: no CI, no NO_COLOR; each run gets its own config dir, so the token is fetched too. */
function terminalEnv(extra: Record<string, string> = {}): Record<string, string> {
  const configDir = mkdtempSync(path.join(scratch, 'config-'));
  return { PATH: process.env.PATH ?? '', HOME: scratch, TERM: 'xterm-256color', ...h.envFor(), FLEETCTL_CONFIG_DIR: configDir, ...extra };
}

/** Every spinner line seen on any screen while the command ran. */
function spinnerLines(snapshots: string[]): string[] {
  return [...new Set(snapshots.flatMap((screen) => screen.split('\n')).filter((line) => FRAME.test(line.slice(0, 1))))];
}

describe('spinner in a real terminal', { timeout: 30_000 }, () => {
  it.each([80, 160])('at %i columns: spins while the token and the first page are awaited, then only the table is left, and what it leaves out', async (cols) => {
    const run = await runInPty(process.execPath, [BIN, 'fleets', 'list', '--all'], { cols, rows: 30, env: terminalEnv() });
    expect(run.exitCode).toBe(0);
    const spun = spinnerLines(run.snapshots);
    expect(spun.some((line) => line.endsWith(' Requesting an access token'))).toBe(true);
    expect(spun.some((line) => line.endsWith(' GET /v1/fleets'))).toBe(true);
    // the final screen: the table and nothing of the spinner, not even in the scrollback
    expect(run.lines[0]).toMatch(/^┌─/);
    expect(run.lines.some((line) => /│ ID +│ NAME/.test(line))).toBe(true);
    // then the line naming the fields the table leaves out
    expect(run.lines.at(-2)).toMatch(/┘$/);
    expect(run.lines.at(-1)).toMatch(/^Not shown at \d+ columns: .*; -o wide shows them$/);
    expect(run.lines.join('\n')).not.toMatch(FRAME);
    expect(run.lines.join('\n')).not.toMatch(/Requesting an access token|GET \/v1\/fleets/);
    // the cursor it hid is shown again
    expect(run.raw.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(run.raw.lastIndexOf(HIDE_CURSOR));
  });

  it('a failed request: the spinner gives way to the error, nothing of it left', async () => {
    const run = await runInPty(process.execPath, [BIN, 'fleets', 'get', '00000000-0000-4000-8000-000000000000'], { cols: 100, rows: 20, env: terminalEnv() });
    expect(run.exitCode).toBe(5);
    expect(spinnerLines(run.snapshots).some((line) => line.includes('GET /v1/fleets/00000000-0000-4000-8000-000000000000'))).toBe(true);
    expect(run.lines[0]).toMatch(/^Error: /);
    expect(run.lines.join('\n')).not.toMatch(FRAME);
  });

  it('Ctrl-C while it spins: exit 130, "Interrupted." on a clean line, cursor back', async () => {
    let sent = false;
    const run = await runInPty(process.execPath, [BIN, 'devices', 'list', '--all', '--limit', '1'], {
      cols: 100,
      rows: 20,
      env: terminalEnv(),
      timeoutMs: 20_000,
      onScreen: (screen, type) => {
        if (!sent && FRAME.test(screen.slice(0, 1))) {
          sent = true;
          type('\u0003');
        }
      },
    });
    expect(sent).toBe(true);
    expect(run.exitCode).toBe(130);
    expect(run.lines).toEqual(['Interrupted.']);
    expect(run.raw.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(run.raw.lastIndexOf(HIDE_CURSOR));
  });

  it('a bulk reboot: the progress bar owns the line (no spinner under it), results stream above it, it is cleared when the run ends', async () => {
    const ids = ['HW-000001', 'HW-000002', 'HW-000003', 'HW-000004'];
    const run = await runInPty(process.execPath, [BIN, 'devices', 'reboot', ...ids, '--yes', '--concurrency', '1', '-o', 'ndjson'], { cols: 220, rows: 30, env: terminalEnv() });
    expect(run.exitCode).toBe(10); // HW-000002 belongs to another organization
    // it was seen moving: some screen showed a bar not yet full ...
    expect(run.snapshots.some((snap) => /^reboot {2}[█░]*░[█░]* {2}\d+% {2}[0-3]\/4/m.test(snap))).toBe(true);
    // ... and none of it is left once the run ended: the summary says what was done
    expect(run.lines.filter((line) => /^reboot {2}/.test(line))).toEqual([]);
    expect(spinnerLines(run.snapshots).filter((line) => line.includes('/commands/reboot'))).toEqual([]);
    // each streamed result is a whole line of its own, above the progress line, then the summary
    const results = run.lines.filter((line) => line.startsWith('{'));
    expect(results.map((line) => (JSON.parse(line) as { hardware_id: string }).hardware_id)).toEqual(ids);
    const summaryAt = run.lines.findIndex((line) => /^Reboot, run \S+: 4 devices: /.test(line));
    expect(run.lines.indexOf(results.at(-1)!)).toBe(summaryAt - 1);
  });

  it.each<{ name: string; env: Record<string, string> }>([
    { name: 'NO_COLOR', env: { NO_COLOR: '1' } },
    { name: 'TERM=dumb', env: { TERM: 'dumb' } },
    { name: 'CI=true', env: { CI: 'true' } },
  ])('$name: not one spinner byte, the same table', async ({ env }) => {
    const run = await runInPty(process.execPath, [BIN, 'fleets', 'list', '--all'], { cols: 100, rows: 30, env: terminalEnv(env) });
    expect(run.exitCode).toBe(0);
    expect(run.raw).not.toMatch(FRAME);
    expect(run.raw).not.toContain(HIDE_CURSOR);
    expect(run.raw).not.toMatch(/Requesting an access token|GET \/v1\/fleets/);
    expect(run.lines.some((line) => /│ ID +│ NAME/.test(line))).toBe(true);
  });

  it('stderr piped: nothing of a spinner in it or on the terminal; stdout piped to another program: no spinner either', async () => {
    const errFile = path.join(scratch, 'stderr.txt');
    writeFileSync(errFile, '');
    const toFile = await runInPty('/bin/sh', ['-c', `exec "${process.execPath}" "${BIN}" fleets list --all 2>"${errFile}"`], { cols: 100, rows: 30, env: terminalEnv() });
    expect(toFile.exitCode).toBe(0);
    expect(readFileSync(errFile, 'utf8')).not.toMatch(new RegExp(`${FRAME.source}|\\u001b\\[\\?25l|Requesting an access token`));
    expect(toFile.raw).not.toMatch(FRAME);
    expect(toFile.lines.some((line) => /│ ID +│ NAME/.test(line))).toBe(true);

    // `| cat` stands for a pager or `head`, which write to the same screen: a spinner would be left among their lines
    const piped = await runInPty('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" fleets list --all | cat`], { cols: 100, rows: 30, env: terminalEnv() });
    expect(piped.exitCode).toBe(0);
    expect(piped.raw).not.toMatch(FRAME);
    expect(piped.lines[0]).toMatch(/^id +name +organization_id/);
  });
});
