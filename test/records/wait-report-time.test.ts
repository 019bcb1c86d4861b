// The report time --wait follows (records/report-time.ts, the rule `status` follows too): the date-time member of the served document's last-reported state (the
// sandbox's and the second service's, with their own names), --report-time-field over it, and a clear usage error
// when no document tells (a bundled stand-in is no answer) or it cannot tell which.
import { describe, expect, it } from 'vitest';
import { waitReportTimeField as reportTimeField, reportInstantOf as reportTimeOf } from '../../src/records/report-time.js';
import { bundledDocument } from '../../src/api/served-document.js';
import { serviceDocument } from '../support/second-service/openapi.js';
import { deviceRoutes } from '../support/second-service/devices.js';
import { composeDocument, type OpenApiDoc } from '../../src/openapi/document-shapes.js';

const lastReported = (properties: Record<string, unknown>): Promise<OpenApiDoc> =>
  composeDocument({
    openapi: '3.1.1',
    info: { title: 't', version: '1' },
    paths: { '/v1/devices/{hardwareId}/last-reported': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } } } } },
  } as unknown as OpenApiDoc);
const time = { type: 'string', format: 'date-time' };

describe('reportTimeField', () => {
  it("the sandbox's document names reported_at", async () => {
    expect(reportTimeField({ document: await bundledDocument(), source: 'served' }, undefined)).toBe('reported_at');
  });

  it("the second service's names observed_at", async () => {
    const document = await composeDocument(serviceDocument(deviceRoutes(new Map()), 'http://second.test/issuer') as unknown as OpenApiDoc);
    expect(reportTimeField({ document, source: 'served' }, undefined)).toBe('observed_at');
  });

  it('--report-time-field wins, even when no document is served', async () => {
    expect(reportTimeField({ document: await bundledDocument(), source: 'bundled' }, 'seen_at')).toBe('seen_at');
  });

  it('a bundled stand-in is no answer: said before anything is sent, with the flag to use', async () => {
    const document = await bundledDocument();
    expect(() => reportTimeField({ document, source: 'bundled' }, undefined)).toThrow(/serves no API document/);
  });

  it('of several date-time members, the one that says "report"; otherwise it asks', async () => {
    expect(reportTimeField({ document: await lastReported({ fixed_at: time, last_report: time }), source: 'served' }, undefined)).toBe('last_report');
    const [twoTimes, noTime] = await Promise.all([lastReported({ a_at: time, b_at: time }), lastReported({ odometer: { type: 'number' } })]);
    expect(() => reportTimeField({ document: twoTimes, source: 'served' }, undefined)).toThrow(/cannot tell which of "a_at", "b_at"/);
    expect(() => reportTimeField({ document: noTime, source: 'served' }, undefined)).toThrow(/no date-time field/);
  });

  it("the rule `status` follows too: a time of creation is never the report time, even alone; a report's name picks among the rest", async () => {
    const createdOnly = await lastReported({ created_at: time });
    expect(() => reportTimeField({ document: createdOnly, source: 'served' }, undefined)).toThrow(/cannot tell which of "created_at"/);
    expect(reportTimeField({ document: await lastReported({ created_at: time, updated_at: time, fix_time: time }), source: 'served' }, undefined)).toBe('fix_time');
    expect(reportTimeField({ document: await lastReported({ fixed_at: time, last_seen_at: time }), source: 'served' }, undefined)).toBe('last_seen_at');
  });
});

describe('reportTimeOf', () => {
  it('reads an RFC 3339 time, nested by dots; anything else is no time', () => {
    expect(reportTimeOf({ reported_at: '2026-01-01T00:00:01Z' }, 'reported_at')).toEqual({ ms: Date.parse('2026-01-01T00:00:01Z'), nanos: 0 });
    expect(reportTimeOf({ a: { b: '2026-01-01T00:00:01.500+01:00' } }, 'a.b')).toEqual({ ms: Date.parse('2026-01-01T00:00:01.500+01:00'), nanos: 0 });
    // to the nanosecond: a report 0.4 ms after the acceptance is after it
    expect(reportTimeOf({ reported_at: '2026-01-01T05:30:01.000400+05:30' }, 'reported_at')).toEqual({ ms: Date.parse('2026-01-01T00:00:01Z'), nanos: 400_000 });
    expect(reportTimeOf({ reported_at: 'yesterday' }, 'reported_at')).toBeUndefined();
    // missing, or null: never reported (the watcher waits on, and says once that the member is missing)
    expect(reportTimeOf({}, 'reported_at')).toBeNull();
  });
});
