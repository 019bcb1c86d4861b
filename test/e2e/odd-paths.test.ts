// Files fleetctl creates in a place where no directory can be made (/proc, where Node's recursive mkdir loops
// for ever at full CPU): a clear exit 2 at once. And a command stuck on something that ignores Ctrl-C still
// ends within 2 s of SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let h: SandboxHarness;
let hw: string;
const executed = async (): Promise<unknown[]> => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[];
beforeAll(async () => {
  h = await startHarness();
  const listed = await h.cli(['devices', 'list', '--limit', '1', '--columns', 'hardware_id', '-o', 'csv']);
  hw = listed.stdout.trim().split('\n')[1]!;
});
afterAll(async () => {
  await h?.close();
});

describe('no hang on a path where no directory can be made', () => {
  it('--journal under /proc: exit 2 naming the journal, nothing sent', async () => {
    const result = await h.cli(['devices', 'reboot', hw, '--journal', '/proc/fleetctl-nope/x', '--yes'], { timeoutMs: 15_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: cannot write the journal /proc/fleetctl-nope/x: cannot create /proc/fleetctl-nope (');
    expect(await executed()).toEqual([]);
  });

  it('a config directory under /proc: exit 2 naming it', async () => {
    const result = await h.cli(['config', 'list'], { env: { FLEETCTL_CONFIG_DIR: '/proc/fleetctl-nope/config' }, timeoutMs: 15_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: cannot use the config directory: cannot create /proc/fleetctl-nope (');
    expect(result.stderr).toContain('Hint: set FLEETCTL_CONFIG_DIR to a directory you can write to');
  });

  it('media download --dir under /proc: exit 2 before any request', async () => {
    const result = await h.cli(['devices', 'media', 'download', hw, '--all', '--dir', '/proc/fleetctl-nope/media'], { timeoutMs: 15_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: cannot use --dir /proc/fleetctl-nope/media: cannot create /proc/fleetctl-nope (');
  });
});

describe('SIGTERM ends the process within 2 s, whatever the command waits for', () => {
  it('auth login reading a secret from a stdin that never closes: exit 130', { timeout: 20_000 }, async () => {
    const configDir = path.join(tempDir('fleetctl-sig-'), 'config');
    const env = { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_CONFIG_DIR: configDir };
    const child = spawn(process.execPath, [BIN, 'auth', 'login', '--base-url', h.sandbox.baseUrl, '--client-id', 'c', '--client-secret-stdin'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    // The config directory is made once the command runs, after main() has taken over SIGTERM.
    while (!existsSync(configDir)) await new Promise((r) => setTimeout(r, 20));
    const sent = Date.now();
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const { code, signal } = await ended;
    clearTimeout(killer);
    expect({ code, signal }).toEqual({ code: 130, signal: null });
    expect(Date.now() - sent).toBeLessThan(2000);
    expect(stderr).toBe('Interrupted.\n');
    child.stdin.destroy();
  });
});
