// Which member of a device's last-reported state says when it reported: the spec shows no fields, so it is read
// from the document the service serves (the date-time member of the last-reported answer), or given with
// --report-time-field. Found before anything is sent: a --wait that cannot tell when a device is back must not
// start a reboot.
import { UsageError } from '../errors.js';
import { recordFields, responseRecordSchema, type OpenApiDoc } from '../openapi/document-shapes.js';
import type { ServedDocument } from '../api/served-document.js';
import { parseInstant, type Instant } from '../shared/rfc3339.js';
import { quoteInput } from '../shared/terminal-text.js';

export const LAST_REPORTED_PATH = '/v1/devices/{hardwareId}/last-reported';

const HINT = 'name the date-time field of GET /v1/devices/{hardwareId}/last-reported with --report-time-field NAME (see: fleetctl devices last-reported HW -o json)';

/** Every member the document gives the last-reported state (dotted when nested); undefined when it describes none. */
export function describedLastReportedFields(doc: OpenApiDoc): string[] | undefined {
  const schema = responseRecordSchema(doc, 'get', LAST_REPORTED_PATH);
  return schema ? Object.keys(recordFields(schema)) : undefined;
}

/** The date-time members the document gives the last-reported state (dotted when nested). */
export function dateTimeMembers(doc: OpenApiDoc): string[] {
  const schema = responseRecordSchema(doc, 'get', LAST_REPORTED_PATH);
  if (!schema) return [];
  return Object.entries(recordFields(schema)).filter(([, kind]) => kind === 'date-time').map(([name]) => name);
}

/**
 * The field to follow: --report-time-field when given, else the one date-time member of the served document's
 * last-reported state (of several, the one whose name says "report"). A document fleetctl only bundles describes
 * the sandbox, not this service: it is no answer.
 */
export function reportTimeField(served: ServedDocument, given: string | undefined): string {
  if (given !== undefined) return given;
  if (served.source === 'bundled') {
    throw new UsageError('--wait cannot tell when a device reports: the service serves no API document to name the report time of its last-reported state', HINT);
  }
  const members = dateTimeMembers(served.document);
  if (members.length === 1) return members[0]!;
  const reported = members.filter((name) => /report/i.test(name));
  if (reported.length === 1) return reported[0]!;
  if (members.length === 0) throw new UsageError('--wait cannot tell when a device reports: the API document gives its last-reported state no date-time field', HINT);
  throw new UsageError(`--wait cannot tell which of ${members.map((m) => quoteInput(m)).join(', ')} is the report time of the last-reported state`, HINT);
}

/** The report time in a last-reported record (an instant, to the nanosecond), or undefined when it has none there. */
export function reportTimeOf(record: unknown, field: string): Instant | undefined {
  let value: unknown = record;
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'string' ? parseInstant(value) : undefined;
}
