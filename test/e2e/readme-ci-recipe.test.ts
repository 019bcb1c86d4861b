// The README's CI recipe runs as written (its fixed port swapped for a free one): a sandbox started in the
// background, waited for through GET /_sandbox/health, used, its journal printed, stopped.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './harness.js';

function recipe(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Readiness, and a CI recipe'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no sh block under "Readiness, and a CI recipe" in README.md');
  return block[1]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('README CI recipe', () => {
  it('starts a sandbox, waits for its health route, runs against it and stops it', { timeout: 120_000 }, async () => {
    const script = recipe();
    expect(script).toContain('/_sandbox/health');
    const port = String(await freePort());
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-ci-recipe-'));
    symlinkSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'));
    writeFileSync(path.join(dir, 'fleetctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(dir, 'fleetctl'), 0o755);
    const child = spawn('bash', ['-e', '-c', script.replaceAll('4010', port)], {
      cwd: dir,
      detached: true,
      env: { PATH: `${dir}:${process.env.PATH ?? ''}`, HOME: dir, CI: 'true', NO_COLOR: '1', FLEETCTL_CONFIG_DIR: path.join(dir, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      expect(code, `stdout:\n${stdout}\nstderr:\n${stderr}`).toBe(0);
      // (curl also writes the newline of -w after a refused connection, while the sandbox starts)
      expect(JSON.parse(stdout.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({ status: 'ok', devices: 5000, scenario: 'wake-up gap' });
      expect(readFileSync(path.join(dir, 'devices.ndjson'), 'utf8').trim().split('\n')).toHaveLength(5000);
      expect(readFileSync(path.join(dir, 'sandbox.log'), 'utf8')).toContain('Sandbox ready');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the whole group is gone already
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
