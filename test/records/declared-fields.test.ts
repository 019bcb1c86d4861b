// The fields the document in use declares for an operation's records: what --columns and --sort may name.
import { describe, expect, it } from 'vitest';
import { declaredFieldsIn, declaredTimesIn } from '../../src/records/declared-fields.js';
import { bundledDocument } from '../../src/api/served-document.js';
import { serviceDocument } from '../support/second-service/openapi.js';
import { deviceRoutes } from '../support/second-service/devices.js';
import { composeDocument, type OpenApiDoc } from '../../src/openapi/document-shapes.js';

describe('declaredFieldsIn', () => {
  it("the bundled document's device fields, nested ones dotted", async () => {
    const fields = await declaredFieldsIn(async () => ({ document: await bundledDocument() }))('listDevices');
    expect(fields).toContain('hardware_id');
    expect(fields).toContain('last_seen_at');
  });

  it("the second service's own names, found by method and path whatever its operationIds", async () => {
    const document = await composeDocument(serviceDocument(deviceRoutes(new Map()), 'http://second.test/issuer') as unknown as OpenApiDoc);
    const fields = await declaredFieldsIn(async () => ({ document }))('listDevices');
    expect(fields).toContain('firmware.version');
    expect(fields).not.toContain('last_seen_at');
  });

  it('an operation the document does not describe: undefined (the records decide)', async () => {
    const document = await composeDocument({ paths: {} });
    expect(await declaredFieldsIn(async () => ({ document }))('listDevices')).toBeUndefined();
  });
});

describe('declaredTimesIn: which fields --sort orders as instants', () => {
  /** A device list whose records declare a nullable date-time three ways, a text member and a nested time. */
  const listing = (source: string) => async () => ({
    source,
    document: await composeDocument({
      openapi: '3.1.0',
      paths: {
        '/v1/devices': {
          get: { responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Device' } } } } } } } } },
        },
      },
      components: {
        schemas: {
          Stamp: { type: 'string', format: 'date-time' },
          Device: {
            type: 'object',
            properties: {
              seenAt: { anyOf: [{ $ref: '#/components/schemas/Stamp' }, { type: 'null' }] },
              heardAt: { oneOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] },
              madeAt: { type: ['string', 'null'], format: 'date-time' },
              ref: { type: 'string', description: 'text, though its values may read as times' },
              status: { type: 'object', properties: { since: { allOf: [{ $ref: '#/components/schemas/Stamp' }] } } },
            },
          },
        },
      },
    } as OpenApiDoc),
  });

  it('a date-time however its nullability is written, nested ones dotted; a text member is not; an undeclared one is unknown', async () => {
    const isTime = await declaredTimesIn(listing('served'))('listDevices');
    expect(['seenAt', 'heardAt', 'madeAt', 'status.since'].map(isTime)).toEqual([true, true, true, true]);
    expect(isTime('ref')).toBe(false);
    expect(isTime('status')).toBe(false);
    expect(isTime('last_seen_at')).toBeUndefined();
  });

  it('knows nothing from the bundled document (it describes the sandbox) nor of an operation the document lacks', async () => {
    expect((await declaredTimesIn(listing('bundled'))('listDevices'))('seenAt')).toBeUndefined();
    expect((await declaredTimesIn(listing('served'))('listFleets'))('created_at')).toBeUndefined();
  });
});
