// Running a documented command line the way a new user would: in bash, with fleetctl on PATH, a fresh config
// directory and HOME, CI=true, and the sandbox's export lines in the environment. Used for the examples of
// every --help and for the README's recipes.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chmodSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import path from 'node:path';
import { BIN, ROOT } from './harness.js';

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunnableExample {
  command: string;
  /** Runs until Ctrl-C: stopped (SIGINT to its process group) once it printed, or once `until` says so. */
  runsUntilInterrupted?: boolean;
  /** The state the example presumes, prepared first in the same shell (not shown in help). */
  given?: string;
  /** Asks for confirmation on a terminal: run in a pseudo-terminal, where yes is answered. */
  asks?: boolean;
}

export interface RunOptions {
  /** The sandbox's export lines (FLEETCTL_BASE_URL, client id and secret ...). */
  env: Record<string, string>;
  /** A directory holding a `fleetctl` that runs the built CLI (fleetctlOnPath). */
  shimDir: string;
  /**
   * For a command that runs until Ctrl-C and writes to a file rather than stdout: called with the working
   * directory once it started; the command is interrupted when the promise settles.
   */
  until?: (cwd: string) => Promise<void>;
  /** Called with the working directory once the command ended, before it is removed (files it wrote). */
  inspect?: (cwd: string) => void;
}

/** The example extension of the README's Extensions section: its #!/bin/sh script, as written. */
export function readmeExtension(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const script = /^## Extensions\n[\s\S]*?```sh\n(#!\/bin\/sh\n[\s\S]*?)```/m.exec(readme)?.[1];
  if (!script) throw new Error('README: the Extensions section has no #!/bin/sh script');
  return script;
}

/**
 * A directory with a `fleetctl` shim for the built CLI, to put first on PATH, and a `cache` folder beside it:
 * the examples' XDG_CACHE_HOME (compiledCache).
 */
export function fleetctlOnPath(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-shim-'));
  const shim = path.join(dir, 'fleetctl');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
  mkdirSync(path.join(dir, 'cache'));
  return dir;
}

/**
 * Where the examples' fleetctl keeps V8's compiled code (src/compile-cache.ts): one folder
 * for all of them, as a user's ~/.cache is after the first command. With a cache in each fresh HOME, every
 * process compiled the bundle and wrote it out again (about 10% more CPU per process); a cache only saves time,
 * so sharing it changes no outcome.
 */
const compiledCache = (shimDir: string): string => path.join(shimDir, 'cache');

// A listener example names a fixed port, as a user would type it. On a busy machine that port may be taken, so
// each run gets one just found free, below the kernel's ephemeral range (which port-0 listeners draw from).
// Examples run side by side: a port handed out once is not handed out again, though it may be free again by
// the time another example probes (its listener not started yet).
const handedOut = new Set<number>();

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function freeFixedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await portIsFree(port)) return port;
  }
}

export async function withFreePorts(command: string): Promise<string> {
  let rewritten = command;
  for (const fixed of new Set([...command.matchAll(/--port (\d+)/g)].map((m) => m[1]!).filter((p) => p !== '0'))) {
    const port = String(await freeFixedPort());
    rewritten = rewritten.replaceAll(`--port ${fixed}`, `--port ${port}`).replaceAll(`:${fixed}/`, `:${port}/`);
  }
  return rewritten;
}

export async function runExample(example: RunnableExample, opts: RunOptions): Promise<Outcome> {
  const command = await withFreePorts(example.given ? `${example.given}\n${example.command}` : example.command);
  const home = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-example-'));
  mkdirSync(path.join(home, '.config'), { recursive: true });
  const env = {
    ...opts.env,
    FLEETCTL_CONFIG_DIR: path.join(home, '.config', 'fleetctl'),
    HOME: home,
    PATH: `${opts.shimDir}:${process.env.PATH ?? ''}`,
    XDG_CACHE_HOME: compiledCache(opts.shimDir),
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
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (example.runsUntilInterrupted && !opts.until) stop();
    });
    // a server has started once it has said anything (its address, on stdout or stderr)
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (example.runsUntilInterrupted && !opts.until) stop();
    });
    opts.until?.(home).then(stop, (error: unknown) => {
      stderr += `\n[until failed: ${String(error)}]`;
      stop();
    });
    const timer = setTimeout(() => {
      stderr += '\n[killed after 60 s]';
      process.kill(-child.pid!, 'SIGKILL');
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        opts.inspect?.(home);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
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
  const plain = stripVTControlCharacters(screen).replace(/\r/g, '');
  return { code, stdout: plain, stderr: answered ? plain : `${plain}\n[never asked for confirmation]\nError: the example was expected to ask` };
}
