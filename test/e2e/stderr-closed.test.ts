// Messages go to stderr; a reader that closed it (`2>&1 | head`, a log collector gone) must not turn a
// successful command into a crash (exit 1 from an unhandled EPIPE).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from './harness.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('stderr closed by the reader', () => {
  it('a command that writes a hint on a closed stderr still exits 0 with its data on stdout', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-stderr-'));
    const child = spawn(process.execPath, [BIN, '--sandbox', 'devices', 'reboot', 'HW-000001', '--yes', '-o', 'json'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, FLEETCTL_CONFIG_DIR: dir, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.destroy(); // closed before the first message: "Reboot of HW-000001 accepted." hits EPIPE
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout).hardware_id).toMatch(/^HW-/);
  });
});
