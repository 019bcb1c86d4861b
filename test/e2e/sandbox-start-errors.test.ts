// `fleetctl sandbox` and `--sandbox` refuse what they cannot use with one clear line and exit 2: a busy port,
// an address that is not this machine's, a corrupt state file (left untouched). Never "unexpected failure".
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './harness.js';

let dir: string;
let busy: Server | undefined;
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => (busy ? busy.close(() => resolve()) : resolve()));
  busy = undefined;
});

function expectOneClearError(result: { code: number | null; stdout: string; stderr: string }, error: string, hint: string) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(`Error: ${error}\nHint: ${hint}\n`);
}

describe('sandbox start-up errors', () => {
  it('a port in use', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sbx-'));
    busy = createServer();
    await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    const result = await runCli(['sandbox', '--port', String(port)], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expectOneClearError(result, `cannot listen on 127.0.0.1:${port}: the port is already in use`, 'pick another with --port, or --port 0 for a free one');
  });

  it('a corrupt --state file is refused and left byte for byte', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sbx-'));
    const file = path.join(dir, 'state.json');
    writeFileSync(file, '{"format": "fleetctl-sandbox-state", "version": 1, "seed"');
    const result = await runCli(['sandbox', '--port', '0', '--json', '--state', file], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^Error: the sandbox state file ${file} is corrupt \\(not valid JSON: [^\\n]*\\); it was left untouched\\nHint: move it away`));
    expect(result.stderr.split('\n')).toHaveLength(3);
    expect(readFileSync(file, 'utf8')).toBe('{"format": "fleetctl-sandbox-state", "version": 1, "seed"');
  });

  it('--sandbox with a corrupt embedded state points at `fleetctl sandbox reset`', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sbx-'));
    const file = path.join(dir, 'sandbox', 'state.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'garbage\nmore garbage\n');
    const result = await runCli(['--sandbox', 'devices', 'list'], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: the sandbox state file .* is corrupt \(not valid JSON: [^\n]*\); it was left untouched\nHint: start afresh with `fleetctl sandbox reset`, or move the file away\n$/);
    expect(readFileSync(file, 'utf8')).toBe('garbage\nmore garbage\n');
  });
});
