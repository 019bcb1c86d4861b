// A reader that stops early (`| head`) is a normal end for a CLI: no stack trace, exit 0, state still saved. A
// stdout that cannot take the data (a file on a full disk: /dev/full answers every write with ENOSPC) is not: exit
// 15 with one line saying so, as a full disk anywhere else.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, startHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let configDir: string | undefined;
afterEach(() => {
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

function pipeline(args: string, consumer: string) {
  configDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-pipe-'));
  const script = `"${process.execPath}" "${BIN}" ${args} | ${consumer}; echo "status=\${PIPESTATUS[0]}" >&2`;
  return spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: configDir, FLEETCTL_CONFIG_DIR: configDir, CI: 'true' },
    timeout: 60_000,
  });
}

describe('stdout closed by the reader', () => {
  it('ends quietly with exit 0 when head has read enough of --all -o ndjson', () => {
    const run = pipeline('--sandbox devices list --all --limit 10 -o ndjson', 'head -n 1');
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout).hardware_id).toMatch(/^HW-/);
    expect(run.stderr).toContain('status=0');
    expect(run.stderr).not.toMatch(/EPIPE|Error|at /);
  });

  it('does not cut a confirmed bulk reboot short: every device is still sent, and the exit code is the run\'s', { timeout: 60_000 }, async () => {
    const harness = await startHarness();
    try {
      const env = harness.envFor('sandbox-admin');
      const ids = Array.from({ length: 40 }, (_, i) => `HW-${String(i + 1).padStart(6, '0')}`).join(' ');
      const script = `"${process.execPath}" "${BIN}" devices reboot ${ids} --idempotency-key pipe-test --yes -o ndjson | head -n 1 >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`;
      // Asynchronously: the sandbox runs in this process and must keep answering.
      const run = await new Promise<{ stderr: string }>((resolve) => {
        const child = spawn('bash', ['-c', script], { env: { ...env, PATH: process.env.PATH, HOME: harness.configDir, CI: 'true' } });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.on('close', () => resolve({ stderr }));
      });
      const status = Number(/status=(\d+)/.exec(run.stderr)?.[1]);
      expect(run.stderr, run.stderr).not.toMatch(/EPIPE|\n\s+at /);
      const log = (await (await fetch(`${harness.sandbox.baseUrl}/_sandbox/commands`)).json()) as { idempotency_key: string }[];
      const sent = log.filter((entry) => entry.idempotency_key.startsWith('pipe-test:'));
      // Devices outside the tenant or without the capability fail, so the run ends with 10, not 0, and not 130.
      expect(status).toBe(10);
      expect(run.stderr).toMatch(/accepted/i);
      expect(sent.length).toBeGreaterThan(20);
      expect(new Set(sent.map((entry) => entry.idempotency_key)).size).toBe(sent.length);
    } finally {
      await harness.close();
    }
  });
});

describe('stdout on a full disk (/dev/full)', () => {
  /** The command with its stdout on /dev/full, as `fleetctl ... > file` on a full disk. */
  function toFullDisk(args: string[]) {
    const dir = tempDir('fleetctl-full-stdout-');
    const full = openSync('/dev/full', 'w');
    try {
      const run = spawnSync(process.execPath, [BIN, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: dir, FLEETCTL_CONFIG_DIR: dir, CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off' },
        stdio: ['ignore', full, 'pipe'],
        timeout: 60_000,
      });
      return { code: run.status, stderr: run.stderr, dir };
    } finally {
      closeSync(full);
    }
  }
  const said = 'Error: cannot write standard output: no space left on device (ENOSPC)\nHint: free some space on its file system, or raise the quota\n';

  it.each([
    ['a list, -o json', ['--sandbox', 'devices', 'list', '--all', '-o', 'json']],
    ['a list, -o ndjson page by page', ['--sandbox', 'devices', 'list', '--all', '--limit', '5', '-o', 'ndjson']],
    ['help', ['--help']],
  ])('%s: exit 15, one line naming standard output and the full disk, no stack trace', (_name, args) => {
    const run = toFullDisk(args);
    expect(run.code, run.stderr).toBe(15);
    expect(run.stderr).toBe(said);
  });

  it('a bulk reboot: every device still sent and journalled (confirmed work goes on), then exit 15', () => {
    const run = toFullDisk(['--sandbox', 'devices', 'reboot', '--fleet-id', 'a82784ac-01c6-42cf-869c-62428c14904b', '--yes', '-o', 'json']);
    expect(run.code, run.stderr).toBe(15);
    expect(run.stderr).toContain('31 devices: 31 accepted');
    expect(run.stderr.endsWith(said), run.stderr).toBe(true);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const runs = readdirSync(`${run.dir}/runs`);
    expect(runs.filter((name) => name.endsWith('.lock'))).toEqual([]);
    const journal = readFileSync(`${run.dir}/runs/${runs.find((name) => name.endsWith('.ndjson'))}`, 'utf8');
    expect(journal.split('\n').filter((line) => line.includes('"type":"result"'))).toHaveLength(31);
  });
});
