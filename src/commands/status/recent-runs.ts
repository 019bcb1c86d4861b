// The bulk runs this machine made recently, read from their journals (src/bulk/journal.ts) in the config folder,
// and from those kept elsewhere with --journal that the folder notes: what was sent, to how many devices, and how
// it went.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { defaultJournalPath, notedJournal } from '../../bulk/journal.js';

export interface RecentRun {
  run_id: string;
  /** As the journal names it: reboot, wake_up, assign, unassign ... */
  command: string;
  created_at: string;
  targets: number;
  /** The last result of each device, by status: accepted, replayed, failed ...; devices not yet sent are `pending`. */
  results: Record<string, number>;
}

export interface RecentRuns {
  since: string;
  runs: RecentRun[];
  /** Set when the journals could not be read at all. */
  note?: string;
}

/** The folder every journal without --journal goes to. */
export function journalFolder(configDir: string): string {
  return path.dirname(defaultJournalPath(configDir, 'x'));
}

export async function recentRuns(configDir: string, sinceMs: number): Promise<RecentRuns> {
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
    if (code === 'ENOENT') return { since, runs: [] };
    return { since, runs: [], note: `the journals in ${folder} could not be read (${code ?? (error as Error).message})` };
  }
  const runs: RecentRun[] = [];
  for (const file of journals) {
    const run = await readRun(file, sinceMs).catch(() => undefined);
    if (run) runs.push(run);
  }
  runs.sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { since, runs };
}

/** One journal, read a line at a time (a run of a million devices is not held whole); undefined if older or not a journal. */
async function readRun(file: string, sinceMs: number): Promise<RecentRun | undefined> {
  // a noted journal replaced by a FIFO or a device since would block the read: only files are read
  if (!(await stat(file)).isFile()) return undefined;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let run: RecentRun | undefined;
  const last = new Map<string, string>();
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const record = parse(line);
      if (run === undefined) {
        const header = headerOf(record);
        if (!header || Date.parse(header.created_at) < sinceMs) return undefined;
        run = header;
        continue;
      }
      const { hardware_id: id, status } = (record ?? {}) as { hardware_id?: unknown; status?: unknown };
      if (typeof id === 'string' && typeof status === 'string') last.set(id, status);
    }
  } finally {
    lines.close();
  }
  if (!run) return undefined;
  for (const status of last.values()) run.results[status] = (run.results[status] ?? 0) + 1;
  if (run.targets > last.size) run.results.pending = run.targets - last.size;
  return run;
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined; // a line cut by a crash: the others still count
  }
}

function headerOf(record: unknown): RecentRun | undefined {
  const h = record as { type?: unknown; run_id?: unknown; command?: unknown; created_at?: unknown; targets?: unknown } | undefined;
  if (h?.type !== 'run' || typeof h.run_id !== 'string' || typeof h.command !== 'string' || typeof h.created_at !== 'string' || Number.isNaN(Date.parse(h.created_at))) return undefined;
  return { run_id: h.run_id, command: h.command, created_at: h.created_at, targets: Array.isArray(h.targets) ? h.targets.length : 0, results: {} };
}
