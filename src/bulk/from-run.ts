// `--from-run RUN_ID --only failed,not_back`: the devices of an earlier reboot or wake-up, chosen by how they
// ended there, as the targets of a new run (its own run id and keys: a rerun must reach the devices again, not
// replay the first answers). Outcomes are named as the journal and the results name them: a command's status
// (accepted, replayed, capability_missing, not_found, failed), what --wait saw (back, not_back), or pending for a
// device the run never sent to (stopped by its brake or Ctrl-C).
import { NotFoundError, UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import type { Journal } from './journal.js';

export const RUN_OUTCOMES = ['failed', 'not_found', 'capability_missing', 'accepted', 'replayed', 'back', 'not_back', 'pending'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Without --only: the devices whose command failed (a 5xx, a 429 given up on, no answer). */
export const DEFAULT_OUTCOMES: readonly RunOutcome[] = ['failed'];

const WAIT_OUTCOMES: ReadonlySet<string> = new Set<RunOutcome>(['back', 'not_back']);

/** --only as typed: a comma list of outcomes, each checked. */
export function parseOutcomes(text: string): RunOutcome[] {
  const names = text.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError('--only needs at least one outcome', `for example --only failed,not_back (outcomes: ${RUN_OUTCOMES.join(', ')})`);
  for (const name of names) {
    if (!(RUN_OUTCOMES as readonly string[]).includes(name)) throw new UsageError(`--only: ${quoteInput(name, 40)} is not an outcome of a run`, `outcomes: ${RUN_OUTCOMES.join(', ')}`);
  }
  return [...new Set(names as RunOutcome[])];
}

/** What a run's journal says of each device: the command's last status, and what --wait last saw. */
export interface RecordedOutcomes {
  targets: readonly string[];
  statuses: ReadonlyMap<string, string>;
  /** back or not_back (a device still `watching` when the run stopped has neither). */
  waits: ReadonlyMap<string, string>;
}

/** The targets whose outcome is one of `only`, in the run's order. */
export function devicesWithOutcome(recorded: RecordedOutcomes, only: readonly RunOutcome[]): string[] {
  const wanted = new Set<string>(only);
  return recorded.targets.filter((id) => {
    const status = recorded.statuses.get(id);
    if (status === undefined) return wanted.has('pending');
    return wanted.has(status) || wanted.has(recorded.waits.get(id) ?? '');
  });
}

export interface FromRun {
  runId: string;
  only: readonly RunOutcome[];
  /** --allow-empty: no device with those outcomes is not an error (nothing to rerun). */
  allowEmpty?: boolean;
}

/**
 * The devices of run RUN_ID with those outcomes. The journal is locked while it is read: a run still going has
 * no final outcomes, and is refused. None found is exit 5 (--allow-empty: none, exit 0), saying why.
 */
export async function devicesFromRun(configDir: string, from: FromRun): Promise<string[]> {
  // read here only: the command line takes the outcomes above from this module without loading the journal's code
  const { Journal, journalPathOf } = await import('./journal.js');
  const journal = await Journal.open(journalPathOf(configDir, from.runId, undefined), from.runId);
  let recorded: RecordedOutcomes;
  try {
    const { header } = journal;
    if (header.command !== 'reboot' && header.command !== 'wake_up') {
      throw new UsageError(`run ${from.runId} was a devices ${header.command}: --from-run takes a reboot or wake-up run`);
    }
    recorded = { targets: header.targets, statuses: new Map([...journal.results].map(([id, r]) => [id, r.status])), waits: waitOutcomesOf(journal) };
  } finally {
    journal.close();
  }
  const ids = devicesWithOutcome(recorded, from.only);
  if (ids.length > 0 || from.allowEmpty) return ids;
  const waitsAsked = from.only.filter((o) => WAIT_OUTCOMES.has(o));
  const why = waitsAsked.length > 0 && recorded.waits.size === 0 ? `; its journal records no wait outcome (${waitsAsked.join(', ')}): the run had no --wait, or was made by an older fleetctl` : '';
  throw new NotFoundError(
    `no device of run ${from.runId} ended ${from.only.join(' or ')}${why}`,
    'see its outcomes with fleetctl status -o json; pass --allow-empty if nothing to rerun is fine',
  );
}

/** What --wait last saw of each device (back or not_back), from the journal's wait lines; none without --wait. */
function waitOutcomesOf(journal: Journal): Map<string, string> {
  const waits = new Map<string, string>();
  for (const line of journal.history.waits.values()) if (WAIT_OUTCOMES.has(line.outcome)) waits.set(line.hardware_id, line.outcome);
  return waits;
}
