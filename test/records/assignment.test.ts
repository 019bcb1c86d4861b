import { describe, expect, it } from 'vitest';
import { assignVehicleMember, BUNDLED_VEHICLE_MEMBER } from '../../src/records/assignment.js';
import { bundledDocument } from '../../src/api/served-document.js';
import { composeDocument, requestBodySchema, type OpenApiDoc } from '../../src/openapi/document-shapes.js';

/** A document whose assign command has this body schema (its components beside it), composed as when loaded. */
const withBody = (schema: object | undefined, schemas: Record<string, object> = {}): Promise<OpenApiDoc> =>
  composeDocument({
    openapi: '3.1.0',
    paths: { '/v1/devices/{id}/assignment': { put: schema ? { requestBody: { content: { 'application/json': { schema } } } } : {} } },
    components: { schemas },
  } as OpenApiDoc);
const members = (...names: string[]) => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) });

describe('assignVehicleMember: the assign command member that names the vehicle, from the document in use', () => {
  it('is what the bundled document declares', async () => {
    const doc = await bundledDocument();
    const declared = Object.keys((requestBodySchema(doc, 'PUT', '/v1/devices/{id}/assignment')?.properties as object | undefined) ?? {});
    expect(declared).toContain(BUNDLED_VEHICLE_MEMBER);
    expect(assignVehicleMember(doc)).toBe(BUNDLED_VEHICLE_MEMBER);
  });

  it.each([
    [['vehicleId'], 'vehicleId'],
    [['vehicle', 'note'], 'vehicle'],
    [['VehicleRef', 'reason'], 'VehicleRef'],
    [['target'], 'target'],
  ])('members %j: %s', async (names, expected) => {
    expect(assignVehicleMember(await withBody(members(...names)))).toBe(expected);
  });

  it('among several named for a vehicle: the one required, else the bundled name, else the first', async () => {
    expect(assignVehicleMember(await withBody({ ...members('vehicle_name', 'vehicleUuid'), required: ['vehicleUuid'] }))).toBe('vehicleUuid');
    expect(assignVehicleMember(await withBody(members('vehicle_name', 'vehicle_id')))).toBe('vehicle_id');
    expect(assignVehicleMember(await withBody(members('vehicleA', 'vehicleB')))).toBe('vehicleA');
  });

  it('no body schema, or members none of which is the vehicle: the bundled name', async () => {
    expect(assignVehicleMember(await withBody(undefined))).toBe(BUNDLED_VEHICLE_MEMBER);
    expect(assignVehicleMember(await withBody({ type: 'object' }))).toBe(BUNDLED_VEHICLE_MEMBER);
    expect(assignVehicleMember(await withBody(members('reason', 'note')))).toBe(BUNDLED_VEHICLE_MEMBER);
    expect(assignVehicleMember(await composeDocument({ openapi: '3.1.0', paths: {} } as OpenApiDoc))).toBe(BUNDLED_VEHICLE_MEMBER);
  });

  it('a body written as allOf of a $ref and more members: the members of every part', async () => {
    const schemas = { Base: members('note'), Car: { type: 'object', properties: { car: { $ref: '#/components/schemas/CarRef' } } }, CarRef: { $ref: '#/components/schemas/Uuid' }, Uuid: { type: 'string', format: 'uuid' } };
    expect(assignVehicleMember(await withBody({ allOf: [{ $ref: '#/components/schemas/Car' }, { required: ['car'] }] }, schemas))).toBe('car');
    expect(assignVehicleMember(await withBody({ allOf: [{ $ref: '#/components/schemas/Base' }, members('vehicle_ref')] }, schemas))).toBe('vehicle_ref');
  });
});
