// The bulk runs this machine made recently, read from their journals (src/bulk/journal.ts) in the config folder,
// and from those kept elsewhere with --journal that the folder notes: what was sent, to how many devices, and how
// it went. Runs are told apart by the service and client their journal names (bulk/service.ts): those of the
// profile's service are its recent commands; the others are kept apart by service, never mixed in.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { defaultJournalPath, notedJournal } from '../../bulk/journal.js';
import { JournalReading } from '../../bulk/journal-reader.js';
import { recordedService, sameService, type RunService } from '../../bulk/service.js';

export interface RecentRun {
  run_id: string;
  /** As the journal names it: reboot, wake_up, assign, unassign ... */
  command: string;
  created_at: string;
  targets: number;
  /** The last result of each device, by status: accepted, replayed, failed ...; devices not yet sent are `pending`. */
  results: Record<string, number>;
  /** Where the run was sent; null when its journal does not say (an older fleetctl). */
  service: RunService | null;
}

/** Runs sent to one other service (null: journals that do not say where). */
export interface RunsElsewhere {
  service: RunService | null;
  runs: RecentRun[];
}

export interface RecentRuns {
  since: string;
  /** The runs sent to the profile's service and client. */
  runs: RecentRun[];
  /** The others, by service, in order of their latest run. */
  elsewhere: RunsElsewhere[];
  /** Set when the journals could not be read at all. */
  note?: string;
}

/** The folder every journal without --journal goes to. */
export function journalFolder(configDir: string): string {
  return path.dirname(defaultJournalPath(configDir, 'x'));
}

export async function recentRuns(configDir: string, sinceMs: number, service: RunService | undefined): Promise<RecentRuns> {
  const folder = journalFolder(configDir);
  const since = new Date(sinceMs).toISOString();
  let journals: string[];
  try {
    const names = (await readdir(folder)).sort();
    const own = names.filter((name) => name.endsWith('.ndjson')).map((name) => path.join(folder, name));
    // a journal moved or deleted since is simply not read
    const elsewhere = names.filter((name) => name.endsWith('.where')).flatMap((name) => notedJournal(path.join(folder, name)) ?? []);
    journals = [...new Set([...own, ...elsewhere].map((file) => path.resolve(file)))];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // no folder: this machine never made a bulk run
    if (code === 'ENOENT') return { since, runs: [], elsewhere: [] };
    return { since, runs: [], elsewhere: [], note: `the journals in ${folder} could not be read (${code ?? (error as Error).message})` };
  }
  const runs: RecentRun[] = [];
  for (const file of journals) {
    const run = await readRun(file, sinceMs).catch(() => undefined);
    if (run) runs.push(run);
  }
  runs.sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { since, ...byService(runs, service) };
}

/** The runs of this service, and the others grouped by theirs. */
function byService(runs: RecentRun[], service: RunService | undefined): Pick<RecentRuns, 'runs' | 'elsewhere'> {
  const here: RecentRun[] = [];
  const elsewhere: RunsElsewhere[] = [];
  for (const run of runs) {
    if (service && run.service && sameService(run.service, service)) {
      here.push(run);
      continue;
    }
    const group = elsewhere.find((g) => (g.service === null || run.service === null ? g.service === run.service : sameService(g.service, run.service)));
    if (group) group.runs.push(run);
    else elsewhere.push({ service: run.service, runs: [run] });
  }
  return { runs: here, elsewhere };
}

/**
 * One journal, read a line at a time (a run of a million devices is not held whole) by the reader --resume uses,
 * with its tolerance (a torn last line is left out); undefined if older, not a journal, or not readable as one.
 */
async function readRun(file: string, sinceMs: number): Promise<RecentRun | undefined> {
  // a noted journal replaced by a FIFO or a device since would block the read: only files are read
  if (!(await stat(file)).isFile()) return undefined;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const reading = new JournalReading(file);
  // one line behind: whether a line is the last is known only once the next one comes (or none does)
  let held: string | undefined;
  let index = 0;
  try {
    for await (const line of lines) {
      if (held !== undefined) reading.read(held, index++, false);
      held = line;
      if (reading.header && Date.parse(reading.header.created_at) < sinceMs) return undefined;
    }
    if (held !== undefined) reading.read(held, index, true);
  } finally {
    lines.close();
  }
  const run = headerOf(reading.header);
  if (!run) return undefined;
  for (const result of reading.results.values()) run.results[result.status] = (run.results[result.status] ?? 0) + 1;
  if (run.targets > reading.results.size) run.results.pending = run.targets - reading.results.size;
  return run;
}

function headerOf(record: unknown): RecentRun | undefined {
  const h = record as { type?: unknown; run_id?: unknown; command?: unknown; created_at?: unknown; targets?: unknown; service?: unknown } | undefined;
  if (h?.type !== 'run' || typeof h.run_id !== 'string' || typeof h.command !== 'string' || typeof h.created_at !== 'string' || Number.isNaN(Date.parse(h.created_at))) return undefined;
  const service = recordedService(h.service) ?? null;
  return { run_id: h.run_id, command: h.command, created_at: h.created_at, targets: Array.isArray(h.targets) ? h.targets.length : 0, results: {}, service };
}
