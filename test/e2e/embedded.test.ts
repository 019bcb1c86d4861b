// `fleetctl --sandbox ...`: an in-process sandbox on a new ephemeral port each run, its state in the config
// directory. What can carry over between runs does, so a run does no avoidable work.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './harness.js';
import { parseTokenCacheKey } from '../../src/auth/token-key.js';

let configDir: string;
afterEach(() => rmSync(configDir, { recursive: true, force: true }));

describe('embedded sandbox', () => {
  it('reuses its cached token in the next run, though the port changed', async () => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-embedded-'));
    const env = { FLEETCTL_CONFIG_DIR: configDir };
    const first = await runCli(['--sandbox', 'devices', 'list', '--limit', '1', '--debug'], { env, process: true });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('fetching a token for scope thirdparty.api.devices_read');
    const second = await runCli(['--sandbox', 'devices', 'list', '--limit', '1', '--debug'], { env, process: true });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('fetching a token');
    expect(second.stderr).not.toContain('/connect/token');
    const tokens = JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8')).tokens;
    expect(Object.keys(tokens).map(parseTokenCacheKey)).toEqual([
      { profile: 'sandbox', issuer: 'embedded-sandbox', clientId: 'sandbox-admin', fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/), scope: 'thirdparty.api.devices_read' },
    ]);
  });

  it('after `sandbox reset` the stale cached token is refused once and replaced', async () => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-embedded-'));
    const env = { FLEETCTL_CONFIG_DIR: configDir };
    expect((await runCli(['--sandbox', 'devices', 'list', '--limit', '1'], { env, process: true })).code).toBe(0);
    expect((await runCli(['sandbox', 'reset'], { env, process: true })).code).toBe(0);
    const after = await runCli(['--sandbox', 'devices', 'list', '--limit', '1', '--debug'], { env, process: true });
    expect(after.code).toBe(0);
    expect(after.stderr).toMatch(/< 401 GET .*\/v1\/devices/);
    expect(after.stderr).toContain('fetching a token');
  });
});
