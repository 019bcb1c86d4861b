// End-to-end harness: a real sandbox on an ephemeral port, and the built CLI (bin/fleetctl.js) as a subprocess.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/fleetctl.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Seeded client to run as (default sandbox-admin). */
  client?: string;
  /** Written to stdin, then closed. */
  input?: string;
  env?: Record<string, string | undefined>;
  /** Milliseconds before the process is killed (default 60 s). */
  timeoutMs?: number;
}

export interface SandboxHarness {
  sandbox: RunningSandbox;
  configDir: string;
  cli(args: string[], opts?: CliOptions): Promise<CliResult>;
  /** Environment that points the CLI at this sandbox as the given client. */
  envFor(client?: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startHarness(options: SandboxOptions = {}): Promise<SandboxHarness> {
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, log: () => {}, ...options });
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-e2e-'));
  const envFor = (clientId = 'sandbox-admin') => {
    const client = sandbox.clients.find((c) => c.client_id === clientId);
    if (!client) throw new Error(`no seeded client ${clientId}`);
    return {
      FLEETCTL_BASE_URL: sandbox.baseUrl,
      FLEETCTL_AUTH_URL: sandbox.authUrl,
      FLEETCTL_CLIENT_ID: client.client_id,
      FLEETCTL_CLIENT_SECRET: client.client_secret,
      FLEETCTL_ORGANIZATION_ID: client.organization_id,
      FLEETCTL_CONFIG_DIR: configDir,
      // the machine's own keychain is never touched by tests
      FLEETCTL_KEYCHAIN: 'off',
    };
  };
  return {
    sandbox,
    configDir,
    envFor,
    cli: (args, opts = {}) => runCli(args, { ...opts, env: { ...envFor(opts.client), ...opts.env } }),
    async close() {
      await sandbox.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** Runs the built CLI with a clean environment: no TTY, CI=true, nothing inherited that could change behaviour. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off' };
    for (const [key, value] of Object.entries(opts.env ?? {})) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}
