// Ctrl-C and SIGTERM stop a command cleanly (exit 130; a hang-up, SIGHUP, alike with exit 129; "Interrupted.", cleanups run), even once the config
// store is loaded: conf's atomic writes pull in an exit-on-signal hook that used to kill the process at once.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';

let h: SandboxHarness;

beforeAll(async () => {
  // slow answers, so the signal arrives in the middle of paging
  h = await startHarness({ latencyMs: 150 });
});

afterAll(async () => {
  await h?.close();
});

/**
 * Whether the process is blocked on the FIFO: one of its threads waits in open() for a writer (the kernel's
 * wait_for_partner), or it holds the FIFO open. Read from /proc (Linux, as mkfifo is here), where a fixed wait
 * guessed how long a loaded machine takes to get there.
 */
function waitsOn(pid: number, fifo: string): boolean {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    if (tasks.some((task) => readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8').includes('wait_for_partner'))) return true;
    return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === fifo);
  } catch {
    // the process is gone, or a thread or descriptor went away while we looked
    return false;
  }
}

function interruptAfterFirstItem(signal: NodeJS.Signals): Promise<{ code: number | null; killedBy: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'devices', 'list', '--all', '--limit', '1', '-o', 'ndjson'], {
      env: { PATH: process.env.PATH ?? '', HOME: h.configDir, CI: 'true', NO_COLOR: '1', ...h.envFor() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n') && child.signalCode === null && !child.killed) child.kill(signal);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      resolve({ code, killedBy, stdout, stderr });
    });
  });
}

describe('signals', () => {
  for (const [signal, exitCode] of [['SIGTERM', 130], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
    it(`${signal} in the middle of --all stops the command cleanly with exit ${exitCode}`, async () => {
      const run = await interruptAfterFirstItem(signal);
      expect(run.killedBy).toBeNull();
      expect(run.code).toBe(exitCode);
      // the interruption, after the point to resume from when a page was under way (said whatever stdout is)
      expect(run.stderr).toMatch(/^(Stopped after \d+ items?\. To resume from there: the same command with --cursor \S+\n)?Interrupted\.\n$/);
      expect(run.stdout.trim().split('\n').length).toBeLessThan(10);
    });
  }
});

describe('signals while waiting for input', () => {
  // issue 14: `drivers create --from-file /proc/kmsg` never returned and ignored SIGTERM; a FIFO nobody writes
  // to waits the same way, and must stop as quickly
  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends a read from a FIFO nobody writes to within 2 s, with exit 130', async (signal) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-fifo-'));
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    try {
      const child = spawn(process.execPath, [BIN, 'drivers', 'create', '--from-file', fifo], {
        env: { PATH: process.env.PATH ?? '', HOME: h.configDir, CI: 'true', NO_COLOR: '1', ...h.envFor() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      for (const end = Date.now() + 30_000; !waitsOn(child.pid!, fifo) && child.exitCode === null; ) {
        if (Date.now() > end) throw new Error('the command never waited on the FIFO');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const sent = Date.now();
      child.kill(signal);
      const code = await Promise.race([closed, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5000))]);
      if (code === 'hung') child.kill('SIGKILL');
      expect(code).toBe(130);
      expect(Date.now() - sent).toBeLessThan(2000);
      expect(stderr).toBe('Interrupted.\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
