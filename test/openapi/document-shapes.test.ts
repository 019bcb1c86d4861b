import { describe, expect, it } from 'vitest';
import { findOperation, parameterSchemas, recordFieldNames, recordFields, requestBodySchema, resolveSchema, responseRecordSchema, type OpenApiDoc } from '../../src/openapi/document-shapes.js';
import { bundledDocument } from '../../src/api/served-document.js';

/** A service's document with its own names, written here rather than taken from v1.json. */
const doc: OpenApiDoc = {
  openapi: '3.1.1',
  paths: {
    '/v1/devices/{deviceId}': {
      parameters: [{ name: 'deviceId', in: 'path', schema: { type: 'string' } }],
      get: { operationId: 'fetchUnit', responses: { '200': { $ref: '#/components/responses/Unit' }, '404': { description: 'no' } } },
      patch: {
        requestBody: { content: { 'application/merge-patch+json': { schema: { $ref: '#/components/schemas/UnitPatch' } } } },
        responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Unit' } } } } },
      },
    },
    '/v1/devices': {
      get: {
        parameters: [{ $ref: '#/components/parameters/Cursor' }, { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 500 } }],
        responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/UnitPage' } } } } },
      },
    },
    '/v1/trees': { get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } } } } } },
  },
  components: {
    responses: { Unit: { description: 'a unit', content: { 'application/json': { schema: { $ref: '#/components/schemas/Unit' } } } } },
    parameters: { Cursor: { name: 'cursor', in: 'query', required: false, schema: { $ref: '#/components/schemas/Cursor' } } },
    schemas: {
      Cursor: { type: 'string', maxLength: 1000 },
      Unit: {
        type: 'object',
        properties: {
          unit_id: { type: 'string', format: 'uuid' },
          serial: { type: 'string' },
          firmware: { $ref: '#/components/schemas/Firmware' },
          seen: { type: ['string', 'null'], format: 'date-time' },
        },
        allOf: [{ properties: { label: { type: 'string' } } }],
      },
      Firmware: { type: 'object', properties: { version: { type: 'string' }, channel: { type: 'string' } } },
      UnitPage: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Unit' } }, next_cursor: { type: ['string', 'null'] } } },
      UnitPatch: { type: 'object', properties: { label: { type: 'string', maxLength: 300 } }, additionalProperties: false },
      Tree: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
    },
  },
};

describe('findOperation', () => {
  it('matches method and path template, whatever the parameters are named', () => {
    expect(findOperation(doc, 'GET', '/v1/devices/{id}')?.operationId).toBe('fetchUnit');
    expect(findOperation(doc, 'get', '/v1/devices/{deviceId}/')?.operationId).toBe('fetchUnit');
    expect(findOperation(doc, 'DELETE', '/v1/devices/{id}')).toBeUndefined();
    expect(findOperation(doc, 'GET', '/v1/devices/{id}/events')).toBeUndefined();
    expect(findOperation(doc, 'GET', '/v1/devices/serial')).toBeUndefined();
  });
});

describe('schemas of an operation', () => {
  it('the record of a list is the item of data, of a get the body, with $refs resolved (through a response $ref too)', () => {
    const record = responseRecordSchema(doc, 'GET', '/v1/devices');
    expect(record).toEqual(responseRecordSchema(doc, 'GET', '/v1/devices/{id}'));
    expect((record?.properties as Record<string, unknown>).firmware).toEqual(doc.components!.schemas!.Firmware);
    expect(JSON.stringify(record)).not.toContain('$ref');
  });

  it('no JSON answer declared: undefined', () => {
    expect(responseRecordSchema(doc, 'DELETE', '/v1/devices/{id}')).toBeUndefined();
  });

  it('the request body of any JSON media type, resolved', () => {
    expect(requestBodySchema(doc, 'PATCH', '/v1/devices/{unit}')).toEqual(doc.components!.schemas!.UnitPatch);
    expect(requestBodySchema(doc, 'GET', '/v1/devices')).toBeUndefined();
  });

  it('parameters of the path item and of the operation, $refs resolved', () => {
    expect(parameterSchemas(doc, 'GET', '/v1/devices')).toEqual([
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string', maxLength: 1000 } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', maximum: 500 } },
    ]);
    expect(parameterSchemas(doc, 'GET', '/v1/devices/{id}')).toEqual([{ name: 'deviceId', in: 'path', required: true, schema: { type: 'string' } }]);
  });

  it('a recursive schema resolves once and keeps the $ref where it loops', () => {
    const tree = resolveSchema(doc, { $ref: '#/components/schemas/Tree' }) as { properties: { children: { items: unknown } } };
    expect(tree.properties.children.items).toEqual({ $ref: '#/components/schemas/Tree' });
    expect(recordFieldNames(responseRecordSchema(doc, 'GET', '/v1/trees'))).toEqual(['name', 'children']);
  });
});

describe('recordFields', () => {
  it('dotted names for nested objects, branches of allOf included, with their kinds', () => {
    expect(recordFields(responseRecordSchema(doc, 'GET', '/v1/devices'))).toEqual({
      unit_id: 'uuid',
      serial: 'string',
      firmware: 'object',
      'firmware.version': 'string',
      'firmware.channel': 'string',
      seen: 'date-time',
      label: 'string',
    });
  });

  it('the bundled document gives the fields the build generated', async () => {
    const { SCHEMA_FIELDS } = await import('../../src/openapi/fields.gen.js');
    const bundled = await bundledDocument();
    expect(recordFields(responseRecordSchema(bundled, 'GET', '/v1/devices'))).toEqual(SCHEMA_FIELDS.Device);
    expect(recordFields(responseRecordSchema(bundled, 'GET', '/v1/drivers/{driverId}'))).toEqual(SCHEMA_FIELDS.Driver);
  });
});
