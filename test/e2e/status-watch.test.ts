// Issue 38, must-show 3: `fleetctl status --watch` against the sandbox, as a process of its own. A device of a
// fleet of its own starts stale (breach: --on-breach runs), comes back after a wake-up (cleared), and goes stale
// again once --stale-after has passed since that report, while the watch is killed with -9 and started again from
// its --checkpoint: the restarted watch tells the change it missed and runs --on-breach for that new breach, once.
// Ctrl-C, in the middle of an interval, ends it with exit 130 at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

const FLEET = '5e1f0000-0000-4000-8000-00000000a7c1';
const STALE_AFTER_S = 10;
const SCENARIO = {
  name: 'watched',
  device_reporting: { reboot_downtime_ms: 300, reboot_jitter_ms: 0, wake_up_report_ms: 300, never_back: [] },
  fleets: [{ key: 'watched', organization: 'root', name: 'Watched', id: FLEET }],
  devices: [{ fleet: 'watched', hardware_id: 'WATCH-1', last_seen_at: '2h' }, { fleet: 'watched', hardware_id: 'WATCH-2', last_seen_at: null }],
};

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness({ devices: 10, scenario: SCENARIO });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

interface Watcher {
  child: ChildProcess;
  /** Resolves with the change lines once one matches. */
  until(match: (line: any) => boolean, timeoutMs?: number): Promise<any[]>;
  stderr(): string;
  exited: Promise<number | null>;
}

function startWatch(args: string[]): Watcher {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: 'true', NO_COLOR: '1', ...h.envFor() };
  const child = spawn(process.execPath, [BIN, 'status', '--fleet-id', FLEET, '--stale-after', `${STALE_AFTER_S}s`, '-o', 'ndjson', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const lines = () => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    exited,
    stderr: () => stderr,
    until: (match, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such line within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`)), timeoutMs);
        const check = () => {
          if (!lines().some(match)) return;
          clearTimeout(timer);
          resolve(lines());
        };
        waiters.push(check);
        check();
      }),
  };
}

const device = (to: string) => (l: any) => l.kind === 'device' && l.hardware_id === 'WATCH-1' && l.to === to;
const threshold = (to: string) => (l: any) => l.kind === 'threshold' && l.to === to;

describe('status --watch against the sandbox', { timeout: 120_000 }, () => {
  it('a line per change, --on-breach once per breach, across a kill -9 and a restart from --checkpoint; Ctrl-C is exit 130 at once', async () => {
    const dir = tempDir('status-watch');
    const calls = path.join(dir, 'breaches.ndjson');
    const checkpoint = path.join(dir, 'watch.json');
    const args = ['--fail-if', 'stale>0', '--on-breach', `cat >> '${calls}'`, '--checkpoint', checkpoint];

    const first = startWatch(['--watch', '1s', ...args]);
    const opening = await first.until(threshold('breached'));
    // the devices of the first round are where the watch starts: no line for them
    expect(opening).toEqual([{ time: expect.any(String), kind: 'threshold', threshold: 'stale>0', from: null, to: 'breached', actual: 1, reason: 'stale is 1, > 0' }]);
    const woken = await h.cli(['devices', 'wake-up', 'WATCH-1', '--yes']);
    expect(woken.code, woken.stderr).toBe(0);
    const back = await first.until(threshold('clear'));
    expect(back.filter(device('reporting'))).toEqual([expect.objectContaining({ from: 'stale', to: 'reporting', last_report: expect.any(String) })]);
    const reportedAt = Date.parse(back.find(device('reporting')).last_report);
    // killed once that round is kept (a kill before says its lines again at restart)
    await waitFor(() => readFileSync(checkpoint, 'utf8').includes('"breached":[]'), first.stderr);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);

    // stale again while no watch runs
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, reportedAt + STALE_AFTER_S * 1000 + 1500 - Date.now())));
    const second = startWatch(['--watch', '1m', ...args]);
    const resumed = await second.until(threshold('breached'));
    expect(resumed.map((l) => [l.kind, l.from, l.to])).toEqual([['device', 'reporting', 'stale'], ['threshold', 'clear', 'breached']]);
    await waitFor(() => readFileSync(calls, 'utf8').trim().split('\n').length === 2, second.stderr);
    const reports = readFileSync(calls, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(reports.map((r) => [r.selection.fleet_id, r.devices.stale, r.thresholds[0].breached])).toEqual([[FLEET, 1, true], [FLEET, 1, true]]);

    // the round is done and the next is a minute away: Ctrl-C lands in the middle of the interval
    const sent = Date.now();
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(1500);
    expect(second.stderr()).toContain('Interrupted.');
    expect(existsSync(checkpoint)).toBe(true);
  });

  it('--log-format json: every line of stderr is one JSON object, the data alone on stdout', async () => {
    const r = await h.cli(['--log-format', 'json', 'status', '--fleet-id', FLEET, '--watch', '1m', '--fail-if', 'never>0', '--on-breach', 'exit 3', '--exit-on-breach']);
    expect(r.code, r.stderr).toBe(13);
    const logged = r.stderr.trim().split('\n').map((line) => JSON.parse(line));
    expect(logged.map((l) => [l.level, l.message.replace(/ \(.*$/, '')])).toEqual([
      ['info', 'Watching 2 devices every 60 s'],
      ['warn', '--on-breach command exited with 3'],
      ['error', 'status: never>0 breached'],
    ]);
    expect(logged[0].devices).toEqual({ total: 2, reporting: expect.any(Number), stale: expect.any(Number), never_reported: 1, unknown: 0 });
    expect(logged[1].on_breach).toEqual({ exit_status: 3, killed_by: null });
    for (const l of logged) expect(Date.parse(l.time)).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^2\S+Z  never>0 breached: never_reported is 1, > 0\n$/);
  });

  it('Ctrl-C during a request (the service holding its answer) is exit 130 at once too', async () => {
    const rule = { match: { operation_id: 'listDevices' }, respond: { delay_ms: 20_000 }, times: 1 };
    const added = await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
    expect(added.status, await added.clone().text()).toBeLessThan(300);
    const watcher = startWatch(['--watch', '1s']);
    const hits = async () => ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`)).json()) as { hits: number }[]).reduce((n, r) => n + r.hits, 0);
    const start = Date.now();
    while ((await hits()) === 0) {
      if (Date.now() - start > 15_000) throw new Error(`the list request never came; stderr:\n${watcher.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sent = Date.now();
    watcher.child.kill('SIGINT');
    expect(await watcher.exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(1500);
  });
});

async function waitFor(condition: () => boolean, stderr: () => string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms; stderr:\n${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
