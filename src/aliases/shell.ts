// A --shell alias: its script run by `sh -c`, the alias's arguments as $1, $2, ..., with the terminal's streams.
// child_process is loaded here only: a command that runs no shell alias never loads it (test/build/startup.test.ts).
import path from 'node:path';
import type { IOStreams } from '../io/streams.js';
import { shellAliasEnv, type AliasRun } from './line.js';

/** The script's exit status; killed by a signal, 128 and the signal's number, as a shell reports it. */
/** `program`: argv[1] of the line, how the script calls this very fleetctl (bin/fleetctl.js, or a single executable), whatever PATH holds. */
export async function runShellAlias(run: AliasRun, env: NodeJS.ProcessEnv, io: IOStreams, program: string | undefined): Promise<number> {
  if (run.expanded.kind !== 'shell') throw new Error('runShellAlias: not a shell alias');
  const { spawn } = await import('node:child_process');
  const { constants } = await import('node:os');
  const executable = path.resolve(program ?? process.execPath);
  // $0 is the alias's name, as in the script's messages
  const child = spawn('sh', ['-c', run.expanded.script, run.name, ...run.expanded.args], {
    env: shellAliasEnv(run, env, executable),
    // the process's own streams are the script's; streams of a test (in-process) get what the script writes
    stdio: io.out === process.stdout ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => io.out.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => io.err.write(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve(status ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}
