// `fleetctl sandbox ...` run as a user runs it: the built CLI in a process of its own, until stopped. Its
// first stdout line (--json) says where it listens and with which clients.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, runCli, type CliOptions, type CliResult } from './harness.js';

export interface ReadyFacts {
  base_url: string;
  auth_url: string;
  control_openapi_url: string;
  clients: { client_id: string; client_secret: string; scopes: string[]; organization_id: string }[];
  organizations: { id: string; name: string; parent_id: string | null }[];
}

export interface CliSandbox {
  facts: ReadyFacts;
  /** Its process id: to stop it for a while (SIGSTOP, SIGCONT) as a stalled service. */
  pid: number;
  /** Runs the CLI against this sandbox as one of its clients. */
  cli(clientId: string, args: string[], opts?: CliOptions): Promise<CliResult>;
  json<T = any>(path: string): Promise<T>;
  /** SIGTERM, then the exit code and everything it logged. */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

export async function startCliSandbox(args: string[], cwd?: string): Promise<CliSandbox> {
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-cli-sandbox-'));
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const facts = await firstLine(child, () => stderr);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    facts,
    pid: child.pid!,
    cli(clientId, cliArgs, opts = {}) {
      const client = facts.clients.find((c) => c.client_id === clientId);
      if (!client) throw new Error(`no client ${clientId} in ${JSON.stringify(facts.clients.map((c) => c.client_id))}`);
      return runCli(cliArgs, {
        ...opts,
        env: {
          FLEETCTL_BASE_URL: facts.base_url, FLEETCTL_AUTH_URL: facts.auth_url, FLEETCTL_CLIENT_ID: client.client_id,
          FLEETCTL_CLIENT_SECRET: client.client_secret, FLEETCTL_CONFIG_DIR: configDir, ...opts.env,
        },
      });
    },
    json: async (p) => (await fetch(`${facts.base_url}${p}`)).json(),
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      rmSync(configDir, { recursive: true, force: true });
      return { code, stderr };
    },
  };
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<ReadyFacts> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s; stderr:\n${stderr()}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      resolve(JSON.parse(out.slice(0, end)) as ReadyFacts);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before it was ready; stderr:\n${stderr()}`));
    });
  });
}
