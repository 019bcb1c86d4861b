// `fleetctl history`: the audit ledger (src/ledger/), the changes made from this machine (or every machine that
// writes a shared ledger), oldest first. A table counts each line's targets by outcome; -o json and -o ndjson give
// the lines whole, as written; CSV has the table's columns.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { parseDateTime } from '../shared/dates.js';
import { requireNonEmpty } from '../shared/validate.js';
import { viewOf } from '../../output/columns.js';
import { readLedger, type LedgerReading } from '../../ledger/reader.js';
import { ledgerFilter, LEDGER_WHERE_NAMES, type LedgerFilter } from './filter.js';
import { ledgerFileOf } from '../../ledger/recorder.js';
import { LEDGER_KEPT, LEDGER_MAX_BYTES } from '../../ledger/writer.js';
import type { LedgerEntry } from '../../ledger/entry.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';

export interface HistoryOptions {
  /** Only lines written at or after this instant (ms since the epoch). */
  sinceMs?: number;
  where?: LedgerFilter;
}

type HistoryDeps = Pick<Deps, 'output' | 'io' | 'env' | 'clock' | 'configDir' | 'settings'>;

export function newHistoryCommand(deps: HistoryDeps, run = historyRun): Command {
  const command = new Command('history')
    .description('Show the audit ledger: every change fleetctl made (reboots, assignments, drivers, webhook configuration, settings)')
    .option('--since <date>', 'only changes from this time on: an ISO 8601 date or date-time, or a relative time such as 24h or 7d')
    .option('--where <expression>', `only the changes this condition selects, e.g. "outcome:failed" (names: ${LEDGER_WHERE_NAMES.join(', ')})`);
  describeVerb(command, {
    output: 'records',
    uses: ['profile'],
    notes: [
      'The ledger is ledger.ndjson in the config directory, or the file FLEETCTL_LEDGER or the profile\'s ledger_file',
      `names; at ${LEDGER_MAX_BYTES / 1024 / 1024} MiB it is renamed to LEDGER.1 (the ${LEDGER_KEPT} latest kept), and history reads them all.`,
      'A table counts each change\'s targets by outcome; -o json and -o ndjson print the lines whole.',
    ].join('\n'),
    examples: [
      { comment: 'every change recorded, oldest first', command: 'fleetctl history', given: `fleetctl --sandbox devices reboot ${SANDBOX_IDS.hardwareId} --yes` },
      { comment: 'the reboots of the last week, whole, as NDJSON', command: 'fleetctl history --since 7d --where \'command:"devices reboot"\' -o ndjson' },
      { comment: 'the changes where some target failed, since a date', command: 'fleetctl history --since 2024-05-01 --where outcome:failed -o json' },
    ],
  });
  command.action(async (flags: { since?: string; where?: string }) => {
    const sinceMs = flags.since === undefined ? undefined : Date.parse(parseDateTime(flags.since, '--since', deps.clock.now()));
    const where = flags.where === undefined ? undefined : ledgerFilter(requireNonEmpty(flags.where, '--where'));
    await run(deps, { sinceMs, where });
  });
  return command;
}

export async function historyRun(deps: HistoryDeps, opts: HistoryOptions): Promise<void> {
  const settings = await deps.settings();
  const file = ledgerFileOf(settings, deps.env, deps.configDir());
  const reading: LedgerReading = { skipped: 0 };
  const chosen = selected(readLedger(file, reading), opts);
  const output = deps.output();
  // formats in columns (a table, CSV) get the table's rows: a ledger line's members are nested, no column of theirs reads alone
  const count = output.showsColumns ? await output.list(tableRows(chosen), viewOf('ledgerEntry')) : await output.list(chosen, []);
  if (reading.skipped > 0) deps.io.warn(`${reading.skipped} line${reading.skipped === 1 ? '' : 's'} of ${file} ${reading.skipped === 1 ? 'is' : 'are'} not a ledger entry and ${reading.skipped === 1 ? 'was' : 'were'} passed over`);
  if (count === 0) deps.io.info(`No changes recorded${opts.sinceMs === undefined && opts.where === undefined ? '' : ' that match'} in ${file}.`);
}

async function* selected(entries: AsyncIterable<LedgerEntry>, opts: HistoryOptions): AsyncGenerator<LedgerEntry> {
  for await (const entry of entries) {
    if (opts.sinceMs !== undefined && !(Date.parse(entry.time) >= opts.sinceMs)) continue;
    if (opts.where && !opts.where(entry)) continue;
    yield entry;
  }
}

async function* tableRows(entries: AsyncIterable<LedgerEntry>): AsyncGenerator<Record<string, string>> {
  for await (const entry of entries) {
    const counts = Object.entries(entry.outcomes).map(([outcome, n]) => `${n} ${outcome}`);
    yield {
      run_id: entry.run_id ?? '',
      // to the second: a table row is read, not parsed (-o json has the time as written)
      time: entry.time.replace(/\.\d+Z$/, 'Z'),
      // not named command: a command column is never cut (an enum's name), and it would leave no room for outcomes
      action: entry.command,
      outcomes: [...counts, ...(entry.error === undefined ? [] : ['stopped'])].join(', ') || 'none',
    };
  }
}
