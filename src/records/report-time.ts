// Which member of a record says when a device last reported: of a device record (`status`), and of its
// last-reported state (`--wait`). The spec shows no field of either, so this is found, never assumed, by one rule:
// from the record schema in the document the service serves, else (status, no served document) from the records
// themselves, else given with --report-time-field. A member that is a time of creation or enrolment is not a
// report time; when more than one candidate is left and none is named like a report time, the field is unknown
// and the caller says so rather than guess.
import { UsageError } from '../errors.js';
import { recordFields, responseRecordSchema, type OpenApiDoc } from '../openapi/document-shapes.js';
import { parseInstant, parseRfc3339, type Instant } from '../shared/rfc3339.js';
import { valueAt } from '../shared/member-path.js';
import { quoteInput } from '../shared/terminal-text.js';

export const DEVICES_PATH = '/v1/devices';
export const LAST_REPORTED_PATH = '/v1/devices/{hardwareId}/last-reported';

export type ReportTimeSource = 'flag' | 'document' | 'records';

export interface ReportTimeField {
  /** Dotted for a nested member; undefined when unknown. */
  field?: string;
  source?: ReportTimeSource;
  /** Why it is unknown, or which candidates were passed over. */
  note?: string;
}

/** Times that are not of a report: when the record was made, changed, enrolled, installed ... */
const NOT_A_REPORT = /creat|updat|modif|enrol|regist|revis|delet|install|open|expir|valid_until/i;
/** Names of a report time, to choose among several candidates. */
const LIKE_A_REPORT = /report|seen|heard|contact|last/i;

/** Picks the report time among date-time members; the reason when none or several are left. */
export function chooseReportTime(dateTimeMembers: string[]): { field?: string; note?: string } {
  const candidates = reportTimeCandidates(dateTimeMembers);
  if (candidates.length === 1) return { field: candidates[0] };
  const named = candidates.filter((name) => LIKE_A_REPORT.test(name));
  if (named.length === 1) return { field: named[0] };
  if (candidates.length === 0) {
    const passed = dateTimeMembers.length > 0 ? ` (only ${dateTimeMembers.join(', ')}, which are not report times)` : '';
    return { note: `no date-time member of the device records can be a report time${passed}` };
  }
  return { note: `the device records carry several date-time members (${candidates.join(', ')}) and none is named as the report time` };
}

/** The date-time members a document gives the records of GET `path` (dotted when nested); undefined when it describes none. */
export function dateTimeMembers(document: OpenApiDoc, path: string): string[] | undefined {
  const schema = responseRecordSchema(document, 'GET', path);
  if (!schema) return undefined;
  return Object.entries(recordFields(schema)).filter(([, kind]) => kind === 'date-time').map(([name]) => name);
}

/** The date-time members that can be a report time: not a time of creation, change, enrolment ... */
function reportTimeCandidates(members: readonly string[]): string[] {
  return members.filter((name) => !NOT_A_REPORT.test(name));
}

/** From the record schema of GET /v1/devices in a document the service served (or its cached copy). */
export function reportTimeFromDocument(document: OpenApiDoc): ReportTimeField | undefined {
  const members = dateTimeMembers(document, DEVICES_PATH);
  if (!members) return undefined;
  const chosen = chooseReportTime(members);
  return { ...chosen, source: chosen.field ? 'document' : undefined, note: chosen.note ? `${chosen.note} (the service's document)` : undefined };
}

/** From records alone: members whose values are RFC 3339 date-times (nested members one level down). */
export function reportTimeFromRecords(records: readonly unknown[]): ReportTimeField {
  const members = new Set<string>();
  const visit = (value: unknown, prefix: string, depth: number) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      if (typeof member === 'string' && /T/i.test(member) && parseRfc3339(member) !== undefined) members.add(`${prefix}${name}`);
      else if (depth < 1) visit(member, `${prefix}${name}.`, depth + 1);
    }
  };
  for (const record of records) visit(record, '', 0);
  if (records.length === 0) return { note: 'no device records to read it from' };
  const chosen = chooseReportTime([...members]);
  return { ...chosen, source: chosen.field ? 'records' : undefined, note: chosen.note ? `${chosen.note} (read from the records: the service serves no document)` : undefined };
}

/**
 * The report time of one record in epoch ms; null when it never reported (the member null, or left out as some
 * services leave out empty members); undefined when the member holds something that is not a date-time.
 */
export function reportTimeOf(record: unknown, field: string): number | null | undefined {
  const value = valueAt(record, field);
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  return parseRfc3339(value);
}

/** How long after its last report a device is stale when --stale-after does not say: `status` and --where's `stale`. */
export const DEFAULT_STALE_AFTER_MS = 3_600_000;

/**
 * Whether a device that reported at `reportMs` is stale at `nowMs`: its report is older than `staleAfterMs`. A report
 * time in the future (a device clock ahead of this machine's) is fresh, not stale. One rule for `status` and `stale`.
 */
export function isStale(reportMs: number, nowMs: number, staleAfterMs: number): boolean {
  return nowMs - reportMs > staleAfterMs;
}

/** The report time of one record as an instant (to the nanosecond: --wait compares it so); null and undefined as above. */
export function reportInstantOf(record: unknown, field: string): Instant | null | undefined {
  const value = valueAt(record, field);
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? parseInstant(value) : undefined;
}

/** Every member the document gives the last-reported state (dotted when nested); undefined when it describes none. */
export function describedLastReportedFields(document: OpenApiDoc): string[] | undefined {
  const schema = responseRecordSchema(document, 'GET', LAST_REPORTED_PATH);
  return schema ? Object.keys(recordFields(schema)) : undefined;
}

const WAIT_HINT = 'name the date-time field of GET /v1/devices/{hardwareId}/last-reported with --report-time-field NAME (see: fleetctl devices last-reported HW -o json)';

/**
 * The member --wait follows in a device's last-reported state: --report-time-field when given, else the report
 * time the served document gives that state, by the rule above. Found before anything is sent: a --wait that
 * cannot tell when a device is back must not start a reboot. A document fleetctl only bundles describes the
 * sandbox, not this service: it is no answer.
 */
export function waitReportTimeField(served: { document: OpenApiDoc; source: string }, given: string | undefined): string {
  if (given !== undefined) return given;
  if (served.source === 'bundled') {
    throw new UsageError('--wait cannot tell when a device reports: the service serves no API document to name the report time of its last-reported state', WAIT_HINT);
  }
  const members = dateTimeMembers(served.document, LAST_REPORTED_PATH) ?? [];
  const chosen = chooseReportTime(members);
  if (chosen.field !== undefined) return chosen.field;
  if (members.length === 0) throw new UsageError('--wait cannot tell when a device reports: the API document gives its last-reported state no date-time field', WAIT_HINT);
  const candidates = reportTimeCandidates(members);
  const which = (candidates.length > 0 ? candidates : members).map((m) => quoteInput(m)).join(', ');
  throw new UsageError(`--wait cannot tell which of ${which} is the report time of the last-reported state`, WAIT_HINT);
}
