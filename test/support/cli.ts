// Runs main() in-process with test streams, a temporary config store, a MockAgent and a fake clock.
import type { MockAgent } from 'undici';
import { main } from '../../src/main.js';
import { IOStreams, type TerminalEnv } from '../../src/io/streams.js';
import type { Clock } from '../../src/io/clock.js';
import type { Prompter } from '../../src/io/prompter.js';
import { AUTH_URL, BASE_URL, CLIENT_ID, CLIENT_SECRET } from './mock-http.js';
import type { Keychain } from '../../src/auth/secret-store.js';
import { absentKeychain } from './keychain.js';
import { tempDir } from './temp-dir.js';

/** A temporary FLEETCTL_CONFIG_DIR, removed when the test finishes. */
export function tempConfigDir(): string {
  return tempDir('fleetctl-test-');
}

/** What a CI job sets: no stored profile needed. */
export function ciEnv(configDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    FLEETCTL_CONFIG_DIR: configDir,
    FLEETCTL_BASE_URL: BASE_URL,
    FLEETCTL_AUTH_URL: AUTH_URL,
    FLEETCTL_CLIENT_ID: CLIENT_ID,
    FLEETCTL_CLIENT_SECRET: CLIENT_SECRET,
    ...extra,
  };
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  tty?: boolean;
  stdin?: string;
  agent?: MockAgent;
  clock?: Clock;
  prompter?: Prompter;
  /** Default: no keychain, as in CI (tests never touch the machine's own). */
  keychain?: Keychain;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], opts: RunOptions): Promise<RunResult> {
  const io = IOStreams.forTest({ tty: opts.tty ?? false, stdin: opts.stdin ?? '', env: opts.env as TerminalEnv });
  const code = await main(['node', 'fleetctl', ...args], {
    io,
    env: opts.env,
    dispatcher: opts.agent,
    clock: opts.clock,
    prompter: opts.prompter,
    keychain: opts.keychain ?? absentKeychain(),
    signal: new AbortController().signal,
  });
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** ANSI escape sequences (colour, cursor). */
export const ANSI = /\u001b\[/;
