// End-to-end harness: a real sandbox on an ephemeral port, and the CLI against it over real HTTP: its main() in
// this process by default, or the built CLI (bin/fleetctl.js) as a process of its own.
//
// A process costs about half a second of CPU (Node's start and the bundle's load) and the suite runs hundreds of
// commands, so a command runs in-process unless what it checks only a process shows: an exit status set by
// bin/fleetctl.js, signals, pipes closed by their reader, a real terminal, the built bundle itself. Such tests
// ask for `process: true`. Either way the command gets the same clean environment (no TTY, CI=true, NO_COLOR,
// no keychain), the same arguments and stdin, and is judged by the same exit code and streams.
// FLEETCTL_E2E_PROCESS=1 runs every command as a process, for a full check of the built CLI.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { main } from '../../src/main.js';
import { IOStreams } from '../../src/io/streams.js';

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
  /** Milliseconds before the process is killed, or the in-process command stopped (default 60 s). */
  timeoutMs?: number;
  /** Runs the built CLI as a process of its own (see the top of this file). */
  process?: boolean;
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

/** The clean environment every command gets: no TTY, CI=true, nothing inherited that could change behaviour. */
function cleanEnv(extra: CliOptions['env']): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off' };
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs a fleetctl command: in this process unless `process` (or FLEETCTL_E2E_PROCESS=1) asks for one of its own. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return opts.process || process.env.FLEETCTL_E2E_PROCESS === '1' ? runProcess(args, opts) : runInProcess(args, opts);
}

/**
 * main() with streams of its own: what bin/fleetctl.js does, minus Node's start and the bundle's load. Standard
 * output is not a terminal, as in a pipe, so the width is the 80 columns a process without one assumes.
 */
async function runInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  const env = cleanEnv(opts.env);
  const io = IOStreams.forTest({ tty: false, stdin: opts.input ?? '', env, columns: 80 });
  // a command still running at the timeout is stopped as Ctrl-C would stop it (a process would be killed)
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error(`stopped after ${opts.timeoutMs ?? 60_000} ms`)), opts.timeoutMs ?? 60_000);
  try {
    const code = await main(['node', BIN, ...args], { io, env, signal: stop.signal });
    return { code, stdout: io.stdout(), stderr: io.stderr() };
  } finally {
    clearTimeout(timer);
  }
}

/** The built CLI as a process of its own. */
function runProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = cleanEnv(opts.env);
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
