// Every example in every --help works as written, tried the way a new user would: in bash, with fleetctl on
// PATH, a fresh config directory, and a sandbox exported as in the README (for the examples without --sandbox).
// An example that presumes a state (`given`) has it prepared first, in the same shell; one that asks for
// confirmation on a terminal (`asks`) runs in a pseudo-terminal, where the test answers yes.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chmodSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { examplesOf, type Example } from '../../src/commands/shared/help.js';
import { BIN, startHarness, type SandboxHarness } from './harness.js';

interface Found extends Example {
  where: string;
}

function collect(command: Command, where: string, out: Found[]): Found[] {
  for (const example of examplesOf(command)) out.push({ ...example, where });
  for (const sub of command.commands) collect(sub, `${where} ${sub.name()}`, out);
  return out;
}

const program = buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const examples = collect(program, 'fleetctl', []);

let harness: SandboxHarness;
let shimDir: string;

beforeAll(async () => {
  harness = await startHarness();
  shimDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-shim-'));
  const shim = path.join(shimDir, 'fleetctl');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
});

afterAll(async () => {
  await harness?.close();
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

// A listener example names a fixed port, as a user would type it. On a busy machine that port may be taken, so
// each run gets one just found free, below the kernel's ephemeral range (which port-0 listeners draw from).
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freeFixedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await portIsFree(port)) return port;
  }
}

async function withFreePorts(command: string): Promise<string> {
  let rewritten = command;
  for (const fixed of new Set([...command.matchAll(/--port (\d+)/g)].map((m) => m[1]!).filter((p) => p !== '0'))) {
    const port = String(await freeFixedPort());
    rewritten = rewritten.replaceAll(`--port ${fixed}`, `--port ${port}`).replaceAll(`:${fixed}/`, `:${port}/`);
  }
  return rewritten;
}

async function runExample(example: Found): Promise<Outcome> {
  const command = await withFreePorts(example.given ? `${example.given}\n${example.command}` : example.command);
  const home = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-example-'));
  mkdirSync(path.join(home, '.config'), { recursive: true });
  const env: Record<string, string> = {
    ...harness.envFor('sandbox-admin'),
    FLEETCTL_CONFIG_DIR: path.join(home, '.config', 'fleetctl'),
    HOME: home,
    PATH: `${shimDir}:${process.env.PATH ?? ''}`,
    CI: 'true',
    NO_COLOR: '1',
  };
  if (example.asks) return runAnsweringYes(command, home, env);
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    // one Ctrl-C: a second one ends a process at once, before its cleanups
    const stop = () => {
      if (stopped) return;
      stopped = true;
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // already gone
      }
    };
    // a server has started once it has said anything (its address, on stdout or stderr)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (example.runsUntilInterrupted) stop();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (example.runsUntilInterrupted) stop();
    });
    const timer = setTimeout(() => {
      stderr += '\n[killed after 60 s]';
      process.kill(-child.pid!, 'SIGKILL');
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs on a terminal (not CI) and answers yes to the confirmation: the output is the screen's, both streams. */
async function runAnsweringYes(command: string, home: string, env: Record<string, string>): Promise<Outcome> {
  const { spawn: spawnPty } = await import('@lydell/node-pty');
  const { CI: _ci, ...terminalEnv } = env;
  const terminal = spawnPty('bash', ['-c', command], { cols: 160, rows: 50, cwd: home, env: { ...terminalEnv, TERM: 'xterm-256color' } });
  let screen = '';
  let answered = false;
  terminal.onData((data) => {
    screen += data;
    if (!answered && /\(y\/N\)/.test(screen)) {
      answered = true;
      terminal.write('y\r');
    }
  });
  const timer = setTimeout(() => terminal.kill('SIGKILL'), 60_000);
  const code = await new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  clearTimeout(timer);
  rmSync(home, { recursive: true, force: true });
  const plain = screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
  return { code, stdout: plain, stderr: answered ? plain : `${plain}\n[never asked for confirmation]\nError: the example was expected to ask` };
}

describe('help examples', () => {
  it('every verb has examples', () => {
    expect(examples.length).toBeGreaterThan(40);
  });

  it('a fixed listener port in an example is swapped for a free one, everywhere it appears', async () => {
    const rewritten = await withFreePorts('x --port 4011 & y --to http://127.0.0.1:4011/hooks; z --port 0');
    const port = /--port (\d+) /.exec(rewritten)![1]!;
    expect(port).not.toBe('4011');
    expect(rewritten).toBe(`x --port ${port} & y --to http://127.0.0.1:${port}/hooks; z --port 0`);
  });

  for (const example of examples) {
    it(`${example.where}: ${example.command}`, { timeout: 70_000 }, async () => {
      const outcome = await runExample(example);
      const report = `$ ${example.command}\nexit ${outcome.code}\nstdout:\n${outcome.stdout.slice(0, 2000)}\nstderr:\n${outcome.stderr.slice(0, 2000)}`;
      expect(outcome.code, report).toBe(0);
      expect(outcome.stderr, report).not.toMatch(/^Error:/m);
    });
  }
});
