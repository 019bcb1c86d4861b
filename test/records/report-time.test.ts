// The device report time is found, never assumed: from the served document's record schema, else the records.
import { describe, expect, it } from 'vitest';
import { chooseReportTime, reportTimeFromDocument, reportTimeFromRecords, reportTimeOf } from '../../src/records/report-time.js';
import { composeDocument, type OpenApiDoc } from '../../src/openapi/document-shapes.js';

function documentWith(properties: Record<string, unknown>, schemas: Record<string, unknown> = {}): Promise<OpenApiDoc> {
  return composeDocument({
    paths: {
      '/v1/devices': {
        get: { responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/D' } } } } } } } } },
      },
    },
    components: { schemas: { ...schemas, D: { type: 'object', properties } } },
  } as OpenApiDoc);
}
const time = { type: 'string', format: 'date-time' };

describe('chooseReportTime', () => {
  it('passes over creation and enrolment times', () => {
    expect(chooseReportTime(['created_at', 'last_seen_at'])).toEqual({ field: 'last_seen_at' });
    expect(chooseReportTime(['reported_at'])).toEqual({ field: 'reported_at' });
  });
  it('among several candidates, the one named as a report time', () => {
    expect(chooseReportTime(['heartbeat_at', 'last_contact_at'])).toEqual({ field: 'last_contact_at' });
  });
  it('unknown when ambiguous or absent, saying why', () => {
    expect(chooseReportTime(['a_at', 'b_at']).note).toBe('the device records carry several date-time members (a_at, b_at) and none is named as the report time');
    expect(chooseReportTime(['created_at']).note).toBe('no date-time member of the device records can be a report time (only created_at, which are not report times)');
    expect(chooseReportTime([]).field).toBeUndefined();
  });
});

describe('reportTimeFromDocument', () => {
  it("reads the date-time members of the devices list's record schema", async () => {
    expect(reportTimeFromDocument(await documentWith({ id: { type: 'string' }, last_seen_at: { type: ['string', 'null'], format: 'date-time' }, created_at: time }))).toEqual({
      field: 'last_seen_at',
      source: 'document',
      note: undefined,
    });
  });
  it('is undefined when the document has no devices list', async () => {
    expect(reportTimeFromDocument(await composeDocument({ paths: {} }))).toBeUndefined();
  });
  it.each([
    ['anyOf with null', { anyOf: [time, { type: 'null' }] }],
    ['oneOf with null', { oneOf: [{ $ref: '#/components/schemas/Time' }, { type: 'null' }] }],
    ["3.0's nullable", { ...time, nullable: true }],
    ['an allOf wrapper around a $ref chain', { allOf: [{ $ref: '#/components/schemas/When' }], description: 'last report' }],
  ])('a nullable date-time written as %s is a date-time', async (_form, lastSeen) => {
    const schemas = { Time: time, When: { $ref: '#/components/schemas/Time' } };
    expect(reportTimeFromDocument(await documentWith({ id: { type: 'string' }, last_seen_at: lastSeen, created_at: time, label: { type: 'string' } }, schemas))?.field).toBe('last_seen_at');
  });
});

describe('reportTimeFromRecords', () => {
  it('finds members holding RFC 3339 date-times, a date alone is not one', () => {
    const records = [{ id: 'x', reported_at: '2026-11-25T10:00:00Z', enrolled_on: '2023-05-04' }];
    expect(reportTimeFromRecords(records)).toEqual({ field: 'reported_at', source: 'records', note: undefined });
  });
  it('says so when there are no records', () => {
    expect(reportTimeFromRecords([])).toEqual({ note: 'no device records to read it from' });
  });
});

describe('reportTimeOf', () => {
  it('null or absent is never reported; a non-date is unreadable', () => {
    expect(reportTimeOf({ t: null }, 't')).toBeNull();
    expect(reportTimeOf({}, 't')).toBeNull();
    expect(reportTimeOf({ t: 'soon' }, 't')).toBeUndefined();
    expect(reportTimeOf({ a: { t: '2026-01-01T00:00:00Z' } }, 'a.t')).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});
