// One line of the audit ledger: what a command changed, where, as whom, and how each target ended. Written by
// recorder.ts, read back by reader.ts for `fleetctl history`; one JSON object a line (NDJSON), its members below.
// No secret is ever a member: the command line is redacted as --debug redacts a trace (shared/redact.ts), and
// nothing else a command hands in is a credential.

/** The version of the line's shape: a reader skips what it does not know rather than misreading it. */
export const LEDGER_VERSION = 1;

/** One target of a change (a device, a driver, an organization's webhook configuration, a setting) and its end. */
export interface LedgerTarget {
  target: string;
  /** The result as the command names it: accepted, replayed, failed, assigned, created, updated, deleted, set ... */
  outcome: string;
  idempotency_key?: string;
  /** The HTTP status of the last answer, when one came. */
  http_status?: number | null;
  /** The problem's code of a failure. */
  code?: string | null;
  /** With --wait: whether the device reported again in time. */
  wait?: 'back' | 'not_back';
}

export interface LedgerEntry {
  v: typeof LEDGER_VERSION;
  /** When the command ended, RFC 3339 UTC. */
  time: string;
  profile: string | null;
  base_url: string | null;
  client_id: string | null;
  /** The command's name: "devices reboot", "webhook-config apply", "config set". */
  command: string;
  /** The words after `fleetctl`, every secret redacted. */
  argv: string[];
  /** A bulk run's id (its journal's), null for a single change. */
  run_id: string | null;
  targets: LedgerTarget[];
  /** How many targets ended each way: what `history` shows without reading every target. */
  outcomes: Record<string, number>;
  /** When the command failed as a whole (or was interrupted) before every target had an outcome: why. */
  error?: string;
}

/** What a command hands in; the rest of its line (time, profile, service, client, command line) is filled in. */
export interface LedgerChange {
  command: string;
  runId?: string;
  targets?: LedgerTarget[];
  /** The command stopped as a whole before every target ended. */
  error?: string;
}

export function tallyOutcomes(targets: readonly LedgerTarget[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { outcome } of targets) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/** A line read back, if it is a ledger entry of a version this fleetctl reads. */
export function asLedgerEntry(value: unknown): LedgerEntry | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entry = value as Partial<LedgerEntry>;
  if (entry.v !== LEDGER_VERSION || typeof entry.time !== 'string' || typeof entry.command !== 'string' || !Array.isArray(entry.targets)) return undefined;
  return entry as LedgerEntry;
}

/** Why a command stopped before every target ended, for its line: interrupted, or the failure's own words. */
export function stopReason(error: unknown, interrupt: AbortSignal): string {
  if (interrupt.aborted) return 'interrupted';
  return error instanceof Error ? error.message : String(error);
}

/** A bulk run's result for one device (a journal's result line) as the ledger keeps it. */
export function ledgerTargetOf(result: { hardware_id: string; status: string; http_status?: number | null; code?: string | null; idempotency_key?: string }): LedgerTarget {
  const { hardware_id: target, status: outcome, http_status, code, idempotency_key } = result;
  return { target, outcome, ...(idempotency_key === undefined ? {} : { idempotency_key }), ...(http_status === undefined ? {} : { http_status }), ...(code === undefined ? {} : { code }) };
}
