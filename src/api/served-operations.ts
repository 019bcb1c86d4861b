// The operations of an OpenAPI document, for `fleetctl api`: which method and path template need which scope.
// The document itself comes from served-document.ts (the service's, a cached copy, or the bundled one).
import { OPERATIONS } from '../openapi/operations.js';
import { HTTP_METHODS } from '../openapi/document-shapes.js';
import type { ServedDocument } from './served-document.js';

export interface ServedOperation {
  operationId: string;
  method: string;
  path: string;
  scope: string;
}

export interface OperationCatalog {
  operations: ServedOperation[];
  /** Where the list comes from, for messages: the served document, the cache, or the bundled copy. */
  source: 'served' | 'cache' | 'bundled';
  /** Set when the served document could not be used and an older copy stands in. */
  warning?: string;
}

/** The operations of a loaded document, with where it came from. */
export function operationCatalogOf(served: ServedDocument): OperationCatalog {
  return { operations: operationsOfDocument(served.document), source: served.source, ...(served.warning ? { warning: served.warning } : {}) };
}

export function bundledOperations(): ServedOperation[] {
  return OPERATIONS.map(({ operationId, method, path: template, scope }) => ({ operationId, method, path: template, scope }));
}

/** Every operation with one scope (spec: every endpoint requires exactly one scope); others are left out. */
export function operationsOfDocument(doc: unknown): ServedOperation[] {
  const paths = (doc as { paths?: Record<string, Record<string, unknown>> } | null)?.paths;
  if (!paths || typeof paths !== 'object') throw new Error('it is not an OpenAPI document (no paths)');
  const operations: ServedOperation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method] as { operationId?: unknown; security?: Record<string, unknown>[] } | undefined;
      if (!op) continue;
      const scopes = (op.security ?? []).flatMap((requirement) => Object.values(requirement ?? {}).flat());
      if (scopes.length !== 1 || typeof scopes[0] !== 'string') continue;
      const operationId = typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${template}`;
      operations.push({ operationId, method: method.toUpperCase(), path: template, scope: scopes[0] });
    }
  }
  return operations;
}
