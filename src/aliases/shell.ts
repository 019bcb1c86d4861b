// A --shell alias: its script run by `sh -c`, the alias's arguments as $1, $2, ..., with the terminal's streams.
import path from 'node:path';
import type { IOStreams } from '../io/streams.js';
import { shellAliasEnv, type AliasRun } from './line.js';

/** The script's exit status; killed by a signal, 128 and the signal's number, as a shell reports it. */
/** `program`: argv[1] of the line, how the script calls this very fleetctl (bin/fleetctl.js, or a single executable), whatever PATH holds. */
export async function runShellAlias(run: AliasRun, env: NodeJS.ProcessEnv, io: IOStreams, program: string | undefined): Promise<number> {
  if (run.expanded.kind !== 'shell') throw new Error('runShellAlias: not a shell alias');
  const { runChild } = await import('../io/child-run.js');
  const executable = path.resolve(program ?? process.execPath);
  // $0 is the alias's name, as in the script's messages
  return runChild({ file: 'sh', args: ['-c', run.expanded.script, run.name, ...run.expanded.args], env: shellAliasEnv(run, env, executable) }, io);
}
