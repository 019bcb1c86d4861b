// Runs one fuzz case through main() in-process, as CI would run it (no TTY, CI=true, its own config folder),
// and says which of the suite's properties it breaks.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../src/main.js';
import { CancelledError, ExitCode } from '../../src/errors.js';
import { IOStreams, type TerminalEnv } from '../../src/io/streams.js';
import { terminalSafeJson } from '../../src/shared/terminal-text.js';
import { confinedArgv, describeArgv, runsUntilInterrupted, type FuzzCase } from './cases.js';
import type { World } from './values.js';

/** A command that does not run until interrupted finishes within this, on a busy 2-core machine. */
export const CASE_BUDGET_MS = 10_000;
/** A server or a watch is interrupted this long after it started. */
export const LONG_RUNNING_MS = 400;
/** Ctrl-C or SIGTERM must end any command within this. */
export const STOP_MS = 2_000;

export interface Suite {
  world: World;
  /** Where cases make their folders. */
  root: string;
  env: NodeJS.ProcessEnv;
  /** Client secrets that no output may show. */
  secrets: string[];
  /** Client secrets that no output may show but `sandbox` start's (a sandbox of the default seed prints its own). */
  defaultSeedSecrets: string[];
}

export interface CaseRun {
  argv: string[];
  /** Undefined when the command did not stop within STOP_MS of the interrupt. */
  code: number | undefined;
  stdout: string;
  stderr: string;
  interrupted: boolean;
  /** How long it took from start, or from the interrupt when there was one. */
  elapsedMs: number;
  longRunning: boolean;
}

export async function runCase(c: FuzzCase, suite: Suite): Promise<CaseRun> {
  const caseDir = mkdtempSync(path.join(suite.root, 'case-'));
  try {
    const argv = confinedArgv(c, caseDir, suite.world);
    const longRunning = runsUntilInterrupted(c, argv);
    const env = { ...suite.env, FLEETCTL_CONFIG_DIR: path.join(caseDir, 'config') };
    const io = IOStreams.forTest({ tty: false, stdin: c.stdin, env: env as TerminalEnv });
    const controller = new AbortController();
    const started = performance.now();
    let interruptedAt: number | undefined;
    const interruptAfter = c.interruptAfterMs ?? (longRunning ? LONG_RUNNING_MS : CASE_BUDGET_MS);
    const interrupt = setTimeout(() => {
      interruptedAt = performance.now();
      controller.abort(new CancelledError());
    }, interruptAfter);
    const run = main(['node', 'fleetctl', ...argv], { io, env, signal: controller.signal });
    let code: number | undefined;
    try {
      code = await untilStopped(run, interruptAfter);
    } finally {
      clearTimeout(interrupt);
    }
    const ended = performance.now();
    return {
      argv,
      code,
      stdout: io.stdout(),
      stderr: io.stderr(),
      interrupted: interruptedAt !== undefined,
      elapsedMs: ended - (interruptedAt ?? started),
      longRunning,
    };
  } finally {
    rmSync(caseDir, { recursive: true, force: true });
  }
}

