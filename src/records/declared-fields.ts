// The fields a record is declared to carry, for the output layer's checks of --columns and --sort, and which of
// them are times, for --sort's order: what the document in use (served, else bundled) says the records of an
// operation carry, dotted for nested members. The operation is found by method and path, as the spec states them,
// never by the document's operationIds.
import { recordFields, responseRecordSchema, type OpenApiDoc } from '../openapi/document-shapes.js';
import { operation } from '../openapi/operations.js';
import type { OperationId } from '../openapi/operation-types.js';
import { timeByDeclaredKinds, type DeclaredTimes } from './views.js';

/** Each field the document gives the records of an operation, with its kind (format, else JSON type); undefined when it gives none. */
function declaredKinds(document: OpenApiDoc, operationId: OperationId): Record<string, string> | undefined {
  const { method, path: template } = operation(operationId);
  const schema = responseRecordSchema(document, method, template);
  return schema ? recordFields(schema) : undefined;
}

/** Undefined for an operation the document gives no record schema: the records alone then decide. */
export function declaredFieldsIn(load: () => Promise<{ document: OpenApiDoc }>) {
  return async (operationId: OperationId): Promise<ReadonlySet<string> | undefined> => {
    const kinds = declaredKinds((await load()).document, operationId);
    return kinds ? new Set(Object.keys(kinds)) : undefined;
  };
}

/** Which fields of an operation's records the document in use declares date-times (views.ts `timeByDeclaredKinds`). */
export function declaredTimesIn(load: () => Promise<{ document: OpenApiDoc; source: string }>): DeclaredTimes {
  return async (operationId) => {
    const { document, source } = await load();
    return timeByDeclaredKinds(source === 'bundled' ? undefined : declaredKinds(document, operationId));
  };
}
