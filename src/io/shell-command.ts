// A command of the user's run with the shell, bounded in time: client_secret_command, status --watch --on-breach.
// What it prints is kept for the caller to judge (a secret is never shown; a hook's complaint is quoted).
// child_process is loaded at the first run: commands that run none never load it (test/build/startup.test.ts).

export interface ShellCommandOptions {
  /** Written to its standard input, which is then closed; without it, standard input is empty. */
  input?: string;
  timeoutMs: number;
  /** Stops it (and the wait for it): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Its environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface ShellCommandResult {
  /** Its exit status; null when a signal stopped it. */
  code: number | null;
  /** The signal that stopped it: SIGTERM after the timeout. */
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Rejects only when it could not be started (the error says why) or when `signal` stopped it. */
export async function runShellCommand(command: string, opts: ShellCommandOptions): Promise<ShellCommandResult> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], timeout: opts.timeoutMs, signal: opts.signal, ...(opts.env ? { env: opts.env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    if (child.stdin) {
      // a command that does not read its input closes the pipe early: not a failure of ours
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input);
    }
    child.on('error', (error) => reject(opts.signal?.aborted ? opts.signal.reason : error));
    child.on('close', (code, killedBy) => {
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      resolve({ code, killedBy, stdout, stderr });
    });
  });
}

/** "exited with 4: vault: permission denied", "was stopped (SIGTERM, after 30 s)": why a run failed; undefined when it did not. */
export function shellFailure(result: ShellCommandResult, timeoutMs: number): string | undefined {
  if (result.killedBy) return `was stopped (${result.killedBy}${result.killedBy === 'SIGTERM' ? `, after ${timeoutMs / 1000} s` : ''})`;
  if (result.code === 0) return undefined;
  const said = result.stderr.trim().split('\n')[0];
  return `exited with ${result.code}${said ? `: ${said}` : ''}`;
}
