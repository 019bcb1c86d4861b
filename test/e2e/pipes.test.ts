// A reader that stops early (`| head`) is a normal end for a CLI: no stack trace, exit 0, state still saved.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from './harness.js';

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
});
