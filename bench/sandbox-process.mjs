// What the benchmarks share: a `fleetctl sandbox` in a child process, the environment that points the built CLI
// at it, and a run of the CLI with its output collected.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin/fleetctl.js');

/** Starts `fleetctl sandbox --port 0 ...options` and reads its base URL and the sandbox-admin secret from what it prints. */
export function startSandbox(options) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...options], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
  let text = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      text += chunk.toString('utf8');
      // the banner has said it two ways: "listening on URL ... sandbox-admin secret S", now "serving URL ... FLEETCTL_CLIENT_SECRET=S"
      const url = /(?:listening on|serving) (http:\/\/[^\s]+)/.exec(text);
      const secret = /sandbox-admin\s+secret\s+(\S+)/.exec(text) ?? /FLEETCTL_CLIENT_SECRET=(\S+)/.exec(text);
      if (url && secret) resolve({ child, baseUrl: url[1].replace(/\/$/, ''), secret: secret[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}:\n${text}`)));
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
