import { beforeAll, describe, expect, it } from 'vitest';
import { composeDocument, findOperation, parameterSchemas, recordFieldNames, recordFields, requestBodySchema, resolveSchema, responseRecordSchema, type OpenApiDoc } from '../../src/openapi/document-shapes.js';
import { bundledDocument } from '../../src/api/served-document.js';
import { checkDocumentValue } from '../../src/openapi/schema-check.js';

/** A service's document with its own names, written here rather than taken from v1.json. */
const raw: OpenApiDoc = {
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

let doc: OpenApiDoc;
beforeAll(async () => {
  doc = await composeDocument(raw);
});

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
    expect((record?.properties as Record<string, unknown>).firmware).toEqual(raw.components!.schemas!.Firmware);
    expect(JSON.stringify(record)).not.toContain('$ref');
  });

  it('no JSON answer declared: undefined', () => {
    expect(responseRecordSchema(doc, 'DELETE', '/v1/devices/{id}')).toBeUndefined();
  });

  it('the request body of any JSON media type, resolved', () => {
    expect(requestBodySchema(doc, 'PATCH', '/v1/devices/{unit}')).toEqual(raw.components!.schemas!.UnitPatch);
    expect(requestBodySchema(doc, 'GET', '/v1/devices')).toBeUndefined();
  });

  it('parameters of the path item and of the operation, $refs resolved', () => {
    expect(parameterSchemas(doc, 'GET', '/v1/devices')).toEqual([
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string', maxLength: 1000 }, style: 'form', explode: true },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', maximum: 500 }, style: 'form', explode: true },
    ]);
    expect(parameterSchemas(doc, 'GET', '/v1/devices/{id}')).toEqual([{ name: 'deviceId', in: 'path', required: true, schema: { type: 'string' }, style: 'simple', explode: false }]);
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

  it('a raw document is refused: it must be composed when it is loaded', () => {
    expect(() => findOperation({ paths: {} }, 'GET', '/v1/devices')).toThrow(/composeDocument/);
  });

  it('the bundled document gives the fields the build generated', async () => {
    const { SCHEMA_FIELDS } = await import('../../src/openapi/fields.gen.js');
    const bundled = await bundledDocument();
    expect(recordFields(responseRecordSchema(bundled, 'GET', '/v1/devices'))).toEqual(SCHEMA_FIELDS.Device);
    expect(recordFields(responseRecordSchema(bundled, 'GET', '/v1/drivers/{driverId}'))).toEqual(SCHEMA_FIELDS.Driver);
  });
});

/** A document in the forms generators write: a path item, a parameter and a body by $ref, allOf, nullable three ways. */
const generated: OpenApiDoc = {
  openapi: '3.1.0',
  paths: {
    '/v1/units': { $ref: '#/components/pathItems/Units' },
  },
  components: {
    pathItems: {
      Units: {
        parameters: [{ $ref: '#/components/parameters/Kinds' }],
        get: {
          parameters: [{ $ref: '#/components/parameters/Ids' }],
          responses: { '200': { $ref: '#/components/responses/UnitPage' } },
        },
        post: { requestBody: { $ref: '#/components/requestBodies/NewUnit' }, responses: { '201': { description: 'made' } } },
      },
    },
    parameters: {
      Kinds: { name: 'kinds', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } },
      Ids: { name: 'ids', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/UnitId' } } },
    },
    requestBodies: { NewUnit: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewUnit' } } } } },
    responses: { UnitPage: { description: 'a page', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Unit' } } } } } } } },
    schemas: {
      UnitId: { $ref: '#/components/schemas/Uuid' },
      Uuid: { type: 'string', format: 'uuid' },
      Base: { type: 'object', properties: { id: { $ref: '#/components/schemas/UnitId', readOnly: true } }, required: ['id'] },
      Unit: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          {
            type: 'object',
            properties: {
              seen: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
              made: { type: 'string', format: 'date-time', nullable: true },
              staff_no: { oneOf: [{ type: 'string' }, { type: 'null' }] },
              size: { type: ['integer', 'null'] },
            },
          },
        ],
      },
      NewUnit: { allOf: [{ $ref: '#/components/schemas/Unit' }, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }] },
      Clash: { allOf: [{ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } }, { properties: { a: { type: 'integer' } } }] },
      Kinds: { type: 'object', properties: { kind: { allOf: [{ enum: ['car', 'van'] }, { enum: ['bus'] }] } } },
    },
  },
};

describe('a document in generated forms, composed', () => {
  let composed: OpenApiDoc;
  beforeAll(async () => {
    composed = await composeDocument(generated);
  });

  it('follows $refs to path items, parameters, bodies and responses, and merges allOf', () => {
    expect(recordFields(responseRecordSchema(composed, 'GET', '/v1/units'))).toEqual({ id: 'uuid', seen: 'date-time', made: 'date-time', staff_no: 'string', size: 'integer' });
    expect(Object.keys((requestBodySchema(composed, 'POST', '/v1/units')?.properties as object) ?? {})).toEqual(['id', 'seen', 'made', 'staff_no', 'size', 'name']);
  });

  it('writes nullable one way: the type with null', () => {
    const members = responseRecordSchema(composed, 'GET', '/v1/units')?.properties as Record<string, Record<string, unknown>>;
    expect(members.seen).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(members.made).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(members.staff_no).toEqual({ type: ['string', 'null'] });
    expect(members.size).toEqual({ type: ['integer', 'null'] });
  });

  it('a readOnly member is required in the record, never in a request', () => {
    expect(responseRecordSchema(composed, 'GET', '/v1/units')?.required).toEqual(['id']);
    expect(requestBodySchema(composed, 'POST', '/v1/units')?.required).toEqual(['name']);
  });

  it('the request check allows what the composed body allows: null for every nullable spelling, no readOnly id', async () => {
    const body = requestBodySchema(composed, 'POST', '/v1/units');
    expect(await checkDocumentValue(composed, body, { name: 'n', seen: null, made: null, staff_no: null, size: null })).toBeNull();
    expect(await checkDocumentValue(composed, body, { name: 'n', staff_no: '1815', made: '2026-01-02T03:04:05+05:30' })).toBeNull();
    expect(await checkDocumentValue(composed, body, { name: 'n', size: 'big' })).toMatchObject({ member: 'size', keyword: 'type' });
    expect(await checkDocumentValue(composed, body, {})).toMatchObject({ member: 'name', reason: 'is required' });
  });

  it("parameters of a referenced path item, with the document's style and explode", () => {
    expect(parameterSchemas(composed, 'GET', '/v1/units')).toEqual([
      { name: 'kinds', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: false },
      { name: 'ids', in: 'query', required: false, schema: { type: 'array', items: { type: 'string', format: 'uuid' } }, style: 'form', explode: true },
    ]);
  });

  it('branches of an allOf that conflict leave the member declared and accepting anything', () => {
    expect((composed.components!.schemas!.Clash as { properties: unknown }).properties).toEqual({ a: {}, b: { type: 'string' } });
    // enums with nothing in common: not an empty enum that refuses every value
    expect((composed.components!.schemas!.Kinds as { properties: unknown }).properties).toEqual({ kind: {} });
  });

  it('the raw document is left as it was', () => {
    expect(JSON.stringify(generated)).toContain('"nullable":true');
  });
});
