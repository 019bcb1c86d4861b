// `fleetctl --sandbox` in two terminals: a long-running command (a --follow) holds the embedded sandbox's world
// one request at a time, so a second command answers at once; a command that must wait says so within a second,
// naming who holds the world; the seeded world keeps its times from run to run; a device's record agrees with its
// last report. Processes of their own, sharing only the config directory, as two terminals do.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { BIN, runCli } from './harness.js';
import { lockStateFile } from '../../src/sandbox/state-file.js';
import { changeLogOf } from '../../src/sandbox/store/state-changes.js';

const envOf = (configDir: string) => ({ FLEETCTL_CONFIG_DIR: configDir });
const stateOf = (configDir: string) => path.join(configDir, 'sandbox', 'state.json');
const PROCESS = { process: true, timeoutMs: 90_000 };

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A fleetctl process left running; `stderr()` is what it has said so far, `until()` waits for a line matching. */
function started(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off', ...env } });
  children.push(child);
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const until = (pattern: RegExp, count = 1, ms = 60_000) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${ms} ms; stderr:\n${stderr}`)), ms);
      const check = () => {
        if ((stderr.match(new RegExp(pattern, 'g')) ?? []).length >= count) {
          clearTimeout(timer);
          resolve(Date.now());
        } else waiters.push(check);
      };
      check();
    });
  return { child, exited, until, stderr: () => stderr };
}

/** No lock file or breaker is left in the folder. */
const leftovers = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(lock|break)$/.test(name));

describe('the embedded sandbox, shared', () => {
  it('while a --follow runs, a second --sandbox command answers at once, and a change it makes is seen by the follower', async () => {
    const configDir = tempDir('fleetctl-shared-');
    const env = envOf(configDir);
    // --debug: each request the follower makes is on its stderr
    const follower = started(['--sandbox', 'devices', 'events', 'HW-000001', '--follow', '--debug'], env);
    const polled = /< 200 GET \S+\/v1\/devices\/HW-000001\/events/;
    await follower.until(polled, 1);

    const asked = Date.now();
    const list = await runCli(['--sandbox', 'devices', 'list', '--limit', '2', '-o', 'json'], { env, ...PROCESS });
    const tookMs = Date.now() - asked;
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as unknown[]).length).toBe(2);
    // before, it waited for the follower's lock (60 s) and failed naming it
    expect(list.stderr).not.toContain('Waiting for');
    // a process start and one request, on a loaded machine (before: 60 s, then exit 6)
    expect(tookMs).toBeLessThan(30_000);
    expect(follower.child.exitCode).toBeNull();

    // a change made beside it: the follower goes on polling, the world has it
    const reboot = await runCli(['--sandbox', 'devices', 'reboot', 'HW-000001', '--yes', '--idempotency-key', 'beside-follow', '-o', 'json'], { env, ...PROCESS });
    expect(reboot.code, reboot.stderr).toBe(0);
    const polls = (follower.stderr().match(new RegExp(polled, 'g')) ?? []).length;
    await follower.until(polled, polls + 1);
    expect(follower.child.exitCode).toBeNull();
    const replay = await runCli(['--sandbox', 'devices', 'reboot', 'HW-000001', '--yes', '--idempotency-key', 'beside-follow', '-o', 'json'], { env, ...PROCESS });
    expect(JSON.parse(replay.stdout)).toEqual(JSON.parse(reboot.stdout));

    follower.child.kill('SIGINT');
    // a follow ends on Ctrl-C as it is meant to: exit 0
    expect(await follower.exited).toBe(0);
    expect(leftovers(configDir)).toEqual([]);
  }, 120_000);

  it('a command that must wait for the world says so within a second, naming the process and command that hold it', async () => {
    const configDir = tempDir('fleetctl-shared-');
    const env = envOf(configDir);
    // the world made first, so the waiting command's start is quick
    expect((await runCli(['--sandbox', 'devices', 'list', '--limit', '1'], { env, ...PROCESS })).code).toBe(0);
    const held = await lockStateFile(stateOf(configDir), { waitMs: 0, purpose: 'fleetctl --sandbox devices reboot --fleet-id --wait' });
    let released = false;
    try {
      const waiting = started(['--sandbox', 'devices', 'list', '--limit', '1', '-o', 'json'], env);
      const notice = new RegExp(`Waiting for the sandbox state \\S+: \\S+state\\.json\\.lock is held by process ${process.pid} \\(fleetctl --sandbox devices reboot --fleet-id --wait, since [^)]+\\)`);
      await waiting.until(notice, 1, 30_000);
      // it waited on; once the holder lets go it answers
      expect(waiting.child.exitCode).toBeNull();
      held.release();
      released = true;
      expect(await waiting.exited).toBe(0);
      expect(waiting.stderr().match(new RegExp(notice, 'g'))).toHaveLength(1);
    } finally {
      if (!released) held.release();
    }
  }, 120_000);

});

describe('the embedded sandbox, shared with a server and from one run to the next', () => {
  it('a `fleetctl sandbox --state` serving the same file holds it while it runs: a --sandbox command names it, and goes on once it stops', async () => {
    const configDir = tempDir('fleetctl-shared-');
    const env = envOf(configDir);
    const server = started(['sandbox', '--port', '0', '--state', stateOf(configDir)], env);
    await server.until(/ready/i, 1, 30_000);
    const waiting = started(['--sandbox', 'devices', 'list', '--limit', '1', '-o', 'json'], env);
    await waiting.until(new RegExp(`is held by process ${server.child.pid} \\(fleetctl sandbox --port 0 --state, since [^)]+\\)`), 1, 30_000);
    server.child.kill('SIGTERM');
    expect(await waiting.exited).toBe(0);
  }, 120_000);

  it('the seeded world is the same from one run to the next: its times follow the world\'s anchor, not each start', async () => {
    const configDir = tempDir('fleetctl-shared-');
    const env = envOf(configDir);
    const list = async () => {
      const result = await runCli(['--sandbox', 'devices', 'list', '--all', '-o', 'json'], { env, ...PROCESS });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { hardware_id: string; last_seen_at: string | null }[];
    };
    const first = await list();
    expect(await list()).toEqual(first);

    // the world as if made three hours ago: every seeded time is three hours earlier, whenever it is read
    const file = stateOf(configDir);
    const state = JSON.parse(readFileSync(file, 'utf8')) as { anchor: string };
    const earlier = (iso: string) => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString();
    state.anchor = earlier(state.anchor);
    writeFileSync(file, JSON.stringify(state));
    rmSync(changeLogOf(file), { force: true });
    const moved = await list();
    expect(moved).toEqual(first.map((d) => ({ ...d, last_seen_at: d.last_seen_at === null ? null : earlier(d.last_seen_at) })));
    expect(await list()).toEqual(moved);
  }, 120_000);

  it('a device back from a reboot is fresh in the next run, and its record\'s last_seen_at is its last report\'s reported_at', async () => {
    const env = envOf(tempDir('fleetctl-shared-'));
    const sandbox = (args: string[]) => runCli(['--sandbox', ...args], { env, ...PROCESS });
    const lastSeen = async () => {
      const get = await sandbox(['devices', 'get', 'HW-000001', '-o', 'json']);
      const reported = await sandbox(['devices', 'last-reported', 'HW-000001', '-o', 'json']);
      expect(get.code, get.stderr).toBe(0);
      expect(reported.code, reported.stderr).toBe(0);
      const seen = (JSON.parse(get.stdout) as { last_seen_at: string }).last_seen_at;
      expect((JSON.parse(reported.stdout) as { reported_at: string }).reported_at).toBe(seen);
      return Date.parse(seen);
    };
    const tally = async () => {
      const status = await sandbox(['status', '-o', 'json']);
      expect(status.code, status.stderr).toBe(0);
      return (JSON.parse(status.stdout) as { devices: { reporting: number; stale: number } }).devices;
    };
    const before = await lastSeen();
    const counted = await tally();
    // the sandbox's default downtime: 20 s, then the device reports again
    const reboot = await sandbox(['devices', 'reboot', 'HW-000001', '--yes', '--wait', '-o', 'json']);
    expect(reboot.code, reboot.stderr).toBe(0);
    const acceptedAt = Date.parse((JSON.parse(reboot.stdout) as { accepted_at: string }).accepted_at);
    // another run, another sandbox: the device is back there too, as fresh as its return
    const after = await lastSeen();
    expect(after).toBe(acceptedAt + 20_000);
    expect(after).toBeGreaterThan(before);
    // the seeded device last seen days ago now counts as reporting
    expect(Date.now() - before).toBeGreaterThan(3_600_000);
    expect(await tally()).toMatchObject({ reporting: counted.reporting + 1, stale: counted.stale - 1 });
  }, 180_000);
});
