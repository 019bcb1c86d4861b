import { describe, expect, it } from 'vitest';
import { checkDocumentValue, documentValueCheck } from '../../src/openapi/schema-check.js';
import { requestBodySchema, type OpenApiDoc } from '../../src/openapi/document-shapes.js';
import { bundledDocument } from '../../src/api/served-document.js';

/** A service's document with keywords and formats fleetctl's own never uses. */
const doc: OpenApiDoc = {
  openapi: '3.1.1',
  paths: {},
  components: {
    schemas: {
      Person: {
        type: 'object',
        required: ['given_name'],
        properties: {
          given_name: { type: 'string', minLength: 1, example: 'Ada', 'x-vendor-hint': true },
          email: { type: 'string', format: 'idn-email', maxLength: 300 },
          badge: { type: 'string', format: 'vendor-badge' },
          manager: { $ref: '#/components/schemas/Person' },
        },
        discriminator: { propertyName: 'kind' },
        additionalProperties: false,
      },
    },
  },
};
const person = { $ref: '#/components/schemas/Person' };

describe('checkDocumentValue: a schema of a document read at run time', () => {
  it('checks with the document\'s rules, $refs into its components resolved (recursion too)', async () => {
    expect(await checkDocumentValue(doc, person, { given_name: 'Ada', email: `${'a'.repeat(258)}@example.com` })).toBeNull();
    expect(await checkDocumentValue(doc, person, { given_name: 'Ada', manager: {} })).toEqual({ member: 'manager.given_name', reason: 'is required', keyword: 'required' });
    expect(await checkDocumentValue(doc, person, { given_name: '' })).toMatchObject({ member: 'given_name', reason: 'must have at least 1 character(s)' });
    expect(await checkDocumentValue(doc, person, { given_name: 'A', nickname: 'x' })).toMatchObject({ member: 'nickname', reason: 'is not a known member' });
  });

  it('keywords and formats ajv does not know are let be, not refused', async () => {
    expect(await checkDocumentValue(doc, person, { given_name: 'A', badge: 'anything at all' })).toBeNull();
  });

  it('a schema that does not compile checks nothing: the service judges', async () => {
    expect(await checkDocumentValue(doc, { $ref: '#/components/schemas/Missing' }, { any: 1 })).toBeNull();
  });

  it('the bundled document gives its own messages (x-must), compiled once for a prompt', async () => {
    const bundled = await bundledDocument();
    const check = await documentValueCheck(bundled, requestBodySchema(bundled, 'POST', '/v1/drivers'));
    const body = { organization_id: '11111111-1111-4111-8111-111111111111', fleet_id: '22222222-2222-4222-8222-222222222222', first_name: 'A', last_name: 'B' };
    expect(check(body)).toBeNull();
    expect(check({ ...body, phone: '5'.repeat(100) })).toEqual({ member: 'phone', reason: 'must be null or a string of 1 to 64 characters, not all blank', keyword: 'maxLength' });
  });
});
