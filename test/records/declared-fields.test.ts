// The fields the document in use declares for an operation's records: what --columns and --sort may name.
import { describe, expect, it } from 'vitest';
import { declaredFieldsIn } from '../../src/records/declared-fields.js';
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
