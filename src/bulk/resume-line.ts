// The command that resumes a run, printed on Ctrl-C, on a brake and on failure: complete, so that pasted into a
// new shell it reaches the same service (the connection flags the run was given) and finds the same journal
// (an absolute --journal), and quoted for a POSIX shell. It carries no secret: credentials stay where they are.
import path from 'node:path';
import type { GlobalOptions } from '../config/global-flags.js';
import { shellLine } from '../shared/shell-quote.js';
import { withoutCredentials } from './service.js';

/** The global flags that chose the service and how to reach it, as the run was given them. */
export function connectionFlags(g: GlobalOptions): string[] {
  const words: string[] = [];
  if (g.sandbox) words.push('--sandbox');
  if (g.profile) words.push('--profile', g.profile);
  if (g.baseUrl) words.push('--base-url', withoutCredentials(g.baseUrl));
  if (g.authUrl) words.push('--auth-url', withoutCredentials(g.authUrl));
  if (g.caFile) words.push('--ca-file', path.resolve(g.caFile));
  if (g.insecure) words.push('--insecure');
  return words;
}

export interface ResumeLine {
  /** The verb as typed after `fleetctl`: ['devices', 'reboot']. */
  verb: string[];
  runId: string;
  /** --journal as the run was given it; absent, the config folder's journal is found by run id. */
  journal?: string;
  /** Flags of the verb the resumed run needs again. */
  flags?: string[];
}

/** `fleetctl --sandbox devices reboot --resume RUN --journal '/runs/my run.ndjson' --yes` */
export function resumeLine(g: GlobalOptions, line: ResumeLine): string {
  const journal = line.journal === undefined ? [] : ['--journal', path.resolve(line.journal)];
  return shellLine(['fleetctl', ...connectionFlags(g), ...line.verb, '--resume', line.runId, ...journal, ...(line.flags ?? []), '--yes']);
}
