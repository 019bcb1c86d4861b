// A sandbox bound to an address other machines can reach: its control routes (/_sandbox/*) require a control
// token (made and printed at start, or given), it warns at start, and it says "listening" once.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from './harness.js';
import { startCliSandbox, type CliSandbox } from './cli-sandbox.js';

let sandbox: CliSandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

const controlGet = (baseUrl: string, route: string, token?: string) =>
  fetch(`${baseUrl}${route}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

describe('a sandbox shared on the network', { timeout: 120_000 }, () => {
  it('--host 0.0.0.0 makes a control token, prints it once, and refuses every control route without it', async () => {
    sandbox = await startCliSandbox(['--host', '0.0.0.0']);
    const { base_url: baseUrl, control_token: token } = sandbox.facts as typeof sandbox.facts & { control_token?: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);

    for (const route of ['/_sandbox/health', '/_sandbox/faults', '/_sandbox/requests', '/_sandbox/deliveries', '/_sandbox/openapi.json']) {
      const refused = await controlGet(baseUrl, route);
      expect(refused.status, route).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('Bearer');
      expect(await refused.json()).toMatchObject({ code: 'sandbox.control_token_required' });
      expect((await controlGet(baseUrl, route, `${token}x`)).status, route).toBe(401);
      expect((await controlGet(baseUrl, route, token)).status, route).toBe(200);
    }
    const reset = await fetch(`${baseUrl}/_sandbox/reset`, { method: 'POST' });
    expect(reset.status).toBe(401);
    // the API itself is guarded by its own tokens, as the service's is
    expect((await fetch(`${baseUrl}/v1/fleets`)).status).toBe(401);

    // the control verbs: refused without the token (exit 3, saying how), served with it from the flag or the environment
    const without = await sandbox.cli('sandbox-admin', ['sandbox', 'fault', 'list']);
    expect(without.code).toBe(3);
    expect(without.stderr).toContain('requires its control token');
    expect(without.stderr).toContain('FLEETCTL_SANDBOX_CONTROL_TOKEN');
    const byFlag = await sandbox.cli('sandbox-admin', ['sandbox', 'fault', 'list', '--control-token', token!, '-o', 'json']);
    expect(byFlag.code).toBe(0);
    expect(JSON.parse(byFlag.stdout)).toEqual([]);
    const byEnv = await sandbox.cli('sandbox-admin', ['sandbox', 'requests', '-o', 'json', '--debug'], { env: { FLEETCTL_SANDBOX_CONTROL_TOKEN: token! } });
    expect(byEnv.code).toBe(0);
    expect(byEnv.stderr).not.toContain(token!);
    const wrong = await sandbox.cli('sandbox-admin', ['sandbox', 'emit', 'live.gps'], { env: { FLEETCTL_SANDBOX_CONTROL_TOKEN: 'not-the-token-of-this-one' } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('is not the one of the sandbox');
    expect(wrong.stderr).not.toContain('not-the-token-of-this-one');

    const { stderr } = await sandbox.stop();
    sandbox = undefined;
    expect(stderr).toMatch(/Warning: the sandbox listens on 0\.0\.0\.0, which other machines can reach/);
    expect(stderr).toContain('require the control token exported below');
    expect(stderr.split(token!).length - 1).toBe(0);
  });

  it('a given --control-token is required even on loopback; without one, loopback needs none', async () => {
    sandbox = await startCliSandbox(['--control-token', 'a-token-of-at-least-16']);
    expect((sandbox.facts as { control_token?: string }).control_token).toBe('a-token-of-at-least-16');
    expect((await controlGet(sandbox.facts.base_url, '/_sandbox/faults')).status).toBe(401);
    expect((await controlGet(sandbox.facts.base_url, '/_sandbox/faults', 'a-token-of-at-least-16')).status).toBe(200);
    const { stderr } = await sandbox.stop();
    expect(stderr).not.toContain('Warning');

    sandbox = await startCliSandbox([]);
    expect((sandbox.facts as { control_token?: string }).control_token).toBeUndefined();
    expect((await controlGet(sandbox.facts.base_url, '/_sandbox/faults')).status).toBe(200);
  });

  it('a control token too short to be one is refused before anything listens', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sbx-'));
    try {
      const result = await runCli(['sandbox', '--port', '0', '--control-token', 'short'], { env: { FLEETCTL_CONFIG_DIR: dir } });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^Error: --control-token \(or FLEETCTL_SANDBOX_CONTROL_TOKEN\) must be 16 to 256 printable ASCII characters/);
      expect(result.stderr).not.toContain('short');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the readable start-up says "listening" once, with the control token and how to export it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sbx-'));
    const child = spawn(process.execPath, [BIN, 'sandbox', '--host', '0.0.0.0', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_CONFIG_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      await expect.poll(() => stderr, { timeout: 60_000 }).toContain('Sandbox ready');
      // stdout and stderr are two pipes: what one says first may reach this process after the other
      await expect.poll(() => stdout, { timeout: 10_000 }).toMatch(/export FLEETCTL_SANDBOX_CONTROL_TOKEN=\S+\n/);
      expect(`${stdout}${stderr}`.match(/serving/g)).toHaveLength(1);
      const token = /export FLEETCTL_SANDBOX_CONTROL_TOKEN=(\S+)/.exec(stdout)?.[1];
      expect(stdout).toContain('Control token: required on /_sandbox/* (exported below)');
      expect(token).toBeDefined();
      expect(stdout).toContain(`export FLEETCTL_SANDBOX_CONTROL_TOKEN=${token}`);
      expect(stderr.match(/Warning:/g)).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('close', resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
