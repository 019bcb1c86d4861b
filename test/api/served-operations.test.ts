import { describe, expect, it } from 'vitest';
import { bundledOperations, operationCatalogOf, operationsOfDocument } from '../../src/api/served-operations.js';
import { bundledDocument } from '../../src/api/served-document.js';

const doc = { paths: { '/v1/a': { get: { operationId: 'getA', security: [{ oauth2: ['s.a'] }] }, post: { operationId: 'noScope' } } } };

describe('served operations', () => {
  it('lists operations with exactly one scope', () => {
    expect(operationsOfDocument(doc)).toEqual([{ operationId: 'getA', method: 'GET', path: '/v1/a', scope: 's.a' }]);
    expect(() => operationsOfDocument({ info: {} })).toThrow('no paths');
  });

  it('names an operation without an operationId by its method and path', () => {
    expect(operationsOfDocument({ paths: { '/v1/b/{x}': { delete: { security: [{ oauth2: ['s.b'] }] } } } })).toEqual([
      { operationId: 'DELETE /v1/b/{x}', method: 'DELETE', path: '/v1/b/{x}', scope: 's.b' },
    ]);
  });

  it('keeps where the document came from, and its warning', () => {
    expect(operationCatalogOf({ document: doc, source: 'cache', warning: 'stale' })).toEqual({ operations: operationsOfDocument(doc), source: 'cache', warning: 'stale' });
  });

  it('the bundled document has the operations of the generated list', async () => {
    expect(operationsOfDocument(await bundledDocument())).toEqual(bundledOperations());
  });
});
