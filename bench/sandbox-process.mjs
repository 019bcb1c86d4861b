// What the benchmarks share: a `fleetctl sandbox` in a child process, the environment that points the built CLI
// at it, and a run of the CLI with its output collected.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin/fleetctl.js');

/** Starts `fleetctl sandbox --port 0 --json ...options` and reads its base URL and the sandbox-admin secret from its JSON line. */
export function startSandbox(options) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', ...options], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
  let text = '';
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      if (!line) return;
      const ready = JSON.parse(line);
      const admin = ready.clients.find((c) => c.client_id === 'sandbox-admin');
      resolve({ child, baseUrl: ready.base_url.replace(/\/$/, ''), secret: admin.client_secret });
    });
    child.stderr.on('data', (chunk) => (text += chunk.toString('utf8')));
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}:\n${text}${stdout}`)));
  });
}

/** A minimal environment for the CLI: the sandbox's admin client, a config directory of its own, no colour. */
export function sandboxEnv(sandbox, dir, extra = {}) {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    CI: 'true',
    NO_COLOR: '1',
    FLEETCTL_BASE_URL: sandbox.baseUrl,
    FLEETCTL_CLIENT_ID: 'sandbox-admin',
    FLEETCTL_CLIENT_SECRET: sandbox.secret,
    FLEETCTL_CONFIG_DIR: dir,
    ...extra,
  };
}

/** Runs `node [nodeArgs] bin/fleetctl.js args`; resolves with its exit code, stdout and stderr. */
export function runCli(args, env, nodeArgs = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