/** The exit code, or undefined when the command outlived its interrupt by more than STOP_MS. */
async function untilStopped(run: Promise<number>, interruptAfterMs: number): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), interruptAfterMs + STOP_MS);
  });
  try {
    // the interrupt always comes first: `hung` fires STOP_MS after it
    return await Promise.race([run, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Messages quote input cut to a few dozen characters; a path or a URL may make a line long, never this long. */
const MAX_MESSAGE_LINE = 1000;
const DOCUMENTED = new Set<number>(Object.values(ExitCode).filter((code) => code !== ExitCode.internal));
const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const TOKEN = /sbx_at_[A-Za-z0-9_-]{8,}/;
const WEBHOOK_KEY = /whk_[A-Za-z0-9_-]{16,}/;
/** Commands whose stdout reports per-device results even when some failed (exit 10, or the shared failure). */
const BULK = new Set(['devices reboot', 'devices wake-up']);

/** Every property the case breaks, in words. */
export function violations(c: FuzzCase, run: CaseRun, suite: Suite): string[] {
  const found: string[] = [];
  const name = c.command.path.join(' ');
  const output = `${run.stdout}\n${run.stderr}`;
  const input = `${run.argv.join(' ')}\n${c.stdin}`;
  if (run.code === undefined) {
    found.push(`did not stop within ${STOP_MS} ms of Ctrl-C`);
    return found;
  }
  if (run.code === ExitCode.internal) found.push('exit 1 (an internal error)');
  else if (!DOCUMENTED.has(run.code)) found.push(`exit ${run.code}, not a documented code`);
  if (run.interrupted && !run.longRunning && c.interruptAfterMs === undefined) found.push(`took longer than its budget of ${CASE_BUDGET_MS} ms`);
  if (run.interrupted && run.elapsedMs > STOP_MS) found.push(`stopped ${Math.round(run.elapsedMs)} ms after Ctrl-C (at most ${STOP_MS})`);
  if (STACK_FRAME.test(output)) found.push('a stack trace in the output');
  for (const word of ['[object Object]', 'undefined', 'NaN']) {
    if (new RegExp(`(^|\\W)${word.replace(/[[\]]/g, '\\$&')}(\\W|$)`).test(output) && !input.includes(word)) found.push(`"${word}" in the output`);
  }
  if (CONTROL.test(run.stderr)) found.push('a raw control character on stderr');
  // quoted input is cut: a 100,000-character argument is not echoed whole
  if (run.stderr.split('\n').some((line) => line.length > MAX_MESSAGE_LINE)) found.push(`a line of more than ${MAX_MESSAGE_LINE} characters on stderr`);
  if (CONTROL.test(run.stdout)) found.push('a raw control character on stdout');
  if (run.code !== ExitCode.ok) {
    if (run.stderr.trim() === '') found.push('failed with nothing on stderr');
    // the one line that says what was wrong (a problem document with -o json)
    else if (run.code !== ExitCode.interrupted && !/^(Error: \S|\{")/m.test(run.stderr)) found.push('failed without an "Error:" line');
    if (run.stdout !== '' && !BULK.has(name) && run.code !== ExitCode.interrupted) found.push('failed, yet wrote to stdout');
  }
  for (const secret of suite.secrets) if (output.includes(secret)) found.push('a client secret in the output');
  if (name !== 'sandbox') for (const secret of suite.defaultSeedSecrets) if (output.includes(secret)) found.push('a client secret (of a default-seed sandbox) in the output');
  // printing them is those commands' job: `auth token` the token, `regenerate-key` and `api` what the API answers
  const tokenShown = name === 'auth token' ? run.stderr : output;
  if (TOKEN.test(tokenShown)) found.push('an access token in the output');
  const keyShown = name === 'webhook-config regenerate-key' || name === 'api' ? run.stderr : output;
  if (WEBHOOK_KEY.test(keyShown)) found.push('a webhook key in the output');
  return found;
}

/** Problems of time alone (a budget or a stop missed), which a stalled machine can cause once. */
export function isTimingProblem(problem: string): boolean {
  return /^(took longer than its budget|stopped \d+ ms after Ctrl-C|did not stop within)/.test(problem);
}

/** What a failing case prints: the command line, the exit code, and the start of each stream. */
export function describeRun(run: CaseRun, problems: string[]): string {
  const cut = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}… (${text.length} characters)` : text);
  return [
    `fleetctl ${describeArgv(run.argv)}`,
    `  broke: ${problems.join('; ')}`,
    `  exit ${run.code ?? '(still running)'} after ${Math.round(run.elapsedMs)} ms${run.interrupted ? ' from Ctrl-C' : ''}`,
    `  stdout: ${terminalSafeJson(cut(run.stdout))}`,
    `  stderr: ${terminalSafeJson(cut(run.stderr))}`,
  ].join('\n');
}
