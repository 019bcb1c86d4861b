// The OpenAPI 3.1.1 document of the sandbox's control routes (/_sandbox/*), served at /_sandbox/openapi.json.
// Imported (not read from disk) so the bundle of the CLI carries it wherever dist/ goes.
import document from './control-openapi.json' with { type: 'json' };
import type { SchemaDocument } from '../../openapi/schema-check.js';
import type { components } from '../../openapi/control.gen.js';

export const controlDocument = (): unknown => document;

/** The control document as the schema validator reads it. */
export const CONTROL_DOCUMENT: SchemaDocument = { id: 'control.json', load: async () => document };

/** A schema of the document (components.schemas), generated from it with the rest of control.gen.ts. */
export type ControlSchemaName = keyof components['schemas'];

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

export interface ControlOperation {
  operationId: string;
  method: string;
  path: string;
  /** The schema (components.schemas name) of its JSON request body, if it takes one. */
  bodySchema: string | null;
}

type OperationObject = { operationId: string; requestBody?: { content: Record<string, { schema: { $ref?: string } }> } };

/** Every operation of the document, in document order. */
export function controlOperations(): ControlOperation[] {
  const ops: ControlOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const ref = op.requestBody?.content['application/json']?.schema.$ref;
      ops.push({ operationId: op.operationId, method: method.toUpperCase(), path, bodySchema: ref ? ref.split('/').pop()! : null });
    }
  }
  return ops;
}
