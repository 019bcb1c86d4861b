// Who holds a lock (io/file-lock.ts): whether the process a lock file names still runs, and is still the one that
// took it, not a later process given the same pid. Linux says through /proc; elsewhere a running pid is taken for
// the holder.
import { readFileSync } from 'node:fs';

/** Whether the live process `owner.pid` is the one that took the lock (not a later process given its pid). */
export function isHolder(owner: { pid: number; process_started?: string }): boolean {
  if (owner.pid === process.pid) return owner.process_started === undefined || owner.process_started === processStartOf(process.pid);
  const started = processStartOf(owner.pid);
  if (started === undefined) return true; // no /proc: cannot tell, so it is taken for the holder
  if (owner.process_started !== undefined) return owner.process_started === started;
  // a lock that records no start time (written by hand, or by an older fleetctl): the holder's command line says
  return commandLineOf(owner.pid)?.includes('fleetctl') ?? true;
}

/** The start time of a process, in clock ticks after boot (Linux /proc/PID/stat, field 22); undefined elsewhere. */
export function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
