// The OpenAPI 3.1.1 document of the sandbox's control routes (/_sandbox/*), served at /_sandbox/openapi.json.
// Imported (not read from disk) so the bundle of the CLI carries it wherever dist/ goes.
import document from './openapi.json' with { type: 'json' };

export const controlDocument = (): unknown => document;

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
