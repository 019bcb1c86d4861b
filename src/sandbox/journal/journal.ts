// The request journal (GET /_sandbox/requests): the latest API and token requests, what the client sent and
// what it got, in a ring buffer of a fixed number of entries, so memory stays bounded however long the
// sandbox runs. Secrets are redacted when an entry is made (journal/capture.ts): none is ever kept.

/** aborted: the client left before its request was complete; timed_out: it stalled and was answered 408. */
export type JournalOutcome = 'answered' | 'dropped' | 'truncated' | 'malformed' | 'aborted' | 'timed_out';

export interface JournalEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  query: string;
  operation_id: string | null;
  client_id: string | null;
  hardware_id: string | null;
  status: number | null;
  outcome: JournalOutcome;
  duration_ms: number;
  idempotency_key: string | null;
  if_match: string | null;
  authorization: string | null;
  fault: string | null;
  request_body: string | null;
  response_body: string | null;
}

export type NewJournalEntry = Omit<JournalEntry, 'id'>;

/** A status filter: one status (503), a class (5 for 5xx), or the entries without one (dropped or aborted connections). */
export type StatusFilter = { status: number } | { statusClass: number } | { dropped: true };

export interface JournalFilter {
  operationId?: string;
  clientId?: string;
  hardwareId?: string;
  status?: StatusFilter;
  /** Entries with a larger id only. */
  after?: number;
  /** The latest this many (of those that match). */
  limit?: number;
  bodies?: boolean;
}

export class RequestJournal {
  private readonly ring: (JournalEntry | undefined)[];
  private written = 0;

  constructor(readonly capacity: number) {
    this.ring = new Array<JournalEntry | undefined>(capacity);
  }

  record(entry: NewJournalEntry): JournalEntry {
    const full = { id: this.written + 1, ...entry };
    this.ring[this.written % this.capacity] = full;
    this.written++;
    return full;
  }

  /** Matching entries, oldest first; bodies only when asked for. */
  list(filter: JournalFilter = {}): Partial<JournalEntry>[] {
    const matching: JournalEntry[] = [];
    for (let id = Math.max(1, this.written - this.capacity + 1, (filter.after ?? 0) + 1); id <= this.written; id++) {
      const entry = this.ring[(id - 1) % this.capacity]!;
      if (matches(entry, filter)) matching.push(entry);
    }
    const latest = filter.limit === undefined ? matching : matching.slice(-filter.limit);
    return latest.map((entry) => {
      if (filter.bodies) return entry;
      const { request_body: _request, response_body: _response, ...rest } = entry;
      return rest;
    });
  }
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.operationId !== undefined && entry.operation_id !== filter.operationId) return false;
  if (filter.clientId !== undefined && entry.client_id !== filter.clientId) return false;
  if (filter.hardwareId !== undefined && entry.hardware_id !== filter.hardwareId) return false;
  const s = filter.status;
  if (s === undefined) return true;
  if ('dropped' in s) return entry.status === null;
  if ('status' in s) return entry.status === s.status;
  return entry.status !== null && Math.floor(entry.status / 100) === s.statusClass;
}
